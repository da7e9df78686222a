import ArgumentParser
import Foundation
import Narration
import NarrationCore

extension Narrate {
    /// `narrate audit`: the reading service's audit log, oldest first.
    struct Audit: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the audit log: every change to accounts and the desk, with who made it and when.",
            discussion: """
                The log is only ever added to: narrate has no way to change or remove a line, and \
                the catalog refuses any attempt. Times are UTC.

                  narrate audit --account ann.lee --since 2026-11-01
                """)

        @Option(help: ArgumentHelp("Only the lines about this account.", valueName: "NAME"))
        var account: String?

        @Option(help: ArgumentHelp("Only the lines from this day on (UTC).", valueName: "YYYY-MM-DD"))
        var since: String?

        @OptionGroup var output: JSONOption

        func validate() throws {
            if let account { do { _ = try AccountName(account) } catch { throw ValidationError("--account \(error.message)") } }
            if let since, Self.day(since) == nil { throw ValidationError("--since \(since) is not a day: give it as YYYY-MM-DD, e.g. 2026-11-23.") }
        }

        /// Midnight UTC at the start of `text`, a day written YYYY-MM-DD.
        static func day(_ text: String) -> Date? {
            guard let day = CalendarDay(text) else { return nil }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            return calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day))
        }

        func run() throws {
            let name = try account.map { try AccountName($0) }
            let entries = try CommandRunner.withLibrary(readOnly: true) { (library) throws(NarrationError) in
                try AccountService(store: library.accountStore).auditLog(account: name, since: since.flatMap(Self.day))
            }
            if output.json {
                Console.printJSON(entries.map(AuditEntryJSON.init))
                return
            }
            guard !entries.isEmpty else {
                Console.print(account == nil && since == nil ? "The audit log is empty." : "No lines of the audit log match.")
                return
            }
            for entry in entries {
                let detail = entry.detail.isEmpty ? "" : "  \(entry.detail)"
                Console.print("\(AccountTime.utc(entry.at))  \(entry.actor)  \(entry.action.rawValue)  \(entry.account?.rawValue ?? "-")\(detail)")
            }
        }
    }
}
