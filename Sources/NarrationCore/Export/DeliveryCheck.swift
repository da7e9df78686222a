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
    /// Seconds of silence (below −50 dBFS) at the very start and end.
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
        let quiet = { (power: Double) in power < pow(10, SignalStatistics.silenceThreshold.value / 10) }
        let windows = statistics.windowPowers
        headSilence = Double(windows.prefix { quiet($0) }.count) * SignalStatistics.windowSeconds
        tailSilence = Double(windows.reversed().prefix { quiet($0) }.count) * SignalStatistics.windowSeconds
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
        }
    }
}

