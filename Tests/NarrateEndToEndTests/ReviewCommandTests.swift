import Foundation
import NarrationCore
import NarrationTestSupport
import Testing

/// `narrate review` on the built binary: a proof-listener pins two notes and sends the article
/// back, the volunteer punches and marks the pickup done, the proof-listener hears what changed;
/// `--json` shapes exact; every refusal one line that leaves recordings, notes and the log alone.
@Suite("narrate review")
struct ReviewCommandTests {
    /// An article of two paragraphs recorded as two chunks (0.5 s and 1 s), with the accounts
    /// dora (proof-listener) and ann (volunteer).
    static func reviewedArticle() throws -> (EndToEndFixture, String) {
        let fixture = try EndToEndFixture()
        let article = try fixture.newArticle("Harbour")
        try fixture.attachText(
            [ScriptParagraph(kind: .paragraph, text: "The harbour stayed closed."), ScriptParagraph(kind: .paragraph, text: "The storm passed.")], to: article)
        #expect(try fixture.record(0.5).status == 0)
        #expect(try fixture.record(1).status == 0)
        #expect(try fixture.narrate.run("accounts", "add", "dora", "--role", "proof-listener").status == 0)
        #expect(try fixture.narrate.run("accounts", "add", "ann", "--role", "volunteer").status == 0)
        return (fixture, article)
    }

    static var channel: String { "command line (user \(NSUserName()))" }

