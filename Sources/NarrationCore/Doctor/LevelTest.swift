import func Foundation.pow
import func Foundation.sqrt

/// What a few seconds of "say a sentence now" measured: the figures a sound engineer reads
/// before a session.
public struct LevelMeasurement: Sendable, Equatable {
    /// Whether a voice was told apart from the room, and whether the room was heard alone.
    public enum Voice: Sendable, Equatable {
        /// Some windows stand `LevelTestMeter.speechAboveFloor` above the quietest tenth, and at
        /// least a tenth lie `LevelTestMeter.pauseBelowSpeech` below the speech: the quietest
        /// tenth is the room between words.
        case withPauses
        /// A voice with no pause long enough to hear the room: fewer than a tenth of the windows
        /// lie `LevelTestMeter.pauseBelowSpeech` below the speech, or the take is one steady
        /// level at `LevelAdvice.quietSpeech` or above. The noise floor is only an upper bound.
        case unbroken
        /// One steady level below `LevelAdvice.quietSpeech` and nothing standing above it: the
        /// room alone, nobody spoke.
        case notHeard
    }

    /// How long the test listened.
    public var seconds: Double
    /// The highest sample of any channel.
    public var peak: Decibels
    /// The RMS of everything heard, pauses included.
    public var rms: Decibels
    /// The RMS of the windows where someone spoke: those at least `LevelTestMeter.speechAboveFloor`
    /// above the noise floor (all of them when none is).
    public var speechRMS: Decibels
    /// The room's noise between words: the 10th percentile of the 50 ms windows' RMS (see `voice`
    /// for when that is not the room).
    public var noiseFloor: Decibels
    /// Samples at the format's full scale (the top code or beyond).
    public var clippedSamples: Int
    /// Every sample was exactly zero: no microphone sends that, a muted input does.
    public var isDigitalSilence: Bool
    /// Whether someone spoke, and whether the room was heard between words.
    public var voice: Voice

    public init(
        seconds: Double, peak: Decibels, rms: Decibels, speechRMS: Decibels, noiseFloor: Decibels, clippedSamples: Int, isDigitalSilence: Bool,
        voice: Voice = .withPauses
    ) {
        self.seconds = seconds
        self.peak = peak
        self.rms = rms
        self.speechRMS = speechRMS
        self.noiseFloor = noiseFloor
        self.clippedSamples = clippedSamples
        self.isDigitalSilence = isDigitalSilence
        self.voice = voice
    }

    /// How far the voice stands above the room's noise, in dB.
    public var signalToNoise: Double { speechRMS.value - noiseFloor.value }
}

/// Measures a level test from interleaved left-justified samples (full scale `Int32.max`), as they
/// come from the microphone: peak and RMS (`LevelAccumulator`), RMS in 50 ms windows for the noise
/// floor and the speech level, clipped samples, and whether anything but zeros came.
///
/// All-zero frames before the first sound are left out of every figure but `seconds`: a device
/// still waking up sends them, and in the floor's percentile they would read as digital silence
/// between words and hide a noisy room. A take of zeros only is still digital silence.
///
/// Continuous speech is not called noise: the quietest tenth of the windows is the room only when
/// at least a tenth of them lie `pauseBelowSpeech` below the speech (pauses); otherwise the voice
/// is `unbroken` and the floor is said to be unmeasured. A steady level with nothing standing
/// `speechAboveFloor` above it is the room alone (`notHeard`) below `LevelAdvice.quietSpeech`,
/// and a voice held without a break at or above it.
public struct LevelTestMeter: Sendable {
    /// The windows the noise floor and the speech level are measured in: short enough that the
    /// pauses between words of one sentence hold whole windows.
    public static let windowSeconds = 0.05
    /// The fraction of windows, quietest first, below which the noise floor lies: the pauses of a
    /// spoken sentence are rarely fewer than one window in ten.
    public static let floorPercentile = 0.1
    /// Windows this far (dB) above the noise floor count as speech.
    public static let speechAboveFloor = 10.0
    /// Windows this far (dB) below the speech level could be pauses; the quietest words of a
    /// sentence rarely fall so far below its average.
    public static let pauseBelowSpeech = 20.0

