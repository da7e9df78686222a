import Foundation

/// What `check` measures of a file or an article.
public struct Measurements: Sendable, Equatable {
    public var format: AudioFormat
    public var frames: FrameCount
    /// EBU R128 integrated loudness; nil when too short or too quiet to measure.
    public var integratedLoudness: Double?
    public var rms: Decibels
    public var peak: Decibels
    public var truePeak: Decibels
    public var noiseFloor: Decibels
    /// Runs of clipped samples, those less than `clippingGapSeconds` apart joined into one stretch.
    public var clipping: [Stretch]
    public var longSilences: [Stretch]
    /// The longest silence (below −50 dBFS) anywhere, in whole 100 ms windows; nil if none.
    public var longestSilence: Stretch?
    /// Seconds of room tone (see `RoomTone`: windows at most 6 dB above the noise floor) at the
    /// very start and end: what the exporter makes there.
    public var headSilence: Double
    public var tailSilence: Double

    /// Clipped runs closer than this are reported as one stretch.
    public static let clippingGapSeconds = 0.5

    public init(statistics: SignalStatistics, integratedLoudness: Double?, truePeak: Decibels) {
        format = statistics.format
        frames = statistics.levels.frames
        self.integratedLoudness = integratedLoudness
        rms = statistics.levels.rms
        peak = statistics.levels.peak
        self.truePeak = truePeak
        noiseFloor = statistics.noiseFloor
        clipping = Stretch.merged(statistics.clipping, within: statistics.format.frames(forSeconds: Self.clippingGapSeconds))
        longSilences = statistics.longSilences
        longestSilence = statistics.silences(longerThan: 0).max { $0.end - $0.start < $1.end - $1.start }
        let windows = statistics.windowPowers
        let floor = statistics.noiseFloor
        headSilence = Double(RoomTone.leadingWindows(windows, noiseFloor: floor)) * SignalStatistics.windowSeconds
        // From the end: the frames after the last whole window first, so that the tail is
        // measured to the file's last frame as the head is from its first.
        let trailing = statistics.trailingWindow
        if trailing.frames > 0 && !RoomTone.isRoomTone(power: trailing.power, noiseFloor: floor) {
            tailSilence = 0
        } else {
            tailSilence = statistics.format.seconds(trailing.frames)
                + Double(RoomTone.leadingWindows(windows.reversed(), noiseFloor: floor)) * SignalStatistics.windowSeconds
        }
    }
}

/// One rule's verdict, as a sentence a volunteer can act on.
public struct RuleResult: Sendable, Equatable {
    public let rule: String
    public let measured: String
    public let passed: Bool
}

extension Collection where Element == RuleResult {
    /// The rules that failed, each with what was measured: "peak at most -3.0 dB (measured -1.2 dB); …".
    public var failures: String {
        filter { !$0.passed }.map { "\($0.rule) (measured \($0.measured))" }.joined(separator: "; ")
    }
}

extension DeliveryProfile {
    /// Whether `measured` passes every rule, and one sentence saying so:
    /// "Loudness -19.0 LUFS, true peak -2.1 dBTP: meets the podcast profile."
    public func verdict(on measured: Measurements) -> (passed: Bool, sentence: String) {
        let loudness = measured.integratedLoudness.map { "\(String(format1: $0)) LUFS" } ?? "too quiet to measure"
        let results = rules.map { $0.evaluate(measured) }
        let passed = results.allSatisfy(\.passed)
        let verdict = passed ? "meets the \(name) profile" : "does not meet the \(name) profile: \(results.failures)"
        return (passed, "Loudness \(loudness), true peak \(measured.truePeak.formatted) dBTP: \(verdict).")
    }
}

