public import Foundation

/// Volunteer time from what the catalog records, per narrator and day: the rule reading services
/// report to their funders.
///
/// The rule: a narrator's session starts at a take; each later activity (a take, an edit, a queue,
/// a delivery) that starts within 15 minutes of the end of the one before it continues the session;
/// a gap over 15 minutes ends it, and the gap is not counted. A session runs from the start of its
/// first take to the end of its last activity. Activity before a narrator's first take, or after a
/// gap and before the next take, counts in no session. A session's time is split at midnight in
/// the given time zone (23:40–00:20 gives 20 minutes to each day); it counts as one session on the
/// day it starts. Recorded time goes to the day a take was kept, delivered time to the day of the
/// delivery, whether or not either falls in a session.
///
/// Pure: the events are given, nothing is read. Not an error: no events (no days).
public enum VolunteerHours {
    /// The longest pause that does not end a session: 15 minutes. A pause of exactly 15 minutes
    /// continues it.
    public static let idleLimit: TimeInterval = 15 * 60

    /// The narrator shown for articles that name none.
    public static let noNarrator = "(no narrator)"

    /// One thing a narrator did, as the catalog records it.
    public struct Event: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            /// A take kept, `seconds` long; the event's time is when it was kept (its end), so it
            /// began `seconds` earlier.
            case take(seconds: Double)
            /// An edit of an article (trim, delete, move, punch, undo, new details…).
            case edit
            /// An export queued.
            case queue
            /// An export delivered, `seconds` of audio.
            case delivery(seconds: Double)
        }

        /// The article's narrator; empty when it names none.
        public var narrator: String
        public var time: Date
        public var kind: Kind

        public init(narrator: String, time: Date, kind: Kind) {
            self.narrator = narrator
            self.time = time
            self.kind = kind
        }

        /// When the activity began: a take's start, any other event's time.
        var start: Date {
            if case .take(let seconds) = kind { return time.addingTimeInterval(-max(0, seconds)) }
            return time
        }
    }

    /// Which days and narrators a report keeps; sessions are found on all events first, so a
    /// session that crosses into the range counts its part inside it.
    public struct Filter: Sendable, Equatable {
        public var from: CalendarDay?
        public var to: CalendarDay?
        /// Compared without regard to case; `(no narrator)` or "" picks articles that name none.
        public var narrator: String?

        public init(from: CalendarDay? = nil, to: CalendarDay? = nil, narrator: String? = nil) {
            self.from = from
            self.to = to
            self.narrator = narrator
        }

        func keeps(_ row: VolunteerDay) -> Bool {
            if let from, row.day < from { return false }
            if let to, row.day > to { return false }
            if let narrator {
                let wanted = narrator.trimmingCharacters(in: .whitespaces)
                let name = wanted.isEmpty ? VolunteerHours.noNarrator : wanted
                return row.narrator.lowercased() == name.lowercased()
            }
            return true
        }
    }

    /// The report's rows, by day then narrator: each narrator's volunteer time, sessions, takes,
    /// recorded and delivered time per day.
    public static func report(_ events: [Event], filter: Filter = Filter(), timeZone: TimeZone) -> [VolunteerDay] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var days: [DayKey: VolunteerDay] = [:]
        func add(_ narrator: String, _ date: Date, _ change: (inout VolunteerDay) -> Void) {
            let key = DayKey(narrator: narrator, day: CalendarDay(date, in: calendar))
            var row = days[key] ?? VolunteerDay(day: key.day, narrator: narrator)
            change(&row)
            days[key] = row
        }
        let byNarrator = Dictionary(grouping: events) { named($0.narrator) }
        for (narrator, events) in byNarrator {
            for event in events {
                switch event.kind {
                case .take(let seconds):
                    add(narrator, event.time) { $0.takes += 1; $0.recordedSeconds += max(0, seconds) }
                case .delivery(let seconds):
                    add(narrator, event.time) { $0.deliveredSeconds += max(0, seconds) }
                case .edit, .queue:
                    break
                }
            }
            for session in sessions(events) {
                add(narrator, session.start) { $0.sessions += 1 }
                for (dayStart, seconds) in split(session, calendar: calendar) {
                    add(narrator, dayStart) { $0.volunteerSeconds += seconds }
                }
            }
        }
        return days.values.filter(filter.keeps).sorted { ($0.day, $0.narrator) < ($1.day, $1.narrator) }
    }

    /// One narrator's sessions, by the rule above.
    static func sessions(_ events: [Event]) -> [DateInterval] {
        let ordered = events.sorted { ($0.start, $0.time) < ($1.start, $1.time) }
        var sessions: [DateInterval] = []
        var current: (start: Date, end: Date)?
        for event in ordered {
            if let open = current, event.start.timeIntervalSince(open.end) <= idleLimit {
                current = (open.start, max(open.end, event.time))
                continue
            }
            if let open = current { sessions.append(DateInterval(start: open.start, end: open.end)) }
            current = nil
            if case .take = event.kind { current = (event.start, event.time) }
        }
        if let open = current { sessions.append(DateInterval(start: open.start, end: open.end)) }
        return sessions
    }

    /// A session's seconds on each day it touches, split at local midnights.
    static func split(_ session: DateInterval, calendar: Calendar) -> [(Date, TimeInterval)] {
        var parts: [(Date, TimeInterval)] = []
        var start = session.start
        while start < session.end {
            let dayStart = calendar.startOfDay(for: start)
            let nextDay = calendar.date(byAdding: .day, value: 1, to: dayStart) ?? session.end
            let end = min(nextDay, session.end)
            parts.append((start, end.timeIntervalSince(start)))
            start = end
        }
        return parts
    }

    static func named(_ narrator: String) -> String {
        let trimmed = narrator.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? noNarrator : trimmed
    }

    private struct DayKey: Hashable {
        let narrator: String
        let day: CalendarDay
    }
}