    public let format: AudioFormat
    private var levels: LevelAccumulator
    /// The mean square of each complete window, all channels together.
    private var windows: WindowedPower
    private var clipped = 0
    private var heardAnything = false
    /// All-zero frames before the first sound, left out of the figures.
    private var leadingZeroFrames: FrameCount = 0

    public init(format: AudioFormat) {
        self.format = format
        levels = LevelAccumulator(channels: format.channels)
        windows = WindowedPower(windowFrames: format.frames(forSeconds: Self.windowSeconds))
    }

    /// Adds interleaved samples; `samples.count` must be a whole number of frames.
    public mutating func add(_ samples: UnsafeBufferPointer<Int32>) {
        let channels = format.channels
        var start = 0
        if !heardAnything {
            // Skip whole frames of zeros until the first sound.
            let first = samples.firstIndex { $0 != 0 } ?? samples.count
            start = first - first % channels
            leadingZeroFrames += start / channels
            guard start < samples.count else { return }
            heardAnything = true
        }
        let heard = UnsafeBufferPointer(rebasing: samples[start...])
        levels.add(heard)
        let scale = 1 / Double(Int32.max)
        // The top code of the format, left-justified, as `SignalStatistics` counts clipping.
        let fullScale = Int32.max - (1 << (32 - format.bitsPerSample))
        for index in stride(from: 0, to: heard.count, by: channels) {
            var power = 0.0
            for channel in 0..<channels {
                let sample = heard[index + channel]
                if sample >= fullScale || sample <= -fullScale - 1 { clipped += 1 }
                let value = Double(sample) * scale
                power += value * value
            }
            windows.add(framePower: power / Double(channels))
        }
    }

    /// The figures of what was added so far.
    public var measurement: LevelMeasurement {
        let rms = levels.rms
        var floor = rms
        var speech = rms
        var voice = LevelMeasurement.Voice.withPauses
        if !windows.powers.isEmpty {
            let sorted = windows.powers.sorted()
            // Nearest rank: the smallest window power at or above the percentile.
            let rank = max(1, Int((Double(sorted.count) * Self.floorPercentile).rounded(.up)))
            let floorPower = sorted[rank - 1]
            floor = Decibels(amplitude: sqrt(floorPower))
            let threshold = floorPower * pow(10, Self.speechAboveFloor / 10)
            let spoken = sorted.filter { $0 > threshold }
            if spoken.isEmpty {
                voice = rms < LevelAdvice.quietSpeech ? .notHeard : .unbroken
            } else {
                let speechPower = spoken.reduce(0, +) / Double(spoken.count)
                speech = Decibels(amplitude: sqrt(speechPower))
                let pauses = sorted.prefix { $0 <= speechPower * pow(10, -Self.pauseBelowSpeech / 10) }.count
                if Double(pauses) < Double(sorted.count) * Self.floorPercentile { voice = .unbroken }
            }
        }
        return LevelMeasurement(
            seconds: format.seconds(levels.frames + leadingZeroFrames), peak: levels.peak, rms: rms, speechRMS: speech, noiseFloor: floor,
            clippedSamples: clipped, isDigitalSilence: leadingZeroFrames > 0 && !heardAnything, voice: voice)
    }
}

/// One thing a sound engineer would say about a level test.
public enum LevelIssue: Sendable, Equatable {
    /// Every sample was zero: the input is muted, or its capture switch is off.
    case digitalSilence
    /// Almost nothing came: the wrong microphone, or one switched off or turned right down.
    case nothingHeard(peak: Decibels)
    /// The room was heard, but no voice above it.
    case noSpeech
    /// Samples reached full scale: the voice is distorted.
    case clipping(samples: Int)
    /// Peaks come close to full scale: the next louder word clips.
    case hot(peak: Decibels)
    /// The voice is too far from the microphone, or the gain too low.
    case quiet(speech: Decibels)
    /// The room's noise is loud enough to hear under the voice.
    case noisy(floor: Decibels)
    /// The voice does not stand far enough above the room's noise.
    case lowSignalToNoise(decibels: Double)
    /// The voice never paused, so the room's noise could not be measured.
    case floorUnmeasured