    @Test("two notes, a send-back, a punch, the pickup done and what changed, as a terminal and a script see them")
    func reviewLife() throws {
        let (fixture, article) = try Self.reviewedArticle()
        let narrate = fixture.narrate
        #expect(try narrate.run("review", "--as", "dora").stdout == "No review notes on \"Harbour\" yet.\n")
        #expect(try narrate.run("review", "changes", "--as", "dora").stdout == "\"Harbour\" was never sent back: there is nothing to compare.\n")
        let never = try #require(try narrate.run("review", "changes", "--as", "dora", "--json").json() as? [String: Any])
        #expect(never["sendBack"] == nil && (never["changes"] as? [Any])?.isEmpty == true)

        let first = try narrate.run("review", "note", "--as", "dora", "--paragraph", "2", "--at", "0.75", "--said", "there", "--should-be", "their", "--json")
        #expect(first.status == 0, "\(first.stderr)")
        let note = try #require(try first.json() as? [String: Any])
        #expect(Set(note.keys) == ["id", "article", "paragraph", "seconds", "kind", "said", "shouldBe", "author", "createdAt", "state"])
        #expect(note["id"] as? Int == 1 && note["article"] as? String == article && note["paragraph"] as? Int == 2)
        #expect(note["seconds"] as? Double == 0.75 && note["kind"] as? String == "said-should-be" && note["author"] as? String == "dora")
        #expect(note["said"] as? String == "there" && note["shouldBe"] as? String == "their" && note["state"] as? String == "in-review")
        let second = try narrate.run("review", "note", "--as", "dora", "--paragraph", "1", "--at", "00:00:00.2", "--text", "a door slams")
        #expect(second.status == 0 && second.stdout == "Pinned note 2 to paragraph 1 at 00:00:00.200 of \"Harbour\".\n", "\(second.stderr)")

        let sent = try narrate.run("review", "send-back", "--as", "dora", "--json")
        #expect(sent.status == 0, "\(sent.stderr)")
        let sendBack = try #require(try sent.json() as? [String: Any])
        #expect(Set(sendBack.keys) == ["sendBack", "at", "by", "pickups"] && sendBack["sendBack"] as? Int == 1 && sendBack["by"] as? String == "dora")
        let pickups = try #require(sendBack["pickups"] as? [[String: Any]])
        #expect(pickups.map { $0["state"] as? String } == ["open", "open"])
        #expect(pickups.compactMap { $0["target"] as? NSDictionary } == [
            ["kind": "punch", "chunk": 2, "seconds": 0.25] as NSDictionary, ["kind": "punch", "chunk": 1, "seconds": 0.2] as NSDictionary,
        ])
        #expect(try narrate.run("review", "notes", "--as", "ann").stdout == """
            Review notes on "Harbour" (\(article)):
            1  paragraph 2 at 00:00:00.750  said "there", should be "their"  (dora; open: punch in at 0.25 s into chunk 2)
            2  paragraph 1 at 00:00:00.200  a door slams  (dora; open: punch in at 0.2 s into chunk 1)

            """)

        let punch = try fixture.record(0.5, "--punch", "2@0.25", "--pre-roll", "0", "--output-device", "vspk")
        #expect(punch.status == 0, "\(punch.stderr)")
        let history = try #require(try narrate.run("history", "--json").json() as? [[String: Any]])
        let edit = try #require(history.first?["number"] as? Int)
        #expect(history.first?["kind"] as? String == "punch")

        let done = try narrate.run("review", "done", "1", "--edit", "\(edit)", "--as", "ann", "--json")
        #expect(done.status == 0, "\(done.stderr)")
        let doneObject = try #require(try done.json() as? [String: Any])
        #expect(doneObject["allDone"] as? Bool == false)
        let doneNote = try #require(doneObject["note"] as? [String: Any])
        #expect(doneNote["state"] as? String == "done" && doneNote["doneEdit"] as? Int == edit && doneNote["doneBy"] as? String == "ann")
        let last = try narrate.run("review", "done", "2", "--edit", "\(edit)", "--as", "ann")
        #expect(last.stdout == "Pickup 2 is done with edit \(edit). All pickups are done: the article can go back to review.\n", "\(last.stderr)")

        let changes = try #require(try narrate.run("review", "changes", "--as", "dora", "--json").json() as? [String: Any])
        #expect(changes["sendBack"] as? Int == 1)
        #expect((changes["changes"] as? [NSDictionary]) == [["kind": "punched", "paragraph": 2, "chunk": 2, "start": 0.5, "end": 1.25] as NSDictionary])
        #expect(try narrate.run("review", "changes", "--as", "dora").stdout == """
            What changed in "Harbour" since it was sent back:
            paragraph 2: chunk 2 punched; hear 00:00:00.500 to 00:00:01.250

            """)

        let audit = try #require(try narrate.run("audit", "--json").json() as? [[String: Any]])
        let review = audit.filter { ($0["action"] as? String)?.hasPrefix("review-") == true }
        #expect(review.map { $0["action"] as? String } == ["review-note-pinned", "review-note-pinned", "review-sent-back", "review-pickup-done", "review-pickup-done"])
        #expect(review.map { $0["actor"] as? String } == ["dora", "dora", "dora", "ann", "ann"].map { "\($0) via \(Self.channel)" })
    }

    @Test("refusals: the wrong role, an unknown or disabled account, bad numbers and texts; one line each, nothing changed")
    func refusals() throws {
        let (fixture, _) = try Self.reviewedArticle()
        let narrate = fixture.narrate
        #expect(try narrate.run("review", "note", "--as", "dora", "--paragraph", "1", "--at", "0.1", "--text", "hum").status == 0)
        #expect(try narrate.run("accounts", "add", "eve", "--role", "proof-listener").status == 0)
        #expect(try narrate.run("accounts", "disable", "eve").status == 0)
        let recordings = try fixture.recordings()
        let notes = try narrate.run("review", "notes", "--as", "dora", "--json").stdout
        let audit = try narrate.run("audit", "--json").stdout
        let refused = "This account may not do that to this article: ask the service's coordinator.\n"
        let cases: [([String], Int32, String?)] = [
            (["note", "--as", "ann", "--paragraph", "1", "--at", "0.1", "--text", "mine"], 1, refused),
            (["note", "--as", "eve", "--paragraph", "1", "--at", "0.1", "--text", "disabled"], 1, refused),
            (["send-back", "--as", "ann"], 1, refused),
            (["done", "1", "--edit", "1", "--as", "dora"], 1, refused),
            (["note", "--as", "nobody", "--paragraph", "1", "--at", "0.1", "--text", "x"], 1,
             "No account is named \"nobody\". List the accounts with: narrate accounts list\n"),
            (["note", "--as", "Not A Name", "--paragraph", "1", "--at", "0.1", "--text", "x"], 64, nil),
            (["note", "--as", "dora", "--paragraph", "0", "--at", "0.1", "--text", "x"], 64,
             "Error: --paragraph 0 is not a paragraph: paragraphs are numbered from 1 (see \"narrate script\").\n"),
            (["note", "--as", "dora", "--paragraph", "3", "--at", "0.1", "--text", "x"], 64,
             "There is no paragraph 3: the article's paragraphs are 1 to 2.\n"),
            (["note", "--as", "dora", "--paragraph", "1", "--at", "-1", "--text", "x"], 64,
             "Error: --at -1 is not a time in the article: give seconds (12.4) or HH:MM:SS.mmm from its start.\n"),
            (["note", "--as", "dora", "--paragraph", "1", "--at", "1e300", "--text", "x"], 64,
             "Error: --at 1e300 is not a time in the article: give seconds (12.4) or HH:MM:SS.mmm from its start.\n"),
            (["note", "--as", "dora", "--paragraph", "1", "--at", "nan", "--text", "x"], 64,
             "Error: --at nan is not a time in the article: give seconds (12.4) or HH:MM:SS.mmm from its start.\n"),
            (["note", "--as", "dora", "--paragraph", "1", "--at", "1.6", "--text", "x"], 64,
             "A note's time must be a number of seconds from 0 to the article's length, 00:00:01.5 (1.5 s); 1.6 is not.\n"),
            (["note", "--as", "dora", "--paragraph", "1", "--at", "0.1", "--said", "x"], 64,
             "Error: A note is --said TEXT with --should-be TEXT, or --text TEXT: give one of the two.\n"),
            (["note", "--as", "dora", "--paragraph", "1", "--at", "0.1", "--text", "bell\u{7}"], 64,
             "--text holds a control or text-direction character: write it as plain text on one line.\n"),
            (["note", "--as", "dora", "--paragraph", "1", "--at", "0.1", "--text", String(repeating: "a", count: 1_001)], 64,
             "--text is 1001 characters long: keep it to 1000.\n"),
            (["done", "0", "--edit", "1", "--as", "ann"], 64,
             "Error: 0 is not a note: notes are numbered from 1 (see \"narrate review notes\").\n"),
            (["done", "1", "--edit", "1", "--as", "ann"], 64,
             "Note 1 is not an open pickup of this article: list the article's notes to see which are.\n"),
        ]
        for (arguments, status, stderr) in cases {
            let result = try narrate.run(["review"] + arguments)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            if let stderr { #expect(result.stderr == stderr, "\(arguments)") } else {
                #expect(result.stderr.hasSuffix("\n") && result.stderr.filter { $0 == "\n" }.count == 1, "\(arguments): \(result.stderr)")
            }
            #expect(result.stdout.isEmpty, "\(arguments)")
        }
        #expect(try fixture.recordings() == recordings)
        #expect(try narrate.run("review", "notes", "--as", "dora", "--json").stdout == notes)
        #expect(try narrate.run("audit", "--json").stdout == audit)
    }
}
