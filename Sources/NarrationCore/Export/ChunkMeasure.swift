import Foundation

/// What mastering and `check` need to know about one chunk, measured once after its take and
/// kept in the catalog, so that an export reads no audio to measure the article: per 100 ms
/// window, the K-weighted power EBU R128 integrates (400 ms blocks are four windows, so an
/// article's integrated loudness comes from its chunks' windows), the plain power (RMS, noise
/// floor, room tone), the sample peak and the true peak; and the chunk's clipped runs.
///
/// The last window of a chunk is usually shorter than 100 ms; it counts with its own length.
public struct ChunkMeasure: Sendable, Equatable {
    /// Bumped when what is measured changes: a stored measure of another version is measured again.
    public static let version: UInt8 = 1
    public static let windowSeconds = 0.1

    public let sampleRate: Int
    public let frames: FrameCount
    /// Per window: BS.1770's K-weighted mean square, summed over channels (libebur128's).
    public var weightedPowers: [Float]
    /// Per window: the mean square of all samples, channels averaged (`SignalStatistics`').
    public var powers: [Float]
    /// Per window: the highest |sample| and the highest true peak (4× oversampled), linear.
    public var samplePeaks: [Float]
    public var truePeaks: [Float]
    /// Runs of at least three clipped samples, in frames of the chunk.
    public var clipping: [Stretch]

    public init(
        sampleRate: Int, frames: FrameCount, weightedPowers: [Float], powers: [Float], samplePeaks: [Float], truePeaks: [Float], clipping: [Stretch]
    ) {
        self.sampleRate = sampleRate
        self.frames = frames
        self.weightedPowers = weightedPowers
        self.powers = powers
        self.samplePeaks = samplePeaks
        self.truePeaks = truePeaks
        self.clipping = clipping
    }

    public var windowFrames: FrameCount { Int((Double(sampleRate) * Self.windowSeconds).rounded()) }

    /// Frames in window `index` (the last may be short).
    public func frames(inWindow index: Int) -> FrameCount { min(windowFrames, frames - index * windowFrames) }

    // MARK: Stored form

    /// Little-endian bytes: version, rate, frames, window count, the four arrays as Float32, the
    /// clipped runs as pairs of UInt32.
    public var bytes: [UInt8] {
        var out: [UInt8] = [Self.version]
        func put32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) } }
        put32(UInt32(sampleRate))
        put32(UInt32(frames))
        put32(UInt32(powers.count))
        for series in [weightedPowers, powers, samplePeaks, truePeaks] {
            for value in series { put32(value.bitPattern) }
        }
        put32(UInt32(clipping.count))
        for run in clipping {
            put32(UInt32(run.start))
            put32(UInt32(run.end))
        }
        return out
    }

    /// Reads `bytes`; nil when they are of another version or damaged (then the chunk is measured again).
    public init?(bytes: [UInt8]) {
        var offset = 1
        func get32() -> UInt32? {
            guard offset + 4 <= bytes.count else { return nil }
            defer { offset += 4 }
            return bytes[offset..<(offset + 4)].enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
        }
        guard bytes.first == Self.version, let rate = get32(), let frames = get32(), let count = get32().map(Int.init),
            bytes.count >= 13 + 16 * count + 4
        else { return nil }
        var series: [[Float]] = []
        for _ in 0..<4 {
            var values: [Float] = []
            values.reserveCapacity(count)
            for _ in 0..<count {
                guard let bits = get32() else { return nil }
                values.append(Float(bitPattern: bits))
            }
            series.append(values)
        }
        guard let runs = get32().map(Int.init), bytes.count == offset + 8 * runs else { return nil }
        var clipping: [Stretch] = []
        for _ in 0..<runs {
            guard let start = get32(), let end = get32() else { return nil }
            clipping.append(Stretch(start: Int(start), end: Int(end)))
        }
        self.init(
            sampleRate: Int(rate), frames: Int(frames), weightedPowers: series[0], powers: series[1], samplePeaks: series[2], truePeaks: series[3],
            clipping: clipping)
    }
}

