import func Foundation.log10

/// Where `narrate trim --auto` cuts a chunk: the silence at its edges, keeping a margin.
///
/// The chunk's level is measured in 10 ms windows (mean square over all channels). A window is
/// sound when it is at least `marginAboveFloor` dB above the article's noise floor (the quietest
/// 500 ms of the article, as `check` measures it), and never below `lowestThreshold`, so that a
/// floor of digital silence does not make hiss count as sound. Sound must last `shortestSound`
/// to count, so a click does not hold an edge. The chunk keeps `margin` seconds before its first
/// sound and after its last, within its bounds.
public struct EdgeTrim: Sendable {
    public static let windowSeconds = 0.01
    public static let margin = 0.25
    public static let marginAboveFloor = 10.0
    public static let lowestThreshold = -70.0
    public static let shortestSound = 0.03

    public let format: AudioFormat
    /// Each complete window's mean square (full scale 1.0), in order.
    public var windowPowers: [Double] { windows.powers }
    private var windows: WindowedPower
    private var windowFrames: FrameCount { windows.windowFrames }
    public private(set) var frames: FrameCount = 0

    public init(format: AudioFormat) {
        self.format = format
        windows = WindowedPower(windowFrames: format.frames(forSeconds: Self.windowSeconds))
    }

    /// Adds interleaved left-justified samples, as read from the chunk's file.
    public mutating func add(_ samples: UnsafeBufferPointer<Int32>) {
        let channels = format.channels
        let scale = 1 / Double(Int32.max)
        for index in stride(from: 0, to: samples.count, by: channels) {
            var power = 0.0
            for channel in 0..<channels {
                let value = Double(samples[index + channel]) * scale
                power += value * value
            }
            windows.add(framePower: power / Double(channels))
            frames += 1
        }
    }

    /// The level a window must reach to be sound, in dBFS.
    public static func threshold(noiseFloor: Decibels) -> Double {
        max(noiseFloor.value + marginAboveFloor, lowestThreshold)
    }

    /// The frames to keep; nil when the chunk holds no sound above the threshold.
    public func keptFrames(noiseFloor: Decibels) -> Range<FrameCount>? {
        var powers = windowPowers
        if windows.trailing.frames > 0 { powers.append(windows.trailing.power) }
        let threshold = Self.threshold(noiseFloor: noiseFloor)
        let loud = powers.map { 10 * log10(max($0, 1e-30)) >= threshold }
        let shortest = max(1, Int((Self.shortestSound / Self.windowSeconds).rounded()))
        // Runs of loud windows long enough to be sound.
        var first: Int?
        var last: Int?
        var runStart: Int?
        for (index, isLoud) in (loud + [false]).enumerated() {
            if isLoud {
                if runStart == nil { runStart = index }
            } else if let start = runStart {
                if index - start >= shortest {
                    if first == nil { first = start }
                    last = index
                }
                runStart = nil
            }
        }
        guard let first, let last else { return nil }
        let margin = format.frames(forSeconds: Self.margin)
        let start = max(0, first * windowFrames - margin)
        let end = min(frames, last * windowFrames + margin)
        return start..<end
    }
}
