public import Foundation

/// One narrator's volunteer time on one day: a row of `narrate hours`.
public struct VolunteerDay: Sendable, Equatable {
    public let day: CalendarDay
    /// The article's narrator, or `VolunteerHours.noNarrator`.
    public let narrator: String
    /// The part of the narrator's sessions that fell on this day.
    public var volunteerSeconds: TimeInterval = 0
    /// Sessions that started on this day.
    public var sessions = 0
    /// Takes kept on this day.
    public var takes = 0
    /// The length of those takes.
    public var recordedSeconds: TimeInterval = 0
    /// Audio delivered on this day.
    public var deliveredSeconds: TimeInterval = 0

    public init(day: CalendarDay, narrator: String) {
        self.day = day
        self.narrator = narrator
    }

    /// Minutes as the report prints them: one decimal.
    public static func minutes(_ seconds: TimeInterval) -> String {
        String(format: "%.1f", (seconds / 60 * 10).rounded() / 10)
    }
}

/// A calendar day, `YYYY-MM-DD`, as the report's rows and its `--from`/`--to` name them.
public struct CalendarDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The day `date` falls on in `calendar`'s time zone.
    public init(_ date: Date, in calendar: Calendar) {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        self.init(year: parts.year ?? 0, month: parts.month ?? 0, day: parts.day ?? 0)
    }

    /// `text` if it is a real day written `YYYY-MM-DD`, else nil.
    public init?(_ text: String) {
        guard ListenerDate.isWellFormed(text) else { return nil }
        let parts = text.split(separator: "-").compactMap { Int($0) }
        self.init(year: parts[0], month: parts[1], day: parts[2])
    }

    public var description: String {
        String(format: "%04d-%02d-%02d", year, month, day)
    }

    public static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}
