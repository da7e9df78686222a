import Foundation
import Narration
import NarrationCore
import NarrationTestSupport
import Testing

/// `narrate hours --accounts` on the built binary: the scripted day (`ScriptedServiceDay`)
/// recorded into a real catalog through `AccountActivity`, then read by the command as JSON,
/// CSV and a table, with the same figures as in memory (`ScriptedServiceDayTests`); and the
/// refusals as a script sees them.
@Suite("narrate hours --accounts")
struct AccountHoursCommandTests {
    /// A narrate on a fresh data folder, in UTC.
    static func narrate(_ folder: TemporaryFolder) -> Narrate {
        Narrate(home: folder.file("home"), environment: ["XDG_CONFIG_HOME": folder.file("xdg").path, "TZ": "UTC"])
    }

    /// A row or the totals of `hours --accounts --json` as `Figures`.
    static func figures(_ object: [String: Any]) -> ScriptedServiceDay.Figures {
        ScriptedServiceDay.Figures(
            object["account"] as? String ?? "", object["role"] as? String ?? "", sessions: object["sessions"] as? Int ?? -1,
            sessionMinutes: object["sessionMinutes"] as? Double ?? -1, hours: object["hours"] as? Double ?? -1, takes: object["takes"] as? Int ?? -1,
            recordedMinutes: object["recordedMinutes"] as? Double ?? -1, pickups: object["pickups"] as? Int ?? -1,
            pickupMinutes: object["pickupMinutes"] as? Double ?? -1, reviewedMinutes: object["reviewedMinutes"] as? Double ?? -1)
    }

