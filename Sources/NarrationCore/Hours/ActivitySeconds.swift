import Foundation

/// A length of audio an account's activity carries: a take or pickup recorded, or what a
/// proof-listener heard. Checked when made, from 0 to one day, and kept to the millisecond so
/// that every store keeps exactly the same value.
public struct ActivitySeconds: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The longest length accepted: one day.
    public static let maximum: Double = 24 * 60 * 60

    /// The length in whole milliseconds.
    public let milliseconds: Int64

    /// No audio: a preparation, or a note pinned without listening.
    public static let zero = ActivitySeconds(checkedMilliseconds: 0)

    /// `seconds`, rounded to the millisecond.
    /// - Throws: `usage` when `seconds` is not a number, negative or longer than a day, naming it.
    public init(_ seconds: Double) throws(NarrationError) {
        guard seconds.isFinite, seconds >= 0, seconds <= Self.maximum else {
            throw .usage("\(String(format: "%.10g", seconds)) seconds is not a length of audio: give 0 to \(Int(Self.maximum)) seconds (one day).")
        }
        milliseconds = Int64((seconds * 1000).rounded())
    }

    /// A length read back from a store, or nil when it is negative or longer than a day: no
    /// store keeps such a length unless something else wrote it.
    public init?(storedMilliseconds: Int64) {
        guard storedMilliseconds >= 0, storedMilliseconds <= Int64(Self.maximum) * 1000 else { return nil }
        milliseconds = storedMilliseconds
    }

    private init(checkedMilliseconds: Int64) { milliseconds = checkedMilliseconds }

    /// The length in seconds.
    public var seconds: Double { Double(milliseconds) / 1000 }

    public var description: String { "\(seconds) s" }

    public static func < (lhs: ActivitySeconds, rhs: ActivitySeconds) -> Bool { lhs.milliseconds < rhs.milliseconds }
}