/// An article's levels put together from its chunks' measures, over the stretch of each chunk
/// an export keeps (whole windows only: a window the stretch cuts is left out, so a trimmed
/// pause does not count): what mastering needs without reading the audio.
public struct MeasuredLevels: Sendable, Equatable {
    /// EBU R128 integrated loudness (400 ms blocks of four windows every 100 ms, gated at −70
    /// LUFS and 10 LU below the ungated mean); nil when nothing is above the gates.
    public let integratedLoudness: Double?
    public let rms: Decibels
    public let samplePeak: Decibels
    public let truePeak: Decibels
    /// The chunks' clipped runs within the kept stretches, in frames of the kept stretches joined,
    /// those less than `Measurements.clippingGapSeconds` apart merged (as `check` reports them).
    public let clipping: [Stretch]
    /// Mean powers of the kept windows, in order across chunks, and where each comes from.
    public let windowPowers: [Double]
    public let windowSources: [(chunk: Int, window: Int)]
    /// The K-weighted mean power and the true peak (linear) of the same windows; a kept window
    /// shorter than 100 ms lends its true peak to the window before it (or after, at the start).
    public let windowWeightedPowers: [Double]
    public let windowTruePeaks: [Double]

    public static func == (a: MeasuredLevels, b: MeasuredLevels) -> Bool {
        a.integratedLoudness == b.integratedLoudness && a.rms == b.rms && a.clipping == b.clipping && a.samplePeak == b.samplePeak && a.truePeak == b.truePeak
            && a.windowPowers == b.windowPowers && a.windowSources.elementsEqual(b.windowSources) { $0 == $1 }
    }

    /// - Parameter parts: each chunk's measure and the frames of it kept.
    public init(_ parts: [(measure: ChunkMeasure, kept: Range<FrameCount>)]) {
        var weighted: [Double] = []
        var powers: [Double] = []
        var sources: [(chunk: Int, window: Int)] = []
        var energy = 0.0, frames = 0
        var samplePeak: Float = 0, truePeak: Float = 0
        var clipped: [Stretch] = []
        var peaks: [Double] = []
        var pendingPeak = 0.0  // of short windows before the first whole one
        var offset = 0
        for (chunk, part) in parts.enumerated() {
            let measure = part.measure
            defer { offset += part.kept.count }
            for run in measure.clipping where run.end > part.kept.lowerBound && run.start < part.kept.upperBound {
                let start = max(run.start, part.kept.lowerBound), end = min(run.end, part.kept.upperBound)
                clipped.append(Stretch(start: offset + start - part.kept.lowerBound, end: offset + end - part.kept.lowerBound))
            }
            let size = measure.windowFrames
            guard size > 0 else { continue }
            for window in 0..<measure.powers.count {
                let start = window * size, length = measure.frames(inWindow: window)
                guard start < part.kept.upperBound, start + length > part.kept.lowerBound else { continue }
                // A window cut by the kept stretch's edge: only its true peak counts, for the limiter's estimate.
                guard start >= part.kept.lowerBound, start + length <= part.kept.upperBound else {
                    if peaks.isEmpty { pendingPeak = max(pendingPeak, Double(measure.truePeaks[window])) } else {
                        peaks[peaks.count - 1] = max(peaks[peaks.count - 1], Double(measure.truePeaks[window]))
                    }
                    continue
                }
                samplePeak = max(samplePeak, measure.samplePeaks[window])
                truePeak = max(truePeak, measure.truePeaks[window])
                energy += Double(measure.powers[window]) * Double(length)
                frames += length
                // A short last window counts for the power it has, not as a whole block's worth.
                guard length == size else {
                    if peaks.isEmpty { pendingPeak = max(pendingPeak, Double(measure.truePeaks[window])) } else {
                        peaks[peaks.count - 1] = max(peaks[peaks.count - 1], Double(measure.truePeaks[window]))
                    }
                    continue
                }
                weighted.append(Double(measure.weightedPowers[window]))
                powers.append(Double(measure.powers[window]))
                peaks.append(max(pendingPeak, Double(measure.truePeaks[window])))
                pendingPeak = 0
                sources.append((chunk, window))
            }
        }
        windowWeightedPowers = weighted
        windowTruePeaks = peaks
        integratedLoudness = Self.integrated(weighted)
        rms = frames > 0 ? Decibels(amplitude: sqrt(energy / Double(frames))) : .silence
        self.samplePeak = Decibels(amplitude: Double(samplePeak))
        self.truePeak = Decibels(amplitude: Double(truePeak))
        windowPowers = powers
        windowSources = sources
        let rate = parts.first?.measure.sampleRate ?? 44_100
        clipping = Stretch.merged(clipped, within: Int((Double(rate) * Measurements.clippingGapSeconds).rounded()))
    }