    @Test("the scripted day in the catalog: November and every month by account, as JSON, CSV and a table, with the figures worked out by hand")
    func scriptedDay() throws {
        let folder = TemporaryFolder("narrate-account-hours")
        let narrate = Self.narrate(folder)
        let empty = try narrate.run("hours", "--accounts")
        #expect(empty.status == 0 && empty.stdout == "No account activity recorded yet: the reading service records it as its accounts prepare, record and review articles.\n", "\(empty.stderr)")

        let catalog = try Catalog(path: folder.file("home/catalog.sqlite").path)
        let clock = HandClock(ScriptedServiceDay.start)
        let accounts = AccountService(store: catalog, clock: clock.function, hashing: .init(iterations: 1, memoryKiB: 64, lanes: 1))
        try ScriptedServiceDay.play(accounts: accounts, activity: AccountActivity(store: catalog, accounts: catalog, clock: clock.function), clock: clock)

        let november = try narrate.run("hours", "--accounts", "--month", "2026-11", "--json")
        #expect(november.status == 0, "\(november.stderr)")
        let report = try #require(try november.json() as? [String: Any])
        #expect(report["month"] as? String == "2026-11")
        let rows = try #require(report["rows"] as? [[String: Any]])
        #expect(rows.map { $0["month"] as? String } == Array(repeating: "2026-11", count: 4))
        #expect(rows.map(Self.figures) == ScriptedServiceDay.november)
        #expect(Self.figures(try #require(report["totals"] as? [String: Any])) == ScriptedServiceDay.novemberTotals)

        let every = try #require(try narrate.run("hours", "--accounts", "--json").json() as? [String: Any])
        #expect(every["month"] is NSNull)
        let everyRows = try #require(every["rows"] as? [[String: Any]])
        #expect(everyRows.map { "\($0["month"] as? String ?? "") \($0["account"] as? String ?? "")" } == [
            "2026-11 ann", "2026-11 ben", "2026-11 cleo", "2026-11 dora", "2026-12 ben",
        ])
        #expect(everyRows.last.map(Self.figures) == ScriptedServiceDay.decemberBen)
        #expect(Self.figures(try #require(every["totals"] as? [String: Any])) == ScriptedServiceDay.allTotals)

        // The same figures as a funder's spreadsheet takes them.
        let csv = try narrate.run("hours", "--accounts", "--month", "2026-11", "--csv")
        #expect(csv.status == 0 && csv.stdout == """
            account,role,month,sessions,session_minutes,hours,takes,recorded_minutes,pickups,pickup_minutes,reviewed_minutes
            ann,volunteer,2026-11,3,42.5,0.71,3,12.2,2,1.2,0.0
            ben,volunteer,2026-11,2,28.0,0.47,3,13.0,0,0.0,0.0
            cleo,volunteer,2026-11,1,20.0,0.33,2,10.0,0,0.0,0.0
            dora,proof-listener,2026-11,2,30.0,0.50,0,0.0,0,0.0,23.0
            (total),,2026-11,8,120.5,2.01,8,35.2,2,1.2,23.0

            """, "\(csv.stdout)")

        let table = try narrate.run("hours", "--accounts", "--month", "2026-11").stdout
        #expect(table == """
            Session time per account and month, in minutes and hours; recorded, pickup and reviewed audio in minutes.
            month    account  role            sessions  minutes  hours  takes  recorded  pickups  pickup  reviewed
            2026-11  ann      volunteer              3     42.5   0.71      3      12.2        2     1.2       0.0
            2026-11  ben      volunteer              2     28.0   0.47      3      13.0        0     0.0       0.0
            2026-11  cleo     volunteer              1     20.0   0.33      2      10.0        0     0.0       0.0
            2026-11  dora     proof-listener         2     30.0   0.50      0       0.0        0     0.0      23.0
            (total)                                  8    120.5   2.01      8      35.2        2     1.2      23.0

            """, "\(table)")
        #expect(try narrate.run("hours", "--accounts", "--month", "2026-10").stdout == "No account activity recorded in 2026-10.\n")

        // The report by narrator reads the catalog's recordings, not the activity log: unchanged.
        #expect(try narrate.run("hours", "--json").stdout == "[\n\n]\n")
    }

    @Test("a bad month, --month without --accounts, and the narrator report's options with --accounts are refused in one line, exit 64", arguments: [
        (["--accounts", "--month", "2026-13"], "--month 2026-13 is not a month: give it as YYYY-MM, e.g. 2026-11."),
        (["--accounts", "--month", "November"], "--month November is not a month: give it as YYYY-MM, e.g. 2026-11."),
        (["--accounts", "--month", "2026-11-01"], "--month 2026-11-01 is not a month: give it as YYYY-MM, e.g. 2026-11."),
        (["--month", "2026-11"], "--month picks a month of the report by account: add --accounts."),
        (["--accounts", "--narrator", "ann"], "--from, --to and --narrator choose rows of the report by narrator and day: with --accounts, pick a month with --month."),
        (["--accounts", "--from", "2026-11-01"], "--from, --to and --narrator choose rows of the report by narrator and day: with --accounts, pick a month with --month."),
        (["--accounts", "--csv", "--json"], "--csv and --json are two forms of the same rows: give one."),
    ])
    func refusals(arguments: [String], sentence: String) throws {
        let folder = TemporaryFolder("narrate-account-hours-refused")
        let result = try Self.narrate(folder).run(["hours"] + arguments)
        #expect(result.status == 64 && result.stdout.isEmpty, "\(result.stdout)")
        #expect(result.stderr == "Error: \(sentence)\n", "\(result.stderr)")
    }

    @Test("a record planted in the activity log with a length that is text: one line naming it, exit 1, no trap, the log as it was")
    func plantedRecord() throws {
        let folder = TemporaryFolder("narrate-account-hours-planted")
        let narrate = Self.narrate(folder)
        #expect(try narrate.run("hours", "--accounts").status == 0)
        let path = folder.file("home/catalog.sqlite").path
        let catalog = try Catalog(path: path)
        _ = try AccountService(store: catalog, hashing: .init(iterations: 1, memoryKiB: 64, lanes: 1)).add(try AccountName("ann"), role: .volunteer, by: "admin")
        try Signals.run("sqlite3", [
            "-cmd", ".timeout 10000", path,
            "INSERT INTO account_activity (account_name, kind, milliseconds, article_id, at) VALUES ('ann', 'take', 'abc', NULL, 1795000000)",
        ])
        let before = try Signals.run("sqlite3", ["-readonly", path, "SELECT * FROM account_activity"])
        for arguments in [["hours", "--accounts"], ["hours", "--accounts", "--json"], ["hours", "--accounts", "--month", "2026-11", "--csv"]] {
            let result = try narrate.run(arguments)
            #expect(result.status == 1 && result.stdout.isEmpty, "\(arguments) \(result.stdout)")
            #expect(result.stderr == """
                The activity log holds a record narrate never writes ("ann", "take", "abc", NULL, 1795000000). No recording was changed; move the catalog aside to start a new one, the chunk files stay under the articles folder.

                """, "\(arguments) \(result.stderr)")
        }
        #expect(try Signals.run("sqlite3", ["-readonly", path, "SELECT * FROM account_activity"]) == before)
    }
}
