public import Foundation

/// Session time per account, from the activity the server records, by `VolunteerHours`' session
/// rule (not a second one): each account's records become that rule's events, and its sessions
/// and their split at local midnight are found by the same code as `narrate hours`.
///
/// How the records map onto the rule: a take and a pickup are takes (their length of audio
/// began before their time); a review is too, its length the audio heard, since listening is
/// the proof-listener's recording: it starts a session, and a note pinned without listening (a
/// review of no length) starts or continues one. A preparation is an edit: it continues a
/// session within 15 minutes, and counts in none before the account's first take or review of
/// the session, as edits do today. Audio goes to the day it was kept or heard, whether or not in
/// a session.
///
/// Pure: the records are given, nothing is read. Not an error: no records (no rows).
public enum AccountHours {
    /// Each account's days, by day then account.
    public static func days(_ records: [ActivityRecord], timeZone: TimeZone) -> [AccountDay] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var days: [DayKey: AccountDay] = [:]
        func add(_ account: AccountName, _ date: Date, _ change: (inout AccountTally) -> Void) {
            let key = DayKey(account: account, day: CalendarDay(date, in: calendar))
            var row = days[key] ?? AccountDay(day: key.day, account: account)
            change(&row.tally)
            days[key] = row
        }
        for (account, records) in Dictionary(grouping: records, by: \.account) {
            for record in records {
                let seconds = record.length.seconds
                switch record.kind {
                case .take: add(account, record.at) { $0.takes += 1; $0.recordedSeconds += seconds }
                case .pickup: add(account, record.at) { $0.pickups += 1; $0.pickupSeconds += seconds; $0.recordedSeconds += seconds }
                case .review: add(account, record.at) { $0.reviewedSeconds += seconds }
                case .preparation: break
                }
            }
            for session in VolunteerHours.sessions(records.map(event)) {
                add(account, session.start) { $0.sessions += 1 }
                for (dayStart, seconds) in VolunteerHours.split(session, calendar: calendar) {
                    add(account, dayStart) { $0.sessionSeconds += seconds }
                }
            }
        }
        return days.values.sorted { ($0.day, $0.account) < ($1.day, $1.account) }
    }

    /// The report by account, role and month: every month, or only `month`. Sessions are found on
    /// all records first, so a session that crosses into the month counts its part inside it.
    /// `roles` gives each account's role; an account missing from it has none.
    public static func report(_ records: [ActivityRecord], roles: [AccountName: Role], month: CalendarMonth? = nil, timeZone: TimeZone) -> AccountHoursReport {
        var months: [MonthKey: AccountTally] = [:]
        for day in days(records, timeZone: timeZone) {
            let key = MonthKey(account: day.account, month: CalendarMonth(day.day))
            if let month, key.month != month { continue }
            months[key] = (months[key] ?? AccountTally()).adding(day.tally)
        }
        let rows = months.map { AccountMonth(month: $0.key.month, account: $0.key.account, role: roles[$0.key.account], tally: $0.value) }
            .sorted { ($0.month, $0.account) < ($1.month, $1.account) }
        return AccountHoursReport(rows: rows, totals: rows.reduce(AccountTally()) { $0.adding($1.tally) })
    }

    /// A record as the session rule's event; the account's name stands for the narrator.
    static func event(_ record: ActivityRecord) -> VolunteerHours.Event {
        let kind: VolunteerHours.Event.Kind = switch record.kind {
        case .take, .pickup, .review: .take(seconds: record.length.seconds)
        case .preparation: .edit
        }
        return VolunteerHours.Event(narrator: record.account.rawValue, time: record.at, kind: kind)
    }

    private struct DayKey: Hashable {
        let account: AccountName
        let day: CalendarDay
    }

    private struct MonthKey: Hashable {
        let account: AccountName
        let month: CalendarMonth
    }
}
