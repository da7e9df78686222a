import Foundation
import Narration
import NarrationCore

/// `narrate hours --accounts`: the report by account, role and month, as a table, CSV or JSON.
struct AccountHoursOutput {
    let month: CalendarMonth?
    let csv: Bool
    let json: Bool

    /// The CSV header; the totals line names itself `(total)`, which no account name can be.
    static let csvHeader = "account,role,month,sessions,session_minutes,hours,takes,recorded_minutes,pickups,pickup_minutes,reviewed_minutes"

    func run() throws {
        let report = try CommandRunner.withLibrary(readOnly: true) { (library) throws(NarrationError) in
            try AccountActivity(store: library.activityStore, accounts: library.accountStore).hours(month: month, timeZone: .current)
        }
        if json {
            Console.printJSON(AccountHoursReportJSON(report, month: month))
        } else if csv {
            Console.print(Self.csvHeader)
            for row in report.rows {
                Console.print("\(row.account),\(row.role?.rawValue ?? ""),\(row.month),\(Self.figures(row.tally).joined(separator: ","))")
            }
            Console.print("(total),,\(month?.description ?? ""),\(Self.figures(report.totals).joined(separator: ","))")
        } else {
            printTable(report)
        }
    }

    /// sessions, session minutes, hours, takes, recorded minutes, pickups, pickup minutes, reviewed minutes.
    static func figures(_ tally: AccountTally) -> [String] {
        [String(tally.sessions), VolunteerDay.minutes(tally.sessionSeconds), AccountTally.hours(tally.sessionSeconds), String(tally.takes),
         VolunteerDay.minutes(tally.recordedSeconds), String(tally.pickups), VolunteerDay.minutes(tally.pickupSeconds),
         VolunteerDay.minutes(tally.reviewedSeconds)]
    }

    private func printTable(_ report: AccountHoursReport) {
        guard !report.rows.isEmpty else {
            Console.print(month.map { "No account activity recorded in \($0)." }
                ?? "No account activity recorded yet: the reading service records it as its accounts prepare, record and review articles.")
            return
        }
        let width = max(7, report.rows.map(\.account.rawValue.count).max() ?? 7)
        func line(_ month: String, _ account: String, _ role: String, _ values: [String]) -> String {
            let columns = zip(values, [8, 7, 5, 5, 8, 7, 6, 8]).map { Console.rightAligned($0, $1) }.joined(separator: "  ")
            return "\(month.padding(toLength: 7, withPad: " ", startingAt: 0))  \(account.padding(toLength: width, withPad: " ", startingAt: 0))  "
                + "\(role.padding(toLength: 14, withPad: " ", startingAt: 0))  \(columns)"
        }
        Console.print("Session time per account and month, in minutes and hours; recorded, pickup and reviewed audio in minutes.")
        Console.print(line("month", "account", "role", ["sessions", "minutes", "hours", "takes", "recorded", "pickups", "pickup", "reviewed"]))
        for row in report.rows { Console.print(line(row.month.description, row.account.rawValue, row.role?.rawValue ?? "-", Self.figures(row.tally))) }
        Console.print(line("(total)", "", "", Self.figures(report.totals)))
    }
}

/// `hours --accounts --json`: the month asked for (null for all), the rows and the totals;
/// minutes with one decimal, hours with two.
struct AccountHoursReportJSON: Encodable {
    struct Figures: Encodable {
        let account: String?
        let role: String?
        let month: String?
        let sessions: Int
        let sessionMinutes: Double
        let hours: Double
        let takes: Int
        let recordedMinutes: Double
        let pickups: Int
        let pickupMinutes: Double
        let reviewedMinutes: Double

        init(_ tally: AccountTally, account: String? = nil, role: String? = nil, month: String? = nil) {
            func minutes(_ seconds: Double) -> Double { (seconds / 60 * 10).rounded() / 10 }
            self.account = account
            self.role = role
            self.month = month
            sessions = tally.sessions
            sessionMinutes = minutes(tally.sessionSeconds)
            hours = (tally.sessionSeconds / 3600 * 100).rounded() / 100
            takes = tally.takes
            recordedMinutes = minutes(tally.recordedSeconds)
            pickups = tally.pickups
            pickupMinutes = minutes(tally.pickupSeconds)
            reviewedMinutes = minutes(tally.reviewedSeconds)
        }
    }

    let month: String?
    let rows: [Figures]
    let totals: Figures

    init(_ report: AccountHoursReport, month: CalendarMonth?) {
        self.month = month?.description
        rows = report.rows.map { Figures($0.tally, account: $0.account.rawValue, role: $0.role?.rawValue, month: $0.month.description) }
        totals = Figures(report.totals)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(month, forKey: .month)
        try container.encode(rows, forKey: .rows)
        try container.encode(totals, forKey: .totals)
    }

    private enum CodingKeys: String, CodingKey { case month, rows, totals }
}
