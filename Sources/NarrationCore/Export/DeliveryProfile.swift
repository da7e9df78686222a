/// How an organisation wants its files: format, mastering, and the rules a file must pass.
///
/// Built in: `archive` (FLAC, untouched: the default), `librivox`, `acx`, `podcast`, `mobile`
/// and `telephone`.
public struct DeliveryProfile: Sendable, Equatable {
    public let name: String
    public let format: ExportFormat
    public let mp3: MP3Encoding
    public let mastering: Mastering
    public let rules: [DeliveryRule]
    /// What a delivery in this profile carries besides the audio (see `DeliveryItem`): the audio
    /// alone unless config.toml's `carries` names more.
    public var carries: Set<DeliveryItem>
    /// The bitrate of an Ogg Opus file in kbit/s (config.toml's `bitrate` in an Opus profile,
    /// within `OpusBitrate.range`); nil: Opus's speech default for the file's channels
    /// (`OpusBitrate.speechDefault`).
    public var opusKbps: Int?

    public init(
        name: String, format: ExportFormat, mp3: MP3Encoding, mastering: Mastering, rules: [DeliveryRule], carries: Set<DeliveryItem> = [.audio],
        opusKbps: Int? = nil
    ) {
        self.name = name
        self.format = format
        self.mp3 = mp3
        self.mastering = mastering
        self.rules = rules
        self.carries = carries.union([.audio])
        self.opusKbps = opusKbps
    }

    public static let archive = DeliveryProfile(
        name: "archive", format: .flac, mp3: .constant(kbps: 128), mastering: Mastering(), rules: [])

    /// LibriVox: MP3 128 kbit/s CBR, mono, 44.1 kHz (an article at another rate is converted),
    /// peak ≤ −1 dB, no clipping. The limiter holds −2 dBTP: encoding raises peaks (see `Mastering.peakCeiling`).
    public static let librivox = DeliveryProfile(
        name: "librivox", format: .mp3, mp3: .constant(kbps: 128),
        mastering: Mastering(peakCeiling: Decibels(-2), joinFadeSeconds: 0.005),
        rules: [.sampleRate(44_100), .channels(1), .peakAtMost(Decibels(-1)), .noClipping])

    /// ACX (Audible): MP3 192 kbit/s CBR 44.1 kHz, RMS −23…−18 dB, peak ≤ −3 dB, noise floor
    /// ≤ −60 dB, 0.5–1 s of room tone at the head and 1–5 s at the tail, no clipping. A recording
    /// whose noise floor would end up above about −63 dB has the room's noise reduced first.
    public static let acx = DeliveryProfile(
        name: "acx", format: .mp3, mp3: .constant(kbps: 192),
        mastering: Mastering(
            rmsTarget: Decibels(-20), peakCeiling: Decibels(-3.5), roomToneHeadSeconds: 0.75, roomToneTailSeconds: 2,
            maxPauseSeconds: 1.5, joinFadeSeconds: 0.005),
        rules: [
            .sampleRate(44_100), .rmsBetween(Decibels(-23), Decibels(-18)), .peakAtMost(Decibels(-3)),
            .noiseFloorAtMost(Decibels(-60)), .headSilenceBetween(0.5, 1), .tailSilenceBetween(1, 5), .noClipping,
        ])

    /// Podcasts: −16 LUFS for stereo, −19 LUFS for mono, true peak ≤ −1 dBTP. The limiter holds
    /// −2 dBTP: encoding raises true peaks (see `Mastering.peakCeiling`).
    public static let podcast = DeliveryProfile(
        name: "podcast", format: .mp3, mp3: .constant(kbps: 128),
        mastering: Mastering(loudnessTarget: .podcast, peakCeiling: Decibels(-2), maxPauseSeconds: 2, joinFadeSeconds: 0.005),
        rules: [.loudness(.podcast, tolerance: 1), .truePeakAtMost(Decibels(-1))])

    /// Phones' podcast apps: Ogg Opus at Opus's speech bitrate (32 kbit/s mono, 48 stereo, see
    /// `OpusBitrate`) with chapters, at podcast loudness (−19 LUFS mono, −16 stereo, true peak
    /// ≤ −1 dBTP, the limiter at −2 dBTP). Named for where it is heard, not for its codec: the
    /// same mastering as `podcast`, in a file a quarter of an MP3's size (a 20-minute mono
    /// article: about 4.7 MB instead of 19), which matters to listeners on a phone's data plan;
    /// Android plays Ogg Opus itself, and the chapters (CHAPTERxxx comments) let players that
    /// read them skip by paragraph. Check the listeners' apps before choosing it over `podcast`.
    public static let mobile = DeliveryProfile(
        name: "mobile", format: .opus, mp3: .constant(kbps: 128),
        mastering: Mastering(loudnessTarget: .podcast, peakCeiling: Decibels(-2), maxPauseSeconds: 2, joinFadeSeconds: 0.005),
        rules: [.loudness(.podcast, tolerance: 1), .truePeakAtMost(Decibels(-1))])

