import Foundation
import NarrationTestSupport
import Testing

/// One desk article's whole life through the built binary, with review on: a coordinator puts
/// it on the desk and assigns it, the volunteer records and sends it, a proof-listener pins two
/// notes and sends it back, the volunteer punches both pickups, the proof-listener approves, and
/// only then does the folder destination's podcast feed hold it.
@Suite("A desk article from the desk to the feed, reviewed")
struct DeskReviewLifeTests {
    static let text = "# Harbour reopens\n\nThe harbour stayed closed for a week.\n\nThe storm passed on Sunday.\n"

    /// A fixture whose config.toml names a folder destination with a feed and a profile that
    /// carries it, and the accounts cora (coordinator), ann (volunteer) and dora (proof-listener).
    static func service(review: Bool = true) throws -> (EndToEndFixture, Narrate, URL) {
        let fixture = try EndToEndFixture()
        let share = fixture.folder.file("share")
        try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
        let narrate = try fixture.narrate(config: """
            narrator = "Ann Lee"
            publication = "Daily Post"
            profile = "pod"
            destination = "share"

            [destinations.share]
            url = "\(share.path)"

            [profiles.pod]
            base = "archive"
            format = "mp3"
            carries = ["audio", "feed"]

            [service]
            review = \(review)
            """)
        for (name, role) in [("cora", "coordinator"), ("ann", "volunteer"), ("dora", "proof-listener")] {
            let added = try narrate.run("accounts", "add", name, "--role", role)
            try #require(added.status == 0, "\(added.stderr)")
        }
        return (fixture, narrate, share)
    }

    static func state(_ narrate: Narrate, _ article: String) throws -> String? {
        try (narrate.run("desk", "show", article, "--json").json() as? [String: Any])?["state"] as? String
    }

    static func feed(_ share: URL) -> String? {
        try? String(contentsOf: share.appendingPathComponent("Daily Post/feed.xml"), encoding: .utf8)
    }

