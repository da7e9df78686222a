import Foundation
import NarrationCore
import NarrationTestSupport
import Testing

private let utc = TimeZone(identifier: "UTC")!

/// A record of `account` ending at `time` (UTC minute), `seconds` long.
private func record(_ time: String, _ kind: ActivityRecord.Kind, _ seconds: Double = 0, by account: String = "ann") throws -> ActivityRecord {
    ActivityRecord(account: try AccountName(account), kind: kind, length: try ActivitySeconds(seconds), article: nil, at: utcMinute(time))
}

/// Each day as `day account sessionMinutes sessions takes recorded pickups pickupMinutes reviewed`.
private func days(_ records: [ActivityRecord]) -> [String] {
    AccountHours.days(records, timeZone: utc).map {
        let t = $0.tally
        return "\($0.day) \($0.account) \(VolunteerDay.minutes(t.sessionSeconds)) \(t.sessions) \(t.takes) \(VolunteerDay.minutes(t.recordedSeconds)) "
            + "\(t.pickups) \(VolunteerDay.minutes(t.pickupSeconds)) \(VolunteerDay.minutes(t.reviewedSeconds))"
    }
}

@Suite("Hours by account: the session rule on the server's activity records")
struct AccountHoursTests {
    @Test("a review opens a session as a take does, its length heard before it; a preparation alone opens none")
    func reviewOpensPreparationDoesNot() throws {
        // dora hears 10 min to 11:00 (session from 10:50), pins a note at 11:14 (14 min on): 24 min.
        // ann only prepares, at 09:00 and 09:10: no session, no time.
        let records = [
            try record("2026-11-24 09:00", .preparation), try record("2026-11-24 09:10", .preparation),
            try record("2026-11-24 11:00", .review, 600, by: "dora"), try record("2026-11-24 11:14", .review, 0, by: "dora"),
        ]
        #expect(days(records) == ["2026-11-24 dora 24.0 1 0 0.0 0 0.0 10.0"])
    }

    @Test("a pickup is recorded audio and starts a session; a preparation within 15 minutes after it continues the session")
    func pickupAndPreparation() throws {
        // A pickup of 90 s kept at 14:00 began at 13:58:30; an edit at 14:15 (exactly 15 min) and
        // another at 14:31 (16 min): the session is 13:58:30–14:15, 16.5 min.
        let records = [try record("2026-11-24 14:00", .pickup, 90), try record("2026-11-24 14:15", .preparation), try record("2026-11-24 14:31", .preparation)]
        #expect(days(records) == ["2026-11-24 ann 16.5 1 0 1.5 1 1.5 0.0"])
    }

    @Test("a session across the end of a month gives each month its part; a month asked for keeps only its own rows")
    func acrossMonths() throws {
        // Takes 23:50–23:55 on 31 October and 00:05–00:10 on 1 November: one session of 20 min,
        // 10 in each month, counted as a session in October.
        let records = [try record("2026-10-31 23:55", .take, 300), try record("2026-11-01 00:10", .take, 300)]
        let roles = [try AccountName("ann"): Role.volunteer]
        let all = AccountHours.report(records, roles: roles, timeZone: utc)
        #expect(all.rows.map { "\($0.month) \($0.account) \($0.role?.rawValue ?? "-") \($0.tally.sessions) \($0.tally.sessionSeconds)" } == [
            "2026-10 ann volunteer 1 600.0", "2026-11 ann volunteer 0 600.0",
        ])
        #expect(all.totals.sessionSeconds == 1200 && all.totals.sessions == 1 && all.totals.takes == 2)
        let november = AccountHours.report(records, roles: roles, month: CalendarMonth("2026-11"), timeZone: utc)
        #expect(november.rows.map(\.month.description) == ["2026-11"])
        #expect(november.totals.sessionSeconds == 600 && november.totals.sessions == 0 && november.totals.recordedSeconds == 300)
        // An account the roles do not name is shown without a role.
        #expect(AccountHours.report(records, roles: [:], timeZone: utc).rows.map(\.role) == [nil, nil])
    }

    @Test("a month is YYYY-MM and nothing else", arguments: [
        ("2026-11", "2026-11"), ("1999-01", "1999-01"), ("2026-13", nil), ("2026-00", nil), ("2026-1", nil), ("26-11", nil), ("2026-11-01", nil),
        ("２０２６-11", nil), ("+026-11", nil), ("2026--1", nil), ("", nil), ("0999-12", nil), ("2026-11\n", nil),
    ] as [(String, String?)])
    func months(text: String, parsed: String?) {
        #expect(CalendarMonth(text)?.description == parsed)
    }

    @Test("a length of audio from outside is 0 to one day, to the millisecond; anything else is one sentence", arguments: [
        (-5, "-5 seconds is not a length of audio: give 0 to 86400 seconds (one day)."),
        (.nan, "nan seconds is not a length of audio: give 0 to 86400 seconds (one day)."),
        (.infinity, "inf seconds is not a length of audio: give 0 to 86400 seconds (one day)."),
        (1e300, "1e+300 seconds is not a length of audio: give 0 to 86400 seconds (one day)."),
        (86_400.001, "86400.001 seconds is not a length of audio: give 0 to 86400 seconds (one day)."),
    ] as [(Double, String)])
    func lengths(seconds: Double, refusal: String) {
        #expect(throws: NarrationError.usage(refusal)) { try ActivitySeconds(seconds) }
    }

    @Test("lengths are kept to the millisecond, rounded")
    func milliseconds() throws {
        #expect(try ActivitySeconds(1.2346).milliseconds == 1235)
        #expect(try ActivitySeconds(86_400).milliseconds == 86_400_000)
        #expect(try ActivitySeconds(0).milliseconds == 0)
        #expect(ActivitySeconds(storedMilliseconds: -1) == nil && ActivitySeconds(storedMilliseconds: 86_400_001) == nil)
        #expect(ActivitySeconds(storedMilliseconds: 86_400_000)?.seconds == 86_400)
    }
}
