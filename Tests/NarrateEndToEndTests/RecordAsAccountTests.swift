import Foundation
import NarrationTestSupport
import Testing

/// `narrate record --as NAME` through the built binary: a booth take for a service account is
/// checked before anything is captured, counts for the account's hours, moves its desk article
/// from Assigned to Recording, and does the pickups it covers, the last sending the article
/// back to review.
@Suite("narrate record --as: a booth take for an account of the service")
struct RecordAsAccountTests {
    /// The service of `DeskReviewLifeTests`, plus a second volunteer, bob, and an article on the
    /// desk assigned to ann with a two-paragraph text.
    static func assigned() throws -> (EndToEndFixture, Narrate, String) {
        let (fixture, narrate, _) = try DeskReviewLifeTests.service()
        try #require(try narrate.run("accounts", "add", "bob", "--role", "volunteer").status == 0)
        let textFile = fixture.folder.file("harbour.md")
        try DeskReviewLifeTests.text.write(to: textFile, atomically: true, encoding: .utf8)
        let added = try narrate.run("desk", "add", "--title", "Harbour reopens", "--publication", "Daily Post", "--text", textFile.path, "--json")
        try #require(added.status == 0, "\(added.stderr)")
        let article = try #require((try added.json() as? [String: Any])?["id"] as? String)
        try #require(try narrate.run("desk", "assign", article, "ann").status == 0)
        return (fixture, narrate, article)
    }

    /// ann's takes and pickups in the hours report: [takes, pickups].
    static func annsHours(_ narrate: Narrate) throws -> [Int] {
        let report = try #require(try narrate.run("hours", "--accounts", "--json").json() as? [String: Any])
        let row = (report["rows"] as? [[String: Any]])?.first { $0["account"] as? String == "ann" }
        return [row?["takes"] as? Int ?? 0, row?["pickups"] as? Int ?? 0]
    }

    @Test("the volunteer's booth take: Recording on the desk and a take in her hours")
    func firstTake() throws {
        let (fixture, narrate, article) = try Self.assigned()
        #expect(try Self.annsHours(narrate) == [0, 0])
        let take = try fixture.record(0.5, "--article", article, "--as", "ann")
        #expect(take.status == 0, "\(take.stderr)")
        #expect(take.stdout.hasPrefix("Chunk 1 recorded (paragraph 1): 00:00:00.500"), "\(take.stdout)")
        #expect(try DeskReviewLifeTests.state(narrate, article) == "recording")
        #expect(try Self.annsHours(narrate) == [1, 0])
    }

    @Test("another volunteer, a proof-listener, an unknown or malformed name: refused in one sentence before capture, nothing recorded")
    func refusals() throws {
        let (fixture, narrate, article) = try Self.assigned()
        #expect(try fixture.record(0.3, "--article", article, "--as", "ann").status == 0)
        let before = try fixture.recordings()
        let bob = try fixture.record(0.3, "--article", article, "--as", "bob")
        #expect(bob.status != 0 && bob.stderr == "The account bob (volunteer) may not record the article \(article).\n", "\(bob.stderr)")
        let dora = try fixture.record(0.3, "--article", article, "--as", "dora")
        #expect(dora.status != 0 && dora.stderr == "The account dora (proof-listener) may not record the article \(article).\n", "\(dora.stderr)")
        let nobody = try fixture.record(0.3, "--article", article, "--as", "nobody")
        #expect(nobody.status != 0 && nobody.stderr.hasSuffix("List the accounts with: narrate accounts list\n"), "\(nobody.stderr)")
        let malformed = try fixture.record(0.3, "--article", article, "--as", "Not a name!")
        #expect(malformed.status == 64 && malformed.stderr.hasPrefix("Error: --as "), "\(malformed.stderr)")
        #expect(try fixture.recordings() == before)
        #expect(try Self.annsHours(narrate) == [1, 0])
    }

    @Test("in review the article is the proof-listener's: the booth takes nothing, in the desk's sentence")
    func inReview() throws {
        let (fixture, narrate, article) = try Self.assigned()
        #expect(try fixture.record(0.6, "--article", article, "--as", "ann").status == 0)
        #expect(try narrate.run("desk", "send", article, "--as", "ann").status == 0)
        let before = try fixture.recordings()
        let late = try fixture.record(0.3, "--article", article, "--as", "ann")
        #expect(late.status != 0 && late.stderr == "The account ann (volunteer) may not record the article \(article).\n", "\(late.stderr)")
        #expect(try fixture.recordings() == before)
        #expect(try DeskReviewLifeTests.state(narrate, article) == "ready-for-review")
    }

    @Test("two pickups punched at the booth: each done with its punch's edit, the last sends the article back to review")
    func pickups() throws {
        let (fixture, narrate, article) = try Self.assigned()
        for _ in 0..<2 { #expect(try fixture.record(0.8, "--article", article, "--as", "ann").status == 0) }
        let sent = try narrate.run("desk", "send", article, "--as", "ann")
        try #require(sent.status == 0, "\(sent.stderr)")
        for (paragraph, at) in [("1", "0.3"), ("2", "1.2")] {
            let note = try narrate.run("review", "note", "--article", article, "--as", "dora", "--paragraph", paragraph, "--at", at, "--said", "stayed", "--should-be", "stood")
            try #require(note.status == 0, "\(note.stderr)")
        }
        try #require(try narrate.run("review", "send-back", "--article", article, "--as", "dora").status == 0)

        // A take of another paragraph covers neither pickup (it counts as pickup time all the same).
        let other = try fixture.record(0.3, "--article", article, "--as", "ann", "--paragraph", "3")
        #expect(other.status == 0 && !other.stdout.contains("Pickup"), "\(other.stdout)\(other.stderr)")
        #expect(try DeskReviewLifeTests.state(narrate, article) == "pickups-requested")
        let first = try fixture.record(0.4, "--article", article, "--as", "ann", "--punch", "1@0.2", "--pre-roll", "0", "--output-device", "vspk")
        #expect(first.status == 0 && first.stdout.hasSuffix("Pickup 1 is done with this take.\n"), "\(first.stdout)\(first.stderr)")
        #expect(try DeskReviewLifeTests.state(narrate, article) == "pickups-requested")
        let second = try fixture.record(0.4, "--article", article, "--as", "ann", "--punch", "2@0.1", "--pre-roll", "0", "--output-device", "vspk")
        #expect(second.status == 0 && second.stdout.hasSuffix("Pickup 2 is done with this take. All pickups are done: sent back to review.\n"), "\(second.stdout)\(second.stderr)")
        #expect(try DeskReviewLifeTests.state(narrate, article) == "ready-for-review")

        let listed = try narrate.run("history", "--article", article, "--json")
        try #require(listed.status == 0, "\(listed.stderr)")
        let history = try #require(try listed.json() as? [[String: Any]])
        let reviewed = try narrate.run("review", "notes", "--article", article, "--as", "dora", "--json")
        try #require(reviewed.status == 0, "\(reviewed.stderr)")
        let notes = try #require(try reviewed.json() as? [[String: Any]])
        let edits = notes.map { $0["doneEdit"] as? Int }
        #expect(edits == [history[1]["number"] as? Int, history[0]["number"] as? Int], "\(notes)")
        #expect(try Self.annsHours(narrate) == [2, 3])
    }
}