    /// How bad it is: what ruins a take is a problem, what makes it worse a warning.
    public var status: DoctorFinding.Status {
        switch self {
        case .digitalSilence, .nothingHeard, .clipping: .problem
        case .noSpeech, .hot, .quiet, .noisy, .lowSignalToNoise, .floorUnmeasured: .warning
        }
    }

    /// A name for scripts: "digitalSilence", "clipping", …
    public var name: String {
        switch self {
        case .digitalSilence: "digitalSilence"
        case .nothingHeard: "nothingHeard"
        case .noSpeech: "noSpeech"
        case .clipping: "clipping"
        case .hot: "hot"
        case .quiet: "quiet"
        case .noisy: "noisy"
        case .lowSignalToNoise: "lowSignalToNoise"
        case .floorUnmeasured: "floorUnmeasured"
        }
    }

    /// What was heard, in a few words.
    public var found: String {
        switch self {
        case .digitalSilence: "the microphone gave digital silence: every sample was exactly zero"
        case .nothingHeard(let peak): "almost nothing was heard (peak \(peak))"
        case .noSpeech: "no speech was heard, only the room"
        case .clipping(let samples): "\(samples) sample\(samples == 1 ? "" : "s") clipped at full scale: the voice is distorted"
        case .hot(let peak): "peaks reach \(peak), above \(LevelAdvice.hotPeak): little room before clipping"
        case .quiet(let speech): "speech is too quiet (\(speech.formatted) dBFS RMS, below \(LevelAdvice.quietSpeech))"
        case .noisy(let floor): "the room is noisy (noise floor \(floor), above \(LevelAdvice.noisyFloor))"
        case .lowSignalToNoise(let decibels):
            "the room is loud next to your voice: the voice is only \(String(format1: decibels)) dB above the room's noise"
        case .floorUnmeasured: "the room's noise could not be measured: there was no pause between words"
        }
    }

    /// What to do, as a sound engineer would say it.
    public var advice: String {
        switch self {
        case .digitalSilence:
            "The microphone is muted or its capture switch is off: unmute it in alsamixer (press F4 for the capture controls) or in your system's sound settings."
        case .nothingHeard:
            "Check that this is the microphone you speak into, that it is switched on and turned up, and speak while the test listens."
        case .noSpeech:
            "Speak a sentence while the test listens, as you would read an article."
        case .clipping:
            "Turn the input gain down (the knob on the microphone, or alsamixer) or sit a little further back, until your loudest words peak around -6 dBFS."
        case .hot:
            "Turn the input gain down a little, so that your loudest words peak around -6 dBFS."
        case .quiet:
            "Too quiet: move closer to the microphone (about a hand's width away) or raise its input gain, until your speech averages about -20 dBFS."
        case .noisy:
            "Record somewhere quieter: away from fans, computers and open windows; curtains and soft furnishings help. Aim for -60 dBFS or below between words."
        case .lowSignalToNoise:
            "Aim for your voice at least \(Int(LevelAdvice.minimumSignalToNoise)) dB above the room's noise (\(Int(LevelAdvice.goodSignalToNoise)) dB is good): move closer to the microphone and make the room quieter."
        case .floorUnmeasured:
            "Leave a pause of a second or so between sentences while the test listens, so that the room can be heard alone."
        }
    }
}

