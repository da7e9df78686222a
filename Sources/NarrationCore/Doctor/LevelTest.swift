import func Foundation.pow
import func Foundation.sqrt

/// What a few seconds of "say a sentence now" measured: the figures a sound engineer reads
/// before a session.
public struct LevelMeasurement: Sendable, Equatable {
    /// How long the test listened.
    public var seconds: Double
    /// The highest sample of any channel.
    public var peak: Decibels
    /// The RMS of everything heard, pauses included.
    public var rms: Decibels
    /// The RMS of the windows where someone spoke: those at least `LevelTestMeter.speechAboveFloor`
    /// above the noise floor (all of them when none is).
    public var speechRMS: Decibels
    /// The room's noise between words: the 10th percentile of the 50 ms windows' RMS.
    public var noiseFloor: Decibels
    /// Samples at the format's full scale (the top code or beyond).
    public var clippedSamples: Int
    /// Every sample was exactly zero: no microphone sends that, a muted input does.
    public var isDigitalSilence: Bool

    public init(
        seconds: Double, peak: Decibels, rms: Decibels, speechRMS: Decibels, noiseFloor: Decibels, clippedSamples: Int, isDigitalSilence: Bool
    ) {
        self.seconds = seconds
        self.peak = peak
        self.rms = rms
        self.speechRMS = speechRMS
        self.noiseFloor = noiseFloor
        self.clippedSamples = clippedSamples
        self.isDigitalSilence = isDigitalSilence
    }

    /// How far the voice stands above the room's noise, in dB.
    public var signalToNoise: Double { speechRMS.value - noiseFloor.value }
}

/// Measures a level test from interleaved left-justified samples (full scale `Int32.max`), as they
/// come from the microphone: peak and RMS (`LevelAccumulator`), RMS in 50 ms windows for the noise
/// floor and the speech level, clipped samples, and whether anything but zeros came.
public struct LevelTestMeter: Sendable {
    /// The windows the noise floor and the speech level are measured in: short enough that the
    /// pauses between words of one sentence hold whole windows.
    public static let windowSeconds = 0.05
    /// The fraction of windows, quietest first, below which the noise floor lies: the pauses of a
    /// spoken sentence are rarely fewer than one window in ten.
    public static let floorPercentile = 0.1
    /// Windows this far (dB) above the noise floor count as speech.
    public static let speechAboveFloor = 10.0

    public let format: AudioFormat
    private var levels: LevelAccumulator
    /// The mean square of each complete window, all channels together.
    private var windows: WindowedPower
    private var clipped = 0
    private var heardAnything = false

    public init(format: AudioFormat) {
        self.format = format
        levels = LevelAccumulator(channels: format.channels)
        windows = WindowedPower(windowFrames: format.frames(forSeconds: Self.windowSeconds))
    }

