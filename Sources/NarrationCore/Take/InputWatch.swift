/// Watches the input while recording and warns when it clips or stays too quiet: the two
/// mistakes a volunteer cannot hear while reading.
///
/// A clip warning shows for `holdSeconds` after the last clipped stretch; the quiet warning shows
/// once every stretch for `quietSeconds` has peaked below `quietThreshold`, and clears as soon as
/// the level rises.
public struct InputWatch: Sendable, Equatable {
    /// Peaks at or above this count as clipped.
    public static let clipThreshold = Decibels(-0.1)
    public static let quietThreshold = Decibels(-50)
    public static let quietSeconds = 3.0
    public static let holdSeconds = 3.0

    private var lastClip: Double?
    private var quietSince: Double?

    public init() {}

    /// Takes the peak of the latest stretch; `time` is seconds on any monotonic clock.
    public mutating func update(peak: Decibels, at time: Double) {
        if peak >= Self.clipThreshold { lastClip = time }
        if peak < Self.quietThreshold {
            if quietSince == nil { quietSince = time }
        } else {
            quietSince = nil
        }
    }

    /// The warning to show at `time`, if any (clipping comes first).
    public func warning(at time: Double) -> String? {
        if let lastClip, time - lastClip <= Self.holdSeconds {
            return "The input clipped: move back from the microphone or turn its gain down."
        }
        if let quietSince, time - quietSince >= Self.quietSeconds {
            return "The input has stayed below \(Self.quietThreshold.formatted) dBFS for \(Int(Self.quietSeconds)) s: is the microphone on?"
        }
        return nil
    }
}