extension DeliveryRule {
    /// Judges `measurements` against this rule.
    public func evaluate(_ measurements: Measurements) -> RuleResult {
        func decibels(_ value: Decibels) -> String { "\(value.formatted) dB" }
        func seconds(_ value: Double) -> String { "\(String(format1: value)) s" }
        switch self {
        case .sampleRate(let rate):
            return RuleResult(rule: "sample rate \(rate) Hz", measured: "\(measurements.format.sampleRate) Hz", passed: measurements.format.sampleRate == rate)
        case .channels(let count):
            return RuleResult(rule: count == 1 ? "mono" : "\(count) channels", measured: "\(measurements.format.channels) channel(s)", passed: measurements.format.channels == count)
        case .bitsPerSample(let bits):
            let depth = measurements.format.bitsPerSample
            return RuleResult(rule: "\(bits)-bit PCM", measured: "\(depth)-bit", passed: depth == bits)
        case .rmsBetween(let low, let high):
            return RuleResult(rule: "RMS \(low.formatted) to \(high.formatted) dB", measured: decibels(measurements.rms), passed: measurements.rms >= low && measurements.rms <= high)
        case .peakAtMost(let limit):
            return RuleResult(rule: "peak at most \(limit.formatted) dB", measured: decibels(measurements.peak), passed: measurements.peak <= limit)
        case .truePeakAtMost(let limit):
            return RuleResult(rule: "true peak at most \(limit.formatted) dBTP", measured: "\(measurements.truePeak.formatted) dBTP", passed: measurements.truePeak <= limit)
        case .noiseFloorAtMost(let limit):
            return RuleResult(rule: "noise floor at most \(limit.formatted) dB", measured: decibels(measurements.noiseFloor), passed: measurements.noiseFloor <= limit)
        case .loudness(let target, let tolerance):
            let lufs = target.lufs(channels: measurements.format.channels)
            let measured = measurements.integratedLoudness
            return RuleResult(
                rule: "loudness \(String(format1: lufs)) LUFS ± \(String(format1: tolerance))",
                measured: measured.map { "\(String(format1: $0)) LUFS" } ?? "too quiet to measure",
                passed: measured.map { abs($0 - lufs) <= tolerance } ?? false)
        case .headSilenceBetween(let low, let high):
            return RuleResult(rule: "room tone at the head \(String(format1: low))–\(String(format1: high)) s", measured: seconds(measurements.headSilence), passed: measurements.headSilence >= low && measurements.headSilence <= high)
        case .tailSilenceBetween(let low, let high):
            return RuleResult(rule: "room tone at the tail \(String(format1: low))–\(String(format1: high)) s", measured: seconds(measurements.tailSilence), passed: measurements.tailSilence >= low && measurements.tailSilence <= high)
        case .noClipping:
            let clipped = measurements.clipping
            let measured = clipped.isEmpty
                ? "none"
                : "\(clipped.count) clipped stretch\(clipped.count == 1 ? "" : "es"), the first at \(Timecode.precise(measurements.format.seconds(clipped[0].start)))"
            return RuleResult(rule: "no clipping", measured: measured, passed: clipped.isEmpty)
        case .silencesAtMost(let limit):
            let longest = measurements.longestSilence
            let length = longest.map { measurements.format.seconds($0.end - $0.start) } ?? 0
            let measured = longest.map { "\(seconds(length)) at \(Timecode.precise(measurements.format.seconds($0.start)))" } ?? "none"
            return RuleResult(rule: "no silence longer than \(String(format1: limit)) s", measured: measured, passed: length <= limit)
        }
    }
}


extension DeliveryProfile {
    /// How many dB the measured peak or true peak is over the profile's peak rules; nil when it
    /// meets them (what an export lowers its limiter's ceiling by to encode again).
    public func peakExcess(of measured: Measurements) -> Double? {
        let excesses = rules.compactMap { rule -> Double? in
            switch rule {
            case .peakAtMost(let limit): measured.peak.value - limit.value
            case .truePeakAtMost(let limit): measured.truePeak.value - limit.value
            default: nil
            }
        }
        guard let largest = excesses.max(), largest > 0 else { return nil }
        return largest
    }

    /// Why a file made under this profile cannot be delivered: for each rule it fails, one
    /// sentence naming the rule, what was measured and why the export could not meet it ("The acx
    /// profile needs a noise floor at or below -60.0 dB; this recording's is -44.2 dB: …"); nil
    /// when every rule passes. What the export does (the mastering's ceiling) explains the why.
    /// - Parameter noiseReduction: the reduction the export applied, if any (it explains a noise
    ///   floor still too high).
    public func shortfall(of measured: Measurements, noiseReduction: NoiseReductionStrength? = nil) -> String? {
        let sentences = rules.compactMap { $0.shortfall(measured, profile: self, noiseReduction: noiseReduction) }
        return sentences.isEmpty ? nil : sentences.joined(separator: " ")
    }
}

