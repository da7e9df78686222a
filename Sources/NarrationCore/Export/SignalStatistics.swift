import Foundation

/// A stretch of a file, in frames, for reports with timecodes.
public struct Stretch: Sendable, Equatable {
    public let start: FrameCount
    public let end: FrameCount
    public init(start: FrameCount, end: FrameCount) { self.start = start; self.end = end }

    /// The stretch `frames` later (earlier when negative), never before frame 0.
    public func shifted(by frames: FrameCount) -> Stretch { Stretch(start: max(0, start + frames), end: max(0, end + frames)) }

    /// `stretches` (in order) with those less than `gap` frames apart joined into one: a loud
    /// passage that clips on every other syllable is one stretch to listen to, not hundreds.
    public static func merged(_ stretches: [Stretch], within gap: FrameCount) -> [Stretch] {
        var merged: [Stretch] = []
        for stretch in stretches {
            if let last = merged.last, stretch.start - last.end < gap {
                merged[merged.count - 1] = Stretch(start: last.start, end: max(last.end, stretch.end))
            } else {
                merged.append(stretch)
            }
        }
        return merged
    }
}

/// What a delivery check needs beyond loudness, gathered in one streaming pass: levels in
/// 100 ms windows (for the noise floor and long silences) and runs of clipped samples.
///
/// The noise floor is the RMS of the quietest 500 ms (five consecutive windows) of the file:
/// room noise between words, measured where the reader is silent. A silence is a run of windows
/// below `silenceThreshold`; clipping is a run of at least 3 samples at full scale.
public struct SignalStatistics: Sendable {
    public static let windowSeconds = 0.1
    public static let silenceThreshold = Decibels(-50)
    public static let longSilenceSeconds = 3.0

    public let format: AudioFormat
    public private(set) var levels = LevelAccumulator(channels: 1)
    /// Each complete 100 ms window's mean square (linear).
    public var windowPowers: [Double] { windows.powers }
    public private(set) var clipping: [Stretch] = []

    private var windows: WindowedPower
    private var windowFrames: FrameCount { windows.windowFrames }
    private var frame: FrameCount = 0
    private var clipStart: FrameCount?
    private var clipLength = 0
    /// Clipped frames at the very start, before the first frame that is not (for `append`).
    private var leadingClipped: FrameCount = 0
    private var sawUnclipped = false

    public init(format: AudioFormat) {
        self.format = format
        levels = LevelAccumulator(channels: format.channels)
        windows = WindowedPower(windowFrames: format.frames(forSeconds: Self.windowSeconds))
    }

    public mutating func add(_ samples: UnsafeBufferPointer<Int32>) {
        levels.add(samples)
        let channels = format.channels
        let scale = 1 / Double(Int32.max)
        let fullScale = Int32.max - (1 << (32 - format.bitsPerSample))  // the top code of the format
        for index in stride(from: 0, to: samples.count, by: channels) {
            var power = 0.0
            var clipped = false
            for channel in 0..<channels {
                let sample = samples[index + channel]
                let value = Double(sample) * scale
                power += value * value
                if sample >= fullScale || sample <= -fullScale - 1 { clipped = true }
            }
            windows.add(framePower: power / Double(channels))
            if clipped {
                if clipStart == nil { clipStart = frame }
                clipLength += 1
                if !sawUnclipped { leadingClipped += 1 }
            } else {
                sawUnclipped = true
                endClipRun()
            }
            frame += 1
        }
    }

    /// The frames after the last complete window, and their mean square (0 frames: none).
    public var trailingWindow: (frames: FrameCount, power: Double) { windows.trailing }

    /// Closes a run of clipped samples that reaches the end.
    public mutating func finish() { endClipRun() }

    /// Takes in the statistics of the frames that follow these (measured apart, `finish()` not
    /// yet called on either), as if one had measured them all: for a file measured in parts on
    /// several cores. These must end on a window's edge; a clipped run across the join is one run.
    public mutating func append(_ later: SignalStatistics) {
        precondition(later.format == format, "parts are joined in one format")
        let offset = frame
        levels.merge(later.levels)
        windows.append(later.windows)
        var laterRuns = later.clipping
        if later.leadingClipped >= 3, laterRuns.first?.start == 0 { laterRuns.removeFirst() }
        if !later.sawUnclipped {
            // All of the later part is clipped (or it is empty): the run goes on.
            if later.leadingClipped > 0 {
                clipStart = clipStart ?? offset
                clipLength += later.leadingClipped
            }
        } else {
            clipLength += later.leadingClipped
            if clipLength > 0, clipStart == nil { clipStart = offset }
            endClipRun()
            clipping += laterRuns.map { $0.shifted(by: offset) }
            clipStart = later.clipStart.map { $0 + offset }
            clipLength = later.clipLength
        }
        if !sawUnclipped {
            leadingClipped += later.leadingClipped
            sawUnclipped = later.sawUnclipped
        }
        frame += later.frame
    }

    private mutating func endClipRun() {
        if let start = clipStart, clipLength >= 3 { clipping.append(Stretch(start: start, end: start + clipLength)) }
        clipStart = nil
        clipLength = 0
    }

    /// RMS of the quietest 500 ms, in dBFS; silence if the file is shorter.
    public var noiseFloor: Decibels {
        guard windowPowers.count >= 5 else { return windowPowers.isEmpty ? .silence : Self.decibels(windowPowers.reduce(0, +) / Double(windowPowers.count)) }
        var best = Double.infinity
        var sum = windowPowers[0..<5].reduce(0, +)
        best = sum
        for index in 5..<windowPowers.count {
            sum += windowPowers[index] - windowPowers[index - 5]
            best = min(best, sum)
        }
        return Self.decibels(max(0, best) / 5)
    }

    /// Stretches below the silence threshold that last longer than 3 s.
    public var longSilences: [Stretch] { silences(longerThan: Self.longSilenceSeconds) }

    /// Stretches below the silence threshold that last longer than `seconds`, in whole windows.
    public func silences(longerThan seconds: Double) -> [Stretch] {
        let threshold = pow10(Self.silenceThreshold.value / 10)
        var result: [Stretch] = []
        var start: Int?
        for (index, power) in (windowPowers + [Double.infinity]).enumerated() {
            if power < threshold {
                if start == nil { start = index }
            } else if let first = start {
                if Double(index - first) * Self.windowSeconds > seconds {
                    result.append(Stretch(start: first * windowFrames, end: index * windowFrames))
                }
                start = nil
            }
        }
        return result
    }

    /// The quietest 500 ms stretch, in frames: the noise floor's stretch, and the room tone the
    /// exporter repeats (see `RoomTone`).
    public var quietestStretch: Stretch? {
        guard windowPowers.count >= 5 else { return nil }
        var best = (index: 0, sum: windowPowers[0..<5].reduce(0, +))
        var sum = best.sum
        for index in 5..<windowPowers.count {
            sum += windowPowers[index] - windowPowers[index - 5]
            if sum < best.sum { best = (index - 4, sum) }
        }
        return Stretch(start: best.index * windowFrames, end: (best.index + 5) * windowFrames)
    }

    private static func decibels(_ meanSquare: Double) -> Decibels { Decibels(amplitude: sqrt(meanSquare)) }
    private func pow10(_ exponent: Double) -> Double { pow(10, exponent) }
}