    @Test("assigned, recorded, sent, sent back with two notes, both pickups punched, approved: the feed holds it then and not before")
    func wholeLife() throws {
        let (fixture, narrate, share) = try Self.service()
        let textFile = fixture.folder.file("harbour.md")
        try Self.text.write(to: textFile, atomically: true, encoding: .utf8)
        let added = try narrate.run("desk", "add", "--title", "Harbour reopens", "--publication", "Daily Post", "--deadline", "2099-12-02T17:00", "--text", textFile.path, "--json")
        try #require(added.status == 0, "\(added.stderr)")
        let article = try #require((try added.json() as? [String: Any])?["id"] as? String)
        #expect(try narrate.run("desk", "assign", article, "ann").status == 0)

        // Sending before any take is refused, and changes nothing.
        let early = try narrate.run("desk", "send", article, "--as", "ann")
        #expect(early.status != 0 && early.stderr.contains("has no takes yet: record it first"), "\(early.stderr)")
        #expect(try Self.state(narrate, article) == "assigned")

        for seconds in [0.6, 0.8] {
            let take = try narrate.run("record", "--article", article, "--device", "vmic", "--duration", "\(seconds)")
            try #require(take.status == 0, "\(take.stderr)")
        }
        let sent = try narrate.run("desk", "send", article, "--as", "ann")
        #expect(sent.status == 0 && sent.stdout == "ann sent \(article) (\"Harbour reopens\"): it is Ready for review.\n", "\(sent.stdout)\(sent.stderr)")
        #expect(try Self.state(narrate, article) == "ready-for-review")
        #expect(Self.feed(share) == nil, "sent for review, yet the feed was written")

        // The volunteer may not approve their own article; the proof-listener's approval is the only way.
        let own = try narrate.run("review", "approve", "--article", article, "--as", "ann")
        #expect(own.status != 0, "\(own.stdout)")
        #expect(try Self.state(narrate, article) == "ready-for-review" && Self.feed(share) == nil)

        for (paragraph, at) in [("1", "0.3"), ("2", "0.4")] {
            let note = try narrate.run("review", "note", "--article", article, "--as", "dora", "--paragraph", paragraph, "--at", at, "--text", "a door slams")
            try #require(note.status == 0, "\(note.stderr)")
        }
        let back = try narrate.run("review", "send-back", "--article", article, "--as", "dora")
        #expect(back.status == 0, "\(back.stderr)")
        #expect(try Self.state(narrate, article) == "pickups-requested")
        // Approving now is refused by the desk: the article is the volunteer's again.
        let tooSoon = try narrate.run("review", "approve", "--article", article, "--as", "dora")
        #expect(tooSoon.status != 0 && Self.feed(share) == nil, "\(tooSoon.stdout)")

        // Both pickups by punch-and-roll, each marked done with its edit.
        var edits: [Int] = []
        for punch in ["1@0.3", "2@0.2"] {
            let punched = try narrate.run("record", "--article", article, "--device", "vmic", "--duration", "0.4", "--punch", punch, "--pre-roll", "0", "--output-device", "vspk")
            try #require(punched.status == 0, "\(punched.stderr)")
            let history = try #require(try narrate.run("history", "--article", article, "--json").json() as? [[String: Any]])
            edits.append(try #require(history.first?["number"] as? Int))
        }
        #expect(try narrate.run("review", "done", "1", "--edit", "\(edits[0])", "--article", article, "--as", "ann").status == 0)
        #expect(try Self.state(narrate, article) == "pickups-requested")
        let last = try narrate.run("review", "done", "2", "--edit", "\(edits[1])", "--article", article, "--as", "ann")
        #expect(last.stdout == "Pickup 2 is done with edit \(edits[1]). All pickups are done: the article is Ready for review again.\n", "\(last.stderr)")
        #expect(try Self.state(narrate, article) == "ready-for-review")
        #expect(Self.feed(share) == nil)

        let approved = try narrate.run("review", "approve", "--article", article, "--as", "dora", "--json")
        try #require(approved.status == 0, "\(approved.stderr)")
        let object = try #require(try approved.json() as? [String: Any])
        #expect(object["article"] as? String == article && object["state"] as? String == "published")
        #expect(try Self.state(narrate, article) == "published")
        let feed = try #require(Self.feed(share))
        #expect(feed.contains("<title>Harbour reopens</title>"), "\(feed)")
        // The delivered file is an export of the chunks as approved: punches included.
        let delivered = try #require((object["delivered"] as? [String: Any])?["remotePath"] as? String)
        #expect(delivered.hasPrefix(share.path + "/Daily Post/") && FileManager.default.fileExists(atPath: delivered), "\(delivered)")

        let log = try narrate.run("audit", "--json")
        let actions = try #require(try log.json() as? [[String: Any]]).compactMap { $0["detail"] as? String }
        #expect(actions.contains { $0.contains("send-back ready-for-review → pickups-requested") }, "\(actions)")
        #expect(actions.contains { $0.contains("approve ready-for-review → approved") }, "\(actions)")
        #expect(actions.contains { $0.contains("publish approved → published") }, "\(actions)")
    }

    @Test("an article not on the desk has nothing to approve; nothing is exported or sent")
    func offDesk() throws {
        let (fixture, narrate, share) = try Self.service()
        let article = try fixture.newArticle("Not on the desk")
        #expect(try fixture.record(0.4).status == 0)
        let refused = try narrate.run("review", "approve", "--article", article, "--as", "dora")
        #expect(refused.status == 64, "\(refused.stderr)")
        #expect(refused.stderr == "The article \(article) (\"Not on the desk\") is not on the desk, so there is nothing to approve: deliver it with narrate submit.\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: share.path).isEmpty)
        #expect((try narrate.run("outbox", "--json").json() as? [Any])?.isEmpty == true)
    }
}
