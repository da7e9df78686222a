/// A time into a chunk's audio that came from outside (a time typed on the command line, a
/// number in a page's message): checked once, when it is made, so that turning it into frames
/// can never overflow or trap.
///
/// It is finite, not negative and at most `maximumSeconds`, the longest a chunk can be (a take
/// stops there, an import longer than that is refused). Minus zero is zero.
public struct AudioTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// 24 hours: the longest take `record` makes and the longest file an import accepts.
    public static let maximumSeconds: Double = 86_400

    public let seconds: Double

    /// - Throws: a usage error naming the value and the range for NaN, an infinity, a negative
    ///   value or one longer than `maximumSeconds`.
    public init(seconds: Double) throws(NarrationError) {
        guard seconds.isFinite, seconds >= 0, seconds <= Self.maximumSeconds else {
            throw .usage("\(Self.spelled(seconds)) s is not a time in a recording: give 0 to \(Int(Self.maximumSeconds)) seconds (24 hours).")
        }
        self.seconds = seconds + 0  // -0 becomes 0
    }

    /// The zero time: the start of a chunk.
    public static let zero = try! AudioTime(seconds: 0)

    /// The nearest frame at `format`'s rate: at most `maximumSeconds × 48000`, far inside `Int`.
    public func frames(at format: AudioFormat) -> FrameCount {
        format.frames(forSeconds: seconds)
    }

    public static func < (lhs: AudioTime, rhs: AudioTime) -> Bool { lhs.seconds < rhs.seconds }

    /// "00:00:12.500"
    public var description: String { Timecode.precise(seconds) }

    /// A number as it was given: "1e+300", "-2.5", "nan", "12".
    static func spelled(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : value < 0 ? "-inf" : "inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return "\(value)"
    }
}
