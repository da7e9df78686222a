import Foundation
import Narration
import NarrationCore
import NarrationTestSupport
import Testing

/// The scripted day (`ScriptedServiceDay`) in memory: three volunteers and a
/// proof-listener, each event at an exact time, and the minutes per account the session rule
/// gives, worked out by hand in `ScriptedServiceDay`'s comments. The same day on a real catalog
/// through the built binary is `AccountHoursCommandTests`.
@Suite("Hours: the scripted day of a reading service, in memory")
struct ScriptedServiceDayTests {
    static func played() throws -> AccountActivity {
        try playedWithAccounts().activity
    }

    static func playedWithAccounts() throws -> (accounts: AccountService, activity: AccountActivity) {
        let clock = HandClock(ScriptedServiceDay.start)
        let accountStore = InMemoryAccountStore()
        let accounts = AccountService(store: accountStore, clock: clock.function, hashing: .init(iterations: 1, memoryKiB: 64, lanes: 1))
        let activity = AccountActivity(store: InMemoryActivityStore(accounts: accountStore), accounts: accountStore, clock: clock.function)
        try ScriptedServiceDay.play(accounts: accounts, activity: activity, clock: clock)
        return (accounts, activity)
    }

    @Test("November by account and role: the minutes worked out by hand, and their totals")
    func november() throws {
        let report = try Self.played().hours(month: CalendarMonth("2026-11"), timeZone: TimeZone(identifier: "UTC")!)
        #expect(report.rows.map(\.month.description) == ["2026-11", "2026-11", "2026-11", "2026-11"])
        let rows = report.rows.map { ScriptedServiceDay.figures($0.tally, account: $0.account.rawValue, role: $0.role?.rawValue ?? "") }
        #expect(rows == ScriptedServiceDay.november)
        #expect(ScriptedServiceDay.figures(report.totals) == ScriptedServiceDay.novemberTotals)
        // Exact seconds behind the rounded figures: ann 42.5 min, the day 120.5 min.
        #expect(report.rows.first?.tally.sessionSeconds == 2550)
        #expect(report.totals.sessionSeconds == 7230 && report.totals.recordedSeconds == 2112 && report.totals.reviewedSeconds == 1380)
    }

    @Test("every month: December's row after November's, and totals over both")
    func everyMonth() throws {
        let report = try Self.played().hours(timeZone: TimeZone(identifier: "UTC")!)
        #expect(report.rows.map { "\($0.month) \($0.account)" } == ["2026-11 ann", "2026-11 ben", "2026-11 cleo", "2026-11 dora", "2026-12 ben"])
        #expect(report.rows.last.map { ScriptedServiceDay.figures($0.tally, account: "ben", role: "volunteer") } == ScriptedServiceDay.decemberBen)
        #expect(ScriptedServiceDay.figures(report.totals) == ScriptedServiceDay.allTotals)
    }

    @Test("a volunteer and a proof-listener see their own hours only, a coordinator everyone's; a disabled account none")
    func whoSeesWhat() throws {
        let (accounts, activity) = try Self.playedWithAccounts()
        let utc = TimeZone(identifier: "UTC")!
        let november = CalendarMonth("2026-11")
        _ = try accounts.add(try AccountName("carl"), role: .coordinator, by: "admin")
        let seen = { (name: String) throws -> [String] in
            try activity.hours(seenBy: try accounts.account(try AccountName(name)), month: november, timeZone: utc).rows.map(\.account.rawValue)
        }
        #expect(try seen("carl") == ["ann", "ben", "cleo", "dora"])
        #expect(try seen("ann") == ["ann"])
        let dora = try activity.hours(seenBy: try accounts.account(try AccountName("dora")), month: november, timeZone: utc)
        #expect(dora.rows.map { ScriptedServiceDay.figures($0.tally, account: $0.account.rawValue, role: $0.role?.rawValue ?? "") } == [ScriptedServiceDay.november[3]])
        #expect(ScriptedServiceDay.figures(dora.totals, account: "dora", role: "proof-listener") == ScriptedServiceDay.november[3])
        _ = try accounts.disable(try AccountName("ann"), by: "admin")
        #expect(throws: NarrationError.accountDisabled(try AccountName("ann"))) { try seen("ann") }
    }

    @Test("cleo's late session is split at midnight: 15 minutes on the 24th, where it counts as a session, 5 on the 25th")
    func cleoAcrossMidnight() throws {
        let records = try Self.played().store.activity(of: try AccountName("cleo"))
        let days = AccountHours.days(records, timeZone: TimeZone(identifier: "UTC")!)
        #expect(days.map { "\($0.day) \($0.tally.sessionSeconds) \($0.tally.sessions) \($0.tally.takes) \($0.tally.recordedSeconds)" } == [
            "2026-11-24 900.0 1 1 300.0", "2026-11-25 300.0 0 1 300.0",
        ])
    }
}
