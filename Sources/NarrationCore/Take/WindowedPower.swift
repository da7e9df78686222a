/// The mean square of consecutive windows of a fixed number of frames, fed one frame at a time:
/// what a noise floor, a silence, an edge to trim or a level test is read from.
public struct WindowedPower: Sendable {
    public let windowFrames: FrameCount
    /// The mean square (full scale 1.0) of each complete window, in order.
    public private(set) var powers: [Double] = []
    private var sum = 0.0
    private var fill = 0

    public init(windowFrames: FrameCount) {
        self.windowFrames = max(1, windowFrames)
    }

    /// Adds one frame's mean square, all its channels together.
    @inline(__always)
    public mutating func add(framePower: Double) {
        sum += framePower
        fill += 1
        if fill == windowFrames {
            powers.append(sum / Double(windowFrames))
            sum = 0
            fill = 0
        }
    }

    /// The frames after the last complete window, and their mean square (0 frames: none).
    public var trailing: (frames: FrameCount, power: Double) {
        (fill, fill == 0 ? 0 : sum / Double(fill))
    }

    /// Takes in the windows of the frames that follow these, as if one had fed them all: for a
    /// file measured in parts. These must end on a window's edge.
    public mutating func append(_ later: WindowedPower) {
        precondition(fill == 0 && later.windowFrames == windowFrames, "parts are joined on a window's edge, in windows of one length")
        powers += later.powers
        sum = later.sum
        fill = later.fill
    }
}
