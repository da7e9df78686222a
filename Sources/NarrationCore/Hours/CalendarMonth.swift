import Foundation

/// A calendar month, `YYYY-MM`, as the report by account names its rows and `--month` picks one.
public struct CalendarMonth: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int

    /// The month of `day`.
    public init(_ day: CalendarDay) {
        year = day.year
        month = day.month
    }

    /// `text` if it is a month written `YYYY-MM` (years 1000 to 9999, months 01 to 12), else nil.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.utf8.count == 7, parts.count == 2, parts[0].utf8.count == 4, parts[1].utf8.count == 2,
              text.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              let year = Int(parts[0]), let month = Int(parts[1]), (1000...9999).contains(year), (1...12).contains(month)
        else { return nil }
        self.year = year
        self.month = month
    }

    public var description: String {
        String(format: "%04d-%02d", year, month)
    }

    public static func < (lhs: CalendarMonth, rhs: CalendarMonth) -> Bool {
        (lhs.year, lhs.month) < (rhs.year, rhs.month)
    }
}