    /// Telephone systems (a newspaper read over a phone line, an IVR menu): WAV, 8 kHz, mono,
    /// 16-bit PCM, what such systems take without converting (G.711 lines carry 8 kHz; the
    /// system companands the 16-bit samples to 8-bit µ-law or A-law itself). An article at
    /// another rate is converted by libsoxr, a stereo one mixed to mono, a 24-bit one rounded to
    /// 16 bits.
    ///
    /// Mastered to −19 LUFS, true peak ≤ −1 dBTP (the limiter at −2 dBTP, as the other profiles
    /// hold it below their rule): −19 LUFS is podcast mono speech, and on a phone line it sits
    /// about 6 dB above ITU-T P.56's −26 dBov active speech level, where prompt recordings for
    /// phone systems are usually asked to be (averages around −20 dBFS): G.711's 8-bit
    /// companding loses detail on quiet speech, and listeners on a handset in a noisy room need
    /// the level; its peaks are held 1 dB below full scale so that the system's own conversion
    /// (and a codec beyond it) does not clip them. The rate conversion's lowpass at 4 kHz takes
    /// off what the loudness measure weights most, so the exporter measures the file it made and
    /// corrects the gain once if it missed. Pauses are cut to 2 s: a longer silence on a phone
    /// sounds like a dropped call.
    public static let telephone = DeliveryProfile(
        name: "telephone", format: .wav, mp3: .constant(kbps: 32),
        mastering: Mastering(loudnessTarget: .fixed(-19), peakCeiling: Decibels(-2), maxPauseSeconds: 2, joinFadeSeconds: 0.005),
        rules: [.sampleRate(8_000), .channels(1), .bitsPerSample(16), .truePeakAtMost(Decibels(-1))])

    public static let all = [archive, librivox, acx, podcast, mobile, telephone]


    /// The highest noise floor the profile's rules allow; nil when they set none. An export
    /// under a profile with one reduces the room's noise when the recording needs it (see
    /// `NoiseReductionStrength`).
    public var noiseFloorLimit: Decibels? {
        rules.lazy.compactMap { rule -> Decibels? in if case .noiseFloorAtMost(let limit) = rule { limit } else { nil } }.min()
    }

    /// The built-in profile called `name`.
    /// - Throws: `usage` naming the profiles there are.
    public static func named(_ name: String) throws(NarrationError) -> DeliveryProfile {
        guard let profile = all.first(where: { $0.name == name.lowercased() }) else {
            throw .usage("There is no profile \"\(name)\". Use one of \(all.map(\.name).joined(separator: ", ")).")
        }
        return profile
    }
}

/// A loudness target that may depend on the channel count.
public enum LoudnessTarget: Sendable, Equatable {
    case fixed(Double)
    /// −16 LUFS stereo, −19 LUFS mono.
    case podcast

    public func lufs(channels: Int) -> Double {
        switch self {
        case .fixed(let value): value
        case .podcast: channels == 1 ? -19 : -16
        }
    }
}

/// The mastering steps a profile switches on; all off by default (the samples stay untouched).
public struct Mastering: Sendable, Equatable {
    /// Integrated loudness to normalise to (EBU R128).
    public var loudnessTarget: LoudnessTarget?
    /// RMS level to normalise to (ACX measures RMS, not loudness).
    public var rmsTarget: Decibels?
    /// A limiter holds the true peak (BS.1770-4, between samples too) at or below this. Set it
    /// below the profile's peak rule: encoding MP3 raises true peaks a little (measured: up to
    /// about 0.6 dB on sharp transients at 128 kbit/s).
    public var peakCeiling: Decibels?
    /// Room tone (the recording's quietest 500 ms, repeated; see `RoomTone`) at the head and the
    /// tail: the recording's own room tone at its outer edges is cut, so the file holds this much.
    /// When the export reduces noise, this room tone passes through the same gate as the article,
    /// so it is the cleaned room tone.
    public var roomToneHeadSeconds: Double?
    public var roomToneTailSeconds: Double?
    /// Silence at each chunk's edges is cut to at most this.
    public var maxPauseSeconds: Double?
    /// A fade this long at each join between chunks, against clicks.
    public var joinFadeSeconds: Double?

    public init(
        loudnessTarget: LoudnessTarget? = nil, rmsTarget: Decibels? = nil, peakCeiling: Decibels? = nil,
        roomToneHeadSeconds: Double? = nil, roomToneTailSeconds: Double? = nil, maxPauseSeconds: Double? = nil,
        joinFadeSeconds: Double? = nil
    ) {
        self.loudnessTarget = loudnessTarget
        self.rmsTarget = rmsTarget
        self.peakCeiling = peakCeiling
        self.roomToneHeadSeconds = roomToneHeadSeconds
        self.roomToneTailSeconds = roomToneTailSeconds
        self.maxPauseSeconds = maxPauseSeconds
        self.joinFadeSeconds = joinFadeSeconds
    }

    /// Whether the samples pass through unchanged.
    public var isIdentity: Bool { self == Mastering() }
}

/// One requirement of a delivery profile.
public enum DeliveryRule: Sendable, Equatable {
    case sampleRate(Int)
    case channels(Int)
    case rmsBetween(Decibels, Decibels)
    case peakAtMost(Decibels)
    case truePeakAtMost(Decibels)
    case noiseFloorAtMost(Decibels)
    case loudness(LoudnessTarget, tolerance: Double)
    /// Room tone (see `RoomTone`) at the very start and end, in seconds.
    case headSilenceBetween(Double, Double)
    case tailSilenceBetween(Double, Double)
    /// No clipped stretch at all (a run of at least 3 samples at full scale, as `check` reports).
    case noClipping
    /// No silence (below −50 dBFS) longer than this many seconds: a listener takes a longer one
    /// for the end, or for a fault.
    case silencesAtMost(Double)

    /// PCM of this many bits per sample (WAV or FLAC: a lossy file holds no integer depth).
    case bitsPerSample(Int)

    /// The sample rate this rule asks for, if it is a sample-rate rule.
    public var requiredSampleRate: Int? {
        if case .sampleRate(let rate) = self { rate } else { nil }
    }

    /// The channel count this rule asks for, if it is a channels rule.
    public var requiredChannels: Int? {
        if case .channels(let count) = self { count } else { nil }
    }

    /// The bit depth this rule asks for, if it is a depth rule.
    public var requiredBitsPerSample: Int? {
        if case .bitsPerSample(let bits) = self { bits } else { nil }
    }
}
