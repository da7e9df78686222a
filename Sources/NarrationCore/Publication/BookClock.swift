/// The times books write, from whole milliseconds (`Timecode.milliseconds(frames:rate:)`, so
/// they agree with chapters and transcripts to the millisecond).
public enum BookClock {
    /// An EPUB media overlay's clock value, `h:mm:ss.mmm` ("0:00:03.215"); hours are not padded.
    public static func clockValue(milliseconds: Int) -> String {
        let seconds = milliseconds / 1_000
        return "\(seconds / 3_600):\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2)).\(pad(milliseconds % 1_000, 3))"
    }

    /// A DAISY 2.02 SMIL clip time, `npt=12.345s`.
    public static func npt(milliseconds: Int) -> String { "npt=\(seconds(milliseconds: milliseconds))s" }

    /// "12.345": seconds with three decimals.
    public static func seconds(milliseconds: Int) -> String { "\(milliseconds / 1_000).\(pad(milliseconds % 1_000, 3))" }

    /// DAISY 2.02's `hh:mm:ss.mmm` ("00:00:16.500"), as ncc:totalTime and ncc:timeInThisSmil give it.
    public static func daisyTime(milliseconds: Int) -> String { Timecode.precise(milliseconds: milliseconds) }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