extension DeliveryRule {
    /// The sentence for a failed rule (see `DeliveryProfile.shortfall`); nil when it passes.
    func shortfall(_ m: Measurements, profile: DeliveryProfile, noiseReduction: NoiseReductionStrength? = nil) -> String? {
        guard !evaluate(m).passed else { return nil }
        let needs = "The \(profile.name) profile needs"
        let ceiling = profile.mastering.peakCeiling.map { "\($0.formatted) dBTP" }
        let time = { (frame: FrameCount) in Timecode.precise(m.format.seconds(frame)) }
        switch self {
        case .sampleRate(let rate):
            return "\(needs) a sample rate of \(rate) Hz; this file's is \(m.format.sampleRate) Hz: its format is made at that rate only, so choose another format for this profile."
        case .channels(let count):
            let wanted = count == 1 ? "mono" : "\(count) channels"
            return "\(needs) \(wanted); this file has \(m.format.channels) channel\(m.format.channels == 1 ? "" : "s"): an export with this profile mixes the article to \(wanted), so export it again with this profile."
        case .bitsPerSample(let bits):
            return "\(needs) \(bits)-bit PCM; this file's samples are \(m.format.bitsPerSample)-bit: an export with this profile makes \(bits)-bit WAV or FLAC, so export it again with this profile in one of those formats."
        case .rmsBetween(let low, let high):
            let why = ceiling.map { "its loudest sounds are so far above its average that the limiter holding them at \($0) takes back the level the gain gave" }
                ?? "the profile sets no RMS target"
            return "\(needs) an RMS level from \(low.formatted) to \(high.formatted) dB; this recording's is \(m.rms.formatted) dB: \(why), so read more evenly or lower the profile's peak ceiling."
        case .peakAtMost(let limit):
            let why = ceiling.map { "encoding raised the peaks above the limiter's ceiling of \($0)" } ?? "the profile sets no peak ceiling"
            return "\(needs) peaks at or below \(limit.formatted) dB; this file's peak is \(m.peak.formatted) dB: \(why), so lower the profile's peak ceiling."
        case .truePeakAtMost(let limit):
            let why = ceiling.map { "encoding raised the true peak above the limiter's ceiling of \($0)" } ?? "the profile sets no peak ceiling"
            return "\(needs) a true peak at or below \(limit.formatted) dBTP; this file's is \(m.truePeak.formatted) dBTP: \(why), so lower the profile's peak ceiling."
        case .noiseFloorAtMost(let limit):
            guard let reduction = noiseReduction else {
                return "\(needs) a noise floor at or below \(limit.formatted) dB; this recording's is \(m.noiseFloor.formatted) dB: the gain that brings the voice to the profile's level raises the room's noise with it, and narrate found no half second of the room alone to learn its noise from, so record a few seconds of the room's silence, in a quieter room or closer to the microphone."
            }
            let why = reduction.tooNoisy
                ? "the room is too noisy to clean: it would need \(Int(reduction.needed)) dB, and more than \(Int(NoiseReductionStrength.most)) dB of noise reduction would harm the voice"
                : "the room's noise is louder in the pauses than in its quietest moments, where narrate learnt it"
            return "\(needs) a noise floor at or below \(limit.formatted) dB; this file's is \(m.noiseFloor.formatted) dB even after narrate reduced the room's noise by \(Int(reduction.decibels)) dB: \(why), so record again in a quieter place or closer to the microphone."
        case .loudness(let target, let tolerance):
            let lufs = target.lufs(channels: m.format.channels)
            let measured = m.integratedLoudness.map { "\(String(format1: $0)) LUFS" } ?? "too quiet to measure"
            let why = ceiling.map { "the limiter holding the peaks at \($0) takes back the level the gain gave (the loudest sounds are far above the average)" }
                ?? "the profile sets no loudness target"
            return "\(needs) a loudness of \(String(format1: lufs)) LUFS ± \(String(format1: tolerance)); this file's is \(measured): \(why), so read more evenly or lower the loudness the profile asks for."
        case .headSilenceBetween(let low, let high), .tailSilenceBetween(let low, let high):
            let edge = if case .headSilenceBetween = self { "head" } else { "tail" }
            let measured = edge == "head" ? m.headSilence : m.tailSilence
            let why = measured < low
                ? "the room tone repeated there is the recording's quietest half second, and the recording has none steady enough (within \(String(format1: RoomTone.margin)) dB of its noise floor), so record a few seconds of the room's silence"
                : "nothing at the \(edge) rises \(String(format1: RoomTone.margin)) dB above the recording's noise floor, so all of it reads as room tone; the noise floor is too close to the voice, so record closer to the microphone"
            return "\(needs) \(String(format1: low))–\(String(format1: high)) s of room tone at the \(edge); this file has \(String(format1: measured)) s: \(why)."
        case .noClipping:
            let count = m.clipping.count
            return "The \(profile.name) profile allows no clipping; this recording clips in \(count) stretch\(count == 1 ? "" : "es"), the first at \(time(m.clipping[0].start)): clipped sound cannot be restored, so record those passages again at a lower input level."
        case .silencesAtMost(let limit):
            guard let silence = m.longestSilence else { return nil }
            return "The \(profile.name) profile allows no silence longer than \(String(format1: limit)) s; this file has \(String(format1: m.format.seconds(silence.end - silence.start))) s of silence at \(time(silence.start)): a pause inside a chunk is kept as recorded, so trim or record that passage again."
        }
    }
}
