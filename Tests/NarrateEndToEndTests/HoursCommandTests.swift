import Foundation
import NarrationTestSupport
import Testing

/// `narrate hours` on the binary: real takes on the virtual microphone make one session; CSV,
/// JSON and the refusals as a script sees them.
@Suite("narrate hours")
struct HoursCommandTests {
    @Test("two takes make one session of two takes for their narrator today; CSV and JSON agree; a bad day and --csv with --json are refused")
    func hoursOfTakes() throws {
        let fixture = try EndToEndFixture()
        var environment = fixture.narrate.environment
        environment["TZ"] = "UTC"
        let narrate = Narrate(home: fixture.narrate.home, environment: environment)
        #expect(try narrate.run("new", "Budget", "--narrator", "Ann Lee").status == 0)
        for _ in 0..<2 { #expect(try narrate.run("record", "--device", "vmic", "--duration", "1.5").status == 0) }
        let today = String(ISO8601DateFormatter().string(from: Date()).prefix(10))

        let csv = try narrate.run("hours", "--csv")
        #expect(csv.status == 0, "\(csv.stderr)")
        let lines = csv.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "date,narrator,volunteer_minutes,sessions,takes,recorded_minutes,delivered_minutes")
        // 3 s recorded is 0.05 minutes, shown as 0.1 (one decimal); the session lasts from the
        // first take's start to the second's end, a few seconds.
        #expect(lines.dropFirst().map { $0.split(separator: ",").prefix(2).joined(separator: ",") } == ["\(today),Ann Lee"])
        let fields = lines.count == 2 ? lines[1].split(separator: ",").map(String.init) : []
        #expect(fields.count == 7 && fields[3] == "1" && fields[4] == "2" && fields[5] == "0.1" && fields[6] == "0.0", "\(lines)")
        let volunteer = Double(fields.count == 7 ? fields[2] : "") ?? -1
        #expect(volunteer >= 0 && volunteer <= 1, "\(lines)")

        let json = try #require(try narrate.run("hours", "--json").json() as? [[String: Any]])
        #expect(json.count == 1 && json.first?["narrator"] as? String == "Ann Lee" && json.first?["takes"] as? Int == 2)
        #expect(try #require(try narrate.run("hours", "--narrator", "someone else", "--json").json() as? [Any]).isEmpty)

        // The table names its units before its first row, not only in the totals.
        let table = try narrate.run("hours").stdout.split(separator: "\n").map(String.init)
        #expect(table.first == "Volunteer, recorded and delivered time in minutes; sessions and takes counted.", "\(table)")
        #expect(table.dropFirst().first?.hasPrefix("date        narrator") == true, "\(table)")
        #expect(table.contains("Totals per narrator (minutes, as above):"), "\(table)")

        let badDay = try narrate.run("hours", "--from", "2026-13-01")
        #expect(badDay.status == 64 && badDay.stderr.hasPrefix("Error: --from 2026-13-01 is not a day: give it as YYYY-MM-DD, e.g. 2026-11-23.\n"))
        let both = try narrate.run("hours", "--csv", "--json")
        #expect(both.status == 64 && both.stderr.hasPrefix("Error: --csv and --json are two forms of the same rows: give one.\n"))
    }
}