    /// Adds interleaved samples; `samples.count` must be a whole number of frames.
    public mutating func add(_ samples: UnsafeBufferPointer<Int32>) {
        levels.add(samples)
        let channels = format.channels
        let scale = 1 / Double(Int32.max)
        // The top code of the format, left-justified, as `SignalStatistics` counts clipping.
        let fullScale = Int32.max - (1 << (32 - format.bitsPerSample))
        for index in stride(from: 0, to: samples.count, by: channels) {
            var power = 0.0
            for channel in 0..<channels {
                let sample = samples[index + channel]
                if sample != 0 { heardAnything = true }
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
        if !windows.powers.isEmpty {
            let sorted = windows.powers.sorted()
            // Nearest rank: the smallest window power at or above the percentile.
            let rank = max(1, Int((Double(sorted.count) * Self.floorPercentile).rounded(.up)))
            let floorPower = sorted[rank - 1]
            floor = Decibels(amplitude: sqrt(floorPower))
            let threshold = floorPower * pow(10, Self.speechAboveFloor / 10)
            let spoken = sorted.filter { $0 > threshold }
            if !spoken.isEmpty { speech = Decibels(amplitude: sqrt(spoken.reduce(0, +) / Double(spoken.count))) }
        }
        return LevelMeasurement(
            seconds: format.seconds(levels.frames), peak: levels.peak, rms: rms, speechRMS: speech, noiseFloor: floor, clippedSamples: clipped,
            isDigitalSilence: levels.frames > 0 && !heardAnything)
    }
}

/// One thing a sound engineer would say about a level test.
public enum LevelIssue: Sendable, Equatable {
    /// Every sample was zero: the input is muted, or its capture switch is off.
    case digitalSilence
    /// Almost nothing came: the wrong microphone, or one switched off or turned right down.
    case nothingHeard(peak: Decibels)
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

    /// How bad it is: what ruins a take is a problem, what makes it worse a warning.
    public var status: DoctorFinding.Status {
        switch self {
        case .digitalSilence, .nothingHeard, .clipping: .problem
        case .hot, .quiet, .noisy, .lowSignalToNoise: .warning
        }
    }

    /// A name for scripts: "digitalSilence", "clipping", …
    public var name: String {
        switch self {
        case .digitalSilence: "digitalSilence"
        case .nothingHeard: "nothingHeard"
        case .clipping: "clipping"
        case .hot: "hot"
        case .quiet: "quiet"
        case .noisy: "noisy"
        case .lowSignalToNoise: "lowSignalToNoise"
        }
    }

    /// What was heard, in a few words.
    public var found: String {
        switch self {
        case .digitalSilence: "the microphone gave digital silence: every sample was exactly zero"
        case .nothingHeard(let peak): "almost nothing was heard (peak \(peak))"
        case .clipping(let samples): "\(samples) sample\(samples == 1 ? "" : "s") clipped at full scale: the voice is distorted"
        case .hot(let peak): "peaks reach \(peak), with almost no room above"
        case .quiet(let speech): "speech is quiet (\(speech.formatted) dBFS RMS)"
        case .noisy(let floor): "the room is noisy (noise floor \(floor))"
        case .lowSignalToNoise(let decibels): "the voice is only \(String(format1: decibels)) dB above the room's noise"
        }
    }

    /// What to do, as a sound engineer would say it.
    public var advice: String {
        switch self {
        case .digitalSilence:
            "The microphone is muted or its capture switch is off: unmute it in alsamixer (press F4 for the capture controls) or in your system's sound settings."
        case .nothingHeard:
            "Check that this is the microphone you speak into, that it is switched on and turned up, and speak while the test listens."
        case .clipping:
            "Turn the input gain down (the knob on the microphone, or alsamixer) or sit a little further back, until your loudest words peak around -6 dBFS."
        case .hot:
            "Turn the input gain down a little, so that your loudest words peak around -6 dBFS."
        case .quiet:
            "Move closer to the microphone (about a hand's width away) or turn its input gain up, until your speech averages about -20 dBFS."
        case .noisy:
            "Record somewhere quieter: away from fans, computers and open windows; curtains and soft furnishings help."
        case .lowSignalToNoise:
            "Aim for your voice at least \(Int(LevelAdvice.minimumSignalToNoise)) dB above the room's noise: move closer to the microphone and make the room quieter."
        }
    }
}

/// The judgement of a level test, as a sound engineer would give it. Every threshold is here.
public enum LevelAdvice {
    /// Peaks above −1 dBFS leave no headroom: the next louder word clips, and an MP3 encoder's
    /// overshoot adds more. Speech is best peaking around −6 dBFS.
    public static let hotPeak = Decibels(-1)
    /// Speech averaging below −40 dBFS RMS is too far from the microphone or has too little gain:
    /// raising it later raises the room's noise with it. Speech is best around −20 dBFS RMS
    /// (ACX asks for −23 to −18 after mastering).
    public static let quietSpeech = Decibels(-40)
    /// Peaks below −50 dBFS mean that nothing was heard: the level at which the recorder warns
    /// "is the microphone on?" (`InputWatch.quietThreshold`).
    public static let nothingHeard = InputWatch.quietThreshold
    /// Room noise above −50 dBFS is heard under the voice; ACX asks for −60 dBFS or below.
    public static let noisyFloor = Decibels(-50)
    /// The voice should stand at least 20 dB above the room's noise (40 dB is good).
    public static let minimumSignalToNoise = 20.0

    /// What is wrong with `measurement`, worst first; empty when the levels are good.
    ///
    /// Digital silence and nothing heard say all there is to say; otherwise clipping (or, without
    /// clipped samples, peaks above `hotPeak`), quiet speech, a noisy room and a voice too close
    /// to the noise are each said.
    public static func issues(_ measurement: LevelMeasurement) -> [LevelIssue] {
        if measurement.isDigitalSilence { return [.digitalSilence] }
        if measurement.peak < nothingHeard { return [.nothingHeard(peak: measurement.peak)] }
        var issues: [LevelIssue] = []
        if measurement.clippedSamples > 0 {
            issues.append(.clipping(samples: measurement.clippedSamples))
        } else if measurement.peak > hotPeak {
            issues.append(.hot(peak: measurement.peak))
        }
        if measurement.speechRMS < quietSpeech { issues.append(.quiet(speech: measurement.speechRMS)) }
        if measurement.noiseFloor > noisyFloor { issues.append(.noisy(floor: measurement.noiseFloor)) }
        if measurement.signalToNoise < minimumSignalToNoise { issues.append(.lowSignalToNoise(decibels: measurement.signalToNoise)) }
        return issues
    }

    /// The level test as one finding: the figures, then what is wrong and what to do about it.
    public static func finding(_ measurement: LevelMeasurement) -> DoctorFinding {
        let issues = issues(measurement)
        if issues == [.digitalSilence] {
            return DoctorFinding(.level, .problem, LevelIssue.digitalSilence.found, advice: LevelIssue.digitalSilence.advice)
        }
        let clipping = measurement.clippedSamples == 0 ? "no clipping" : "\(measurement.clippedSamples) clipped"
        let above = measurement.noiseFloor == .silence
            ? "digital silence between words" : "voice \(String(format1: measurement.signalToNoise)) dB above it"
        let figures = "peak \(measurement.peak), speech \(measurement.speechRMS.formatted) dBFS RMS, noise floor \(measurement.noiseFloor) (\(above)), \(clipping)"
        guard !issues.isEmpty else { return DoctorFinding(.level, .ok, figures) }
        return DoctorFinding(
            .level, issues.map(\.status).max() ?? .warning, ([figures] + issues.map(\.found)).joined(separator: "; "),
            advice: issues.map(\.advice).joined(separator: " "))
    }
}
