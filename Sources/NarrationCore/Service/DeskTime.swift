public import Foundation

/// A deadline or a "listen until" on the desk: a day, with a time when one is given, in UTC.
///
/// A day alone means the whole day: the article is due, or may be heard, until that day ends
/// (midnight UTC after it). Written `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM` (24-hour), as the
/// command line takes it and JSON gives it.
public struct DeskTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The moment it passes: the time given, or the end of the day.
    public let instant: Date
    /// Whether a time of day was given.
    public let hasTime: Bool

    /// The earliest and latest years accepted, so that a typo (20026) is caught.
    static let years = 2000...2999

    /// `text` written `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM`, checked.
    /// - Throws: `usage` naming the text and both spellings.
    public init(_ text: String) throws(NarrationError) {
        let parts = text.split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false)
        let refusal = NarrationError.usage(
            "\"\(Role.quoted(text))\" is not a day or a time: give YYYY-MM-DD (the whole day) or YYYY-MM-DDTHH:MM (UTC), e.g. 2026-12-03 or 2026-12-03T17:30.")
        guard let day = CalendarDay(String(parts[0])), Self.years.contains(day.year) else { throw refusal }
        var minutes = 0
        if parts.count == 2 {
            let clock = parts[1].split(separator: ":", omittingEmptySubsequences: false)
            guard clock.count == 2, clock.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
                  let hour = Int(clock[0]), let minute = Int(clock[1]), (0...23).contains(hour), (0...59).contains(minute)
            else { throw refusal }
            minutes = hour * 60 + minute
        }
        guard let midnight = Self.calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day)) else { throw refusal }
        hasTime = parts.count == 2
        instant = hasTime ? midnight.addingTimeInterval(TimeInterval(minutes * 60)) : midnight.addingTimeInterval(24 * 60 * 60)
    }

    /// The value as the catalog keeps it: the instant in whole seconds and whether a time was given.
    public init(instant: Date, hasTime: Bool) {
        self.instant = instant
        self.hasTime = hasTime
    }

    /// Whether it has passed at `now`.
    public func hasPassed(at now: Date) -> Bool { now >= instant }

    /// `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM`, as it was given.
    public var description: String {
        let shown = hasTime ? instant : instant.addingTimeInterval(-1)
        let c = Self.calendar.dateComponents([.year, .month, .day, .hour, .minute], from: shown)
        let day = String(format: "%04d-%02d-%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0)
        return hasTime ? day + String(format: "T%02d:%02d", c.hour ?? 0, c.minute ?? 0) : day
    }

    public static func < (lhs: DeskTime, rhs: DeskTime) -> Bool { lhs.instant < rhs.instant }

    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
}