/// The judgement of a level test, as a sound engineer would give it for narration that is
/// mastered to a loudness target before delivery. Every threshold is here; the figures come from
/// ACX's audio submission requirements (RMS -23 to -18 dBFS, peaks at most -3 dBFS, noise floor
/// at most -60 dBFS), read before mastering.
public enum LevelAdvice {
    /// Peaks above -3 dBFS: ACX's ceiling for peaks. The next louder word clips, and an MP3
    /// encoder's overshoot adds more. Speech is best peaking around -6 dBFS.
    public static let hotPeak = Decibels(-3)
    /// Speech averaging below -30 dBFS RMS is too far from the microphone or has too little gain:
    /// reaching ACX's -23 to -18 then takes over 7 dB of gain, which raises the room's noise with
    /// it. Speech is best around -20 dBFS RMS.
    public static let quietSpeech = Decibels(-30)
    /// Peaks below -50 dBFS mean that nothing was heard: the level at which the recorder warns
    /// "is the microphone on?" (`InputWatch.quietThreshold`).
    public static let nothingHeard = InputWatch.quietThreshold
    /// Room noise above -50 dBFS is heard under the voice, and is 10 dB above ACX's -60 dBFS
    /// (between -60 and -50 mastering or a noise gate can still bring it down).
    public static let noisyFloor = Decibels(-50)
    /// The voice should stand at least 30 dB above the room's noise: less and the room is heard
    /// in every pause once the voice is brought up to a loudness target.
    public static let minimumSignalToNoise = 30.0
    /// 40 dB or more above the room is good: ACX's -60 dBFS floor under speech at -20 dBFS RMS.
    public static let goodSignalToNoise = 40.0

    /// What is wrong with `measurement`, worst first; empty when the levels are good.
    ///
    /// Digital silence, nothing heard and no speech heard each say all there is to say;
    /// otherwise clipping (or, without clipped samples, peaks above `hotPeak`), quiet speech,
    /// and then a noisy room and a voice too close to the noise, or, when the voice never paused,
    /// that the room could not be measured.
    public static func issues(_ measurement: LevelMeasurement) -> [LevelIssue] {
        if measurement.isDigitalSilence { return [.digitalSilence] }
        if measurement.peak < nothingHeard { return [.nothingHeard(peak: measurement.peak)] }
        if measurement.voice == .notHeard { return [.noSpeech] }
        var issues: [LevelIssue] = []
        if measurement.clippedSamples > 0 {
            issues.append(.clipping(samples: measurement.clippedSamples))
        } else if measurement.peak > hotPeak {
            issues.append(.hot(peak: measurement.peak))
        }
        if measurement.speechRMS < quietSpeech { issues.append(.quiet(speech: measurement.speechRMS)) }
        if measurement.voice == .unbroken {
            issues.append(.floorUnmeasured)
        } else {
            if measurement.noiseFloor > noisyFloor { issues.append(.noisy(floor: measurement.noiseFloor)) }
            if measurement.signalToNoise < minimumSignalToNoise { issues.append(.lowSignalToNoise(decibels: measurement.signalToNoise)) }
        }
        return issues
    }

    /// The level test as one finding: the figures, then what is wrong and what to do about it.
    public static func finding(_ measurement: LevelMeasurement) -> DoctorFinding {
        let issues = issues(measurement)
        if let only = issues.first, issues.count == 1, only == .digitalSilence || only == .noSpeech {
            return DoctorFinding(.level, only.status, only.found, advice: only.advice)
        }
        let clipping = measurement.clippedSamples == 0 ? "no clipping" : "\(measurement.clippedSamples) clipped"
        let floor: String
        switch measurement.voice {
        case .unbroken:
            floor = "noise floor not measured"
        case .withPauses, .notHeard:
            let above = measurement.noiseFloor == .silence
                ? "digital silence between words" : "voice \(String(format1: measurement.signalToNoise)) dB above it"
            floor = "noise floor \(measurement.noiseFloor) (\(above))"
        }
        let figures = "peak \(measurement.peak), speech \(measurement.speechRMS.formatted) dBFS RMS, \(floor), \(clipping)"
        guard !issues.isEmpty else { return DoctorFinding(.level, .ok, figures) }
        return DoctorFinding(
            .level, issues.map(\.status).max() ?? .warning, ([figures] + issues.map(\.found)).joined(separator: "; "),
            advice: issues.map(\.advice).joined(separator: " "))
    }
}
