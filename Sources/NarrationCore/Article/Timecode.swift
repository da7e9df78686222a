/// Formats durations as volunteers read them.
public enum Timecode {
    /// "HH:MM:SS", truncating fractions of a second (what a running clock shows).
    public static func clock(_ seconds: Double) -> String {
        let total = max(0, Int(seconds))
        return "\(pad(total / 3600)):\(pad(total / 60 % 60)):\(pad(total % 60))"
    }

    /// "HH:MM:SS.mmm", rounded to the millisecond.
    public static func precise(_ seconds: Double) -> String {
        precise(milliseconds: max(0, Int((seconds * 1000).rounded())))
    }

    /// "HH:MM:SS.mmm" of a whole number of milliseconds; SubRip writes `separator` ","
    /// before the milliseconds.
    public static func precise(milliseconds: Int, separator: String = ".") -> String {
        let whole = milliseconds / 1000
        let fraction = milliseconds % 1000
        let fractionText = fraction < 10 ? "00\(fraction)" : fraction < 100 ? "0\(fraction)" : "\(fraction)"
        return "\(clock(Double(whole)))\(separator)\(fractionText)"
    }

    /// `frames` at `rate` in whole milliseconds, rounded to the nearest: exact integer maths,
    /// so chapters and transcript cues made from the same frames always agree.
    public static func milliseconds(frames: FrameCount, rate: Int) -> Int {
        (frames * 1_000 + rate / 2) / rate
    }

    /// "HH:MM:SS.t": a chunk's length to the tenth of a second, truncated.
    public static func tenths(_ seconds: Double) -> String {
        let tenths = Int((max(0, seconds) * 10).rounded(.down))
        return "\(clock(Double(tenths / 10))).\(tenths % 10)"
    }

    /// Seconds from a time a volunteer types: `12.5`, `1:02.5` or `00:01:02.500`; nil for
    /// anything else (negative, a minute or second field of 60 or more, not a number).
    public static func seconds(parsing text: String) -> Double? {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(fields.count), let last = fields.last,
              last.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let seconds = Double(last), seconds.isFinite
        else { return nil }
        let whole = fields.dropLast().map { field in field.allSatisfy { $0.isASCII && $0.isNumber } && !field.isEmpty ? Int(field) : nil }
        guard whole.allSatisfy({ $0 != nil }) else { return nil }
        let units = whole.compactMap { $0 }
        if !units.isEmpty {
            guard seconds < 60, units.count == 1 || units[1] < 60 else { return nil }
        }
        return units.reduce(0) { $0 * 60 + Double($1) } * 60 + seconds
    }

    private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
