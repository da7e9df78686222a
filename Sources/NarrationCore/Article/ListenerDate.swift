/// The date listeners see on an article (its tags, the sidecar, a feed): a calendar day written
/// `YYYY-MM-DD`. Pure: no calendar library is needed to check a Gregorian day.
public enum ListenerDate {
    /// Whether `text` is a real day written `YYYY-MM-DD` (2026-02-29 is not).
    public static func isWellFormed(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              year >= 1, (1...12).contains(month)
        else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return (1...days).contains(day)
    }

    /// `text` as a listener date.
    /// - Throws: a usage error naming the text and the form wanted.
    public static func parse(_ text: String) throws(NarrationError) -> String {
        let trimmed = String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        guard isWellFormed(trimmed) else {
            throw NarrationError(.usage, naming: "\(.listenerDate) \(trimmed.isEmpty ? "\"\"" : trimmed) is not a day: give it as YYYY-MM-DD, e.g. 2026-11-23.")
        }
        return trimmed
    }
}
