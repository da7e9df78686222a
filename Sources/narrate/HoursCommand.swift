import ArgumentParser
import Foundation
import Narration
import NarrationCore

extension Narrate {
    /// `narrate hours`: volunteer time per narrator and day, for a reading service's funders.
    struct Hours: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show volunteer time per narrator and day with the minutes recorded and delivered, or per account, role and month (--accounts).",
            discussion: """
                Volunteer time is counted in sessions. A session starts at a take and runs from the \
                start of that take to the last thing done after it: more takes, edits, undo, queue, \
                delivery. A pause of more than 15 minutes ends the session, and the pause is not \
                counted; activity after it counts again from the next take. A session that crosses \
                midnight (local time) is split between the two days, and counts as a session on the \
                day it started. For example: takes from 23:40 to 23:55, an edit at 00:05, a take \
                until 00:20, then nothing for an hour: one session, 20 minutes on each day.

                Recorded minutes are the length of the takes kept that day (takes later replaced or \
                deleted included); delivered minutes the length of the exports delivered that day. \
                What the catalog does not record is not counted: time spent before the first take, \
                a punch's new audio as a take (it counts as an edit), and a narrator changed with \
                `narrate edit` applies to the article's whole past.

                  narrate hours --from 2026-11-01 --to 2026-11-30
                  narrate hours --narrator "Ann Smith" --csv > ann.csv

                With --accounts, the report is by account, role and month, from what a reading \
                service's server recorded as its accounts worked: preparation (reading or editing \
                an article's text and details), takes, pickups (takes and punches for a \
                proof-listener's note) and review (a proof-listener listening or pinning notes). \
                The same session rule applies, with pickups and review starting a session as takes \
                do and preparation continuing one. Hours are session time; recorded minutes are the \
                audio of takes and pickups (pickup minutes the part that was pickups); reviewed \
                minutes the audio a proof-listener heard. The last line gives the totals. Roles \
                are the accounts' roles now.

                  narrate hours --accounts --month 2026-11 --csv > november.csv
                """)

        @Option(help: ArgumentHelp("The first day to show (inclusive).", valueName: "YYYY-MM-DD"))
        var from: String?

        @Option(help: ArgumentHelp("The last day to show (inclusive).", valueName: "YYYY-MM-DD"))
        var to: String?

        @Option(help: ArgumentHelp("Only this narrator (any case); \"(no narrator)\" for articles that name none.", valueName: "NAME"))
        var narrator: String?

        @Flag(help: "Report by account, role and month from the reading service's activity log, for a funder.")
        var accounts = false

        @Option(help: ArgumentHelp("With --accounts: only this month.", valueName: "YYYY-MM"))
        var month: String?

        @Flag(help: "Print the rows as CSV.")
        var csv = false

        @OptionGroup var output: JSONOption

        func validate() throws {
            if let from, CalendarDay(from) == nil { throw ValidationError("--from \(from) is not a day: give it as YYYY-MM-DD, e.g. 2026-11-23.") }
            if let to, CalendarDay(to) == nil { throw ValidationError("--to \(to) is not a day: give it as YYYY-MM-DD, e.g. 2026-11-23.") }
            if let first = from.flatMap(CalendarDay.init), let last = to.flatMap(CalendarDay.init), last < first {
                throw ValidationError("--to \(last) is before --from \(first): nothing would be shown.")
            }
            if csv, output.json { throw ValidationError("--csv and --json are two forms of the same rows: give one.") }
            if let month, CalendarMonth(month) == nil { throw ValidationError("--month \(month) is not a month: give it as YYYY-MM, e.g. 2026-11.") }
            if month != nil, !accounts { throw ValidationError("--month picks a month of the report by account: add --accounts.") }
            if accounts, from != nil || to != nil || narrator != nil {
                throw ValidationError("--from, --to and --narrator choose rows of the report by narrator and day: with --accounts, pick a month with --month.")
            }
        }

        func run() throws {
            if accounts { return try AccountHoursOutput(month: month.flatMap(CalendarMonth.init), csv: csv, json: output.json).run() }
            let events = try CommandRunner.withLibrary(readOnly: true) { library throws(NarrationError) in try library.records.activity() }
            let filter = VolunteerHours.Filter(from: from.flatMap(CalendarDay.init), to: to.flatMap(CalendarDay.init), narrator: narrator)
            let rows = VolunteerHours.report(events, filter: filter, timeZone: .current)
            if output.json {
                Console.printJSON(rows.map(VolunteerDayJSON.init))
            } else if csv {
                Console.print("date,narrator,volunteer_minutes,sessions,takes,recorded_minutes,delivered_minutes")
                for row in rows {
                    Console.print("\(row.day),\(Self.csvField(row.narrator)),\(VolunteerDay.minutes(row.volunteerSeconds)),\(row.sessions),\(row.takes),\(VolunteerDay.minutes(row.recordedSeconds)),\(VolunteerDay.minutes(row.deliveredSeconds))")
                }
            } else {
                printTable(rows)
            }
        }

        private func printTable(_ rows: [VolunteerDay]) {
            guard !rows.isEmpty else {
                Console.print("No volunteer time in that range: sessions start with a take (narrate record).")
                return
            }
            let width = max(8, rows.map(\.narrator.count).max() ?? 8)
            func line(_ day: String, _ name: String, _ values: [String]) -> String {
                let columns = zip(values, [10, 9, 6, 9, 10]).map { Console.rightAligned($0, $1) }.joined(separator: " ")
                return "\(day.padding(toLength: 10, withPad: " ", startingAt: 0))  \(name.padding(toLength: width, withPad: " ", startingAt: 0))  \(columns)"
            }
            Console.print("Volunteer, recorded and delivered time in minutes; sessions and takes counted.")
            Console.print(line("date", "narrator", ["volunteer", "sessions", "takes", "recorded", "delivered"]))
            func values(_ rows: [VolunteerDay]) -> [String] {
                [VolunteerDay.minutes(rows.reduce(0) { $0 + $1.volunteerSeconds }), String(rows.reduce(0) { $0 + $1.sessions }),
                 String(rows.reduce(0) { $0 + $1.takes }), VolunteerDay.minutes(rows.reduce(0) { $0 + $1.recordedSeconds }),
                 VolunteerDay.minutes(rows.reduce(0) { $0 + $1.deliveredSeconds })]
            }
            for row in rows { Console.print(line(row.day.description, row.narrator, values([row]))) }
            Console.print("")
            Console.print("Totals per narrator (minutes, as above):")
            for (name, theirs) in Dictionary(grouping: rows, by: \.narrator).sorted(by: { $0.key < $1.key }) {
                Console.print(line("", name, values(theirs)))
            }
        }

        /// A CSV field, quoted when it holds a comma, a quote or a line break.
        static func csvField(_ text: String) -> String {
            guard text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
            return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
    }
}

/// One row of `hours --json`: minutes as numbers with one decimal.
struct VolunteerDayJSON: Encodable {
    let date: String
    let narrator: String
    let volunteerMinutes: Double
    let sessions: Int
    let takes: Int
    let recordedMinutes: Double
    let deliveredMinutes: Double

    init(_ row: VolunteerDay) {
        func minutes(_ seconds: Double) -> Double { (seconds / 60 * 10).rounded() / 10 }
        date = row.day.description
        narrator = row.narrator
        volunteerMinutes = minutes(row.volunteerSeconds)
        sessions = row.sessions
        takes = row.takes
        recordedMinutes = minutes(row.recordedSeconds)
        deliveredMinutes = minutes(row.deliveredSeconds)
    }
}