    /// At most how much integrated loudness (LU) a true-peak limiter holding `ceiling` takes off
    /// after a gain of `gainDecibels`: as if every window were lowered, all through, by the
    /// largest excess over the ceiling (plus `margin`, for the limiter's interpolator against
    /// libebur128's, which measured the windows) among itself, the window after it (the
    /// limiter's 5 ms look-ahead) and the three before it (its 80 ms release: after 300 ms what
    /// is left of a lowering is under 3 % of it). 0 when no window's peak reaches the ceiling.
    public func limiterLossBound(gainDecibels: Double, ceiling: Decibels, margin: Double = 0.2) -> Double {
        let excess = windowTruePeaks.map { peak in peak > 0 ? max(0, 20 * log10(peak) + gainDecibels - ceiling.value + margin) : 0 }
        guard excess.contains(where: { $0 > 0 }) else { return 0 }
        let gain = pow(10, gainDecibels / 10)
        let before = windowWeightedPowers.map { $0 * gain }
        let after = before.indices.map { index in
            let lowering = excess[max(0, index - 3)...min(excess.count - 1, index + 1)].max() ?? 0
            return before[index] * pow(10, -lowering / 10)
        }
        guard let full = Self.integrated(before), let limited = Self.integrated(after) else { return 0 }
        return max(0, full - limited)
    }

    /// BS.1770-4's gated integration over 400 ms blocks that overlap by 75 %.
    static func integrated(_ windows: [Double]) -> Double? {
        guard windows.count >= 4 else { return nil }
        let blocks = (0...(windows.count - 4)).map { windows[$0..<($0 + 4)].reduce(0, +) / 4 }
        let loudness = { (power: Double) in -0.691 + 10 * log10(power) }
        let absolute = blocks.filter { $0 > 0 && loudness($0) > -70 }
        guard !absolute.isEmpty else { return nil }
        let relativeGate = loudness(absolute.reduce(0, +) / Double(absolute.count)) - 10
        let gated = absolute.filter { loudness($0) > relativeGate }
        guard !gated.isEmpty else { return nil }
        return loudness(gated.reduce(0, +) / Double(gated.count))
    }

    /// The RMS of the quietest 500 ms (`SignalStatistics.noiseFloor`, over the kept windows).
    public var noiseFloor: Decibels {
        if let quiet = quietestStretch { return quiet.rms }
        guard !windowPowers.isEmpty else { return .silence }
        return Decibels(amplitude: sqrt(windowPowers.reduce(0, +) / Double(windowPowers.count)))
    }

    /// The quietest five consecutive kept windows (500 ms: the noise floor's stretch), as the
    /// index of the first in `windowPowers`, and their RMS.
    public var quietestStretch: (first: Int, rms: Decibels)? {
        guard windowPowers.count >= 5 else { return nil }
        var sum = windowPowers[0..<5].reduce(0, +)
        var best = (first: 0, sum: sum)
        for index in 5..<windowPowers.count {
            sum += windowPowers[index] - windowPowers[index - 5]
            if sum < best.sum { best = (index - 4, sum) }
        }
        return (best.first, Decibels(amplitude: sqrt(max(0, best.sum) / 5)))
    }
}
