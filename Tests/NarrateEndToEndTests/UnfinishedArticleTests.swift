import Foundation
import NarrationTestSupport
import Testing

/// Sending an article whose text is not all read, skipping paragraphs nobody should read, and
/// putting a take on the paragraph it really reads, with the built binary.
@Suite("unread paragraphs: refusal, --incomplete, skip, unskip, move a take")
struct UnfinishedArticleTests {
    /// A text of `count` paragraphs, "Paragraph one says …", attached to a new article.
    private func article(_ fixture: EndToEndFixture, _ title: String, paragraphs: [String]) throws -> String {
        let text = fixture.folder.file("\(title).txt")
        try (paragraphs.joined(separator: "\n\n") + "\n").write(to: text, atomically: true, encoding: .utf8)
        return try fixture.newArticle(title, "--text", text.path)
    }

    private static let ten = (1...10).map { "Paragraph number \($0) of the council story, with a few words to read." }

    /// `script --json`'s state of each paragraph; "flagged" (read, with the take check's hints
    /// about the test tone, which is no speech) counts as "read".
    private func states(_ fixture: EndToEndFixture, _ extra: String...) throws -> [String] {
        let list = try #require(try fixture.narrate.run(["script", "--json"] + extra).json() as? [[String: Any]])
        return list.map { $0["state"] as? String ?? "?" }.map { $0 == "flagged" ? "read" : $0 }
    }

    @Test("queue and submit refuse an article with paragraphs unread, naming them compactly; every recording is unchanged; --incomplete sends it")
    func refusesUnread() throws {
        let fixture = try EndToEndFixture()
        let id = try article(fixture, "Council", paragraphs: Self.ten)
        #expect(try fixture.record(0.3).status == 0)
        let share = fixture.folder.file("share")
        try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
        let before = try fixture.recordings()

        let queued = try fixture.narrate.run("queue")
        #expect(queued.status == 1)
        #expect(queued.stderr == "Paragraphs 2–10 of 10 are not read: read them, skip them (narrate script --skip 2-10), or send it as it is with --incomplete.\n")
        let submitted = try fixture.narrate.run("submit", "--to", share.path)
        #expect(submitted.status == 1)
        #expect(submitted.stderr == queued.stderr)
        #expect(try fixture.recordings() == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: share.path).isEmpty)
        #expect(try #require(try fixture.narrate.run("outbox", "list", "--all", "--json").json() as? [[String: Any]]).isEmpty)

        // Paragraphs 3 and 8 read as well: the rest in runs, "2, 4–7 and 9–10".
        #expect(try fixture.record(0.3, "--paragraph", "3").status == 0)
        #expect(try fixture.record(0.3, "--paragraph", "8").status == 0)
        let runs = try fixture.narrate.run("queue")
        #expect(runs.stderr == "Paragraphs 2, 4–7 and 9–10 of 10 are not read: read them, skip them (narrate script --skip 2,4-7,9-10), or send it as it is with --incomplete.\n")

        // Skipped as the refusal says, but 10: one left, said in the singular.
        let skipped = try fixture.narrate.run("script", "--skip", "2,4-7,9")
        #expect(skipped.status == 0, "\(skipped.stderr)")
        #expect(skipped.stdout == "Paragraphs 2, 4–7 and 9 of \"Council\" are skipped now.\nParagraph 10 of 10 is still to read.\n")
        let one = try fixture.narrate.run("queue")
        #expect(one.status == 1)
        #expect(one.stderr == "Paragraph 10 of 10 is not read: read it, skip it (narrate script --skip 10), or send it as it is with --incomplete.\n")
        #expect(try fixture.recordings().count == 3)

        // A recording is never refused: --incomplete queues it as it is, and submit sends it.
        let incomplete = try fixture.narrate.run("queue", "--incomplete")
        #expect(incomplete.status == 0, "\(incomplete.stderr)")
        #expect(incomplete.stdout.hasPrefix("Queued \"Council\" "))
        let stillRefused = try fixture.narrate.run("submit", "--article", id, "--to", share.path)
        #expect(stillRefused.status == 1)
        #expect(stillRefused.stderr == one.stderr)
        let sent = try fixture.narrate.run("submit", "--article", id, "--to", share.path, "--incomplete")
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(sent.stdout.hasPrefix("Delivered Council-\(id).flac to "))
    }

    @Test("record goes to the next paragraph neither read nor skipped; skip and unskip are edits that undo reverses; a read paragraph is not skipped")
    func skipAndUndo() throws {
        let fixture = try EndToEndFixture()
        _ = try article(fixture, "Harbour", paragraphs: ["Share on Facebook Share on X Email", "The harbour reopens today.", "Advertisement: buy a boat.", "Ferries run twice a day."])
        let skip = try fixture.narrate.run("script", "--skip", "1,3")
        #expect(skip.stdout == "Paragraphs 1 and 3 of \"Harbour\" are skipped now.\nParagraphs 2 and 4 of 4 are still to read.\n", "\(skip.stderr)")
        #expect(try states(fixture) == ["skipped", "notRead", "skipped", "notRead"])
        let listing = try fixture.narrate.run("script").stdout
        #expect(listing.hasPrefix("\"Harbour\" ("))
        #expect(listing.contains("4 paragraphs, 0 read, 2 skipped, "))
        #expect(listing.contains("    1  paragraph      7  skipped                        Share on Facebook"))

        #expect(try fixture.record(0.3).stdout.hasPrefix("Chunk 1 recorded (paragraph 2): "))
        #expect(try fixture.record(0.3).stdout.hasPrefix("Chunk 2 recorded (paragraph 4): "))
        let allDone = try fixture.record(0.3)
        #expect(allDone.status == 64)
        #expect(allDone.stderr.hasPrefix("Every paragraph of \"Harbour\" is read or skipped (2 read, 2 skipped)."))
        let reading = try fixture.record(0.3, "--paragraph", "3")
        #expect(reading.status == 64)
        #expect(reading.stderr == "Paragraph 3 of \"Harbour\" is skipped, so it is not read. Unskip it first with \"narrate script --unskip 3\".\n")
        let before = try fixture.recordings()

        // A read paragraph cannot be skipped; nothing changes.
        let read = try fixture.narrate.run("script", "--skip", "2-3")
        #expect(read.status == 64)
        #expect(read.stderr == "Paragraph 2 of \"Harbour\" is read (chunk 1): delete it or put it on another paragraph before skipping. Nothing was changed. Run \"narrate chunks\" to see them.\n")
        let missing = try fixture.narrate.run("script", "--skip", "5")
        #expect(missing.status == 64)
        #expect(missing.stderr == "There is no paragraph 5: the text has 4 paragraphs (1–4). Run \"narrate script\" to see them.\n")
        for bad in ["0", "3-1", "x", "2-", "99999999999"] {
            let result = try fixture.narrate.run("script", "--skip", bad)
            #expect(result.status == 64, "\(bad)")
            #expect(result.stderr.contains("--skip"), "\(bad): \(result.stderr)")
        }
        #expect(try states(fixture) == ["skipped", "read", "skipped", "read"])

        // Unskip 3, then undo: skipped again; undo once more: 1 and 3 read as before the skip.
        #expect(try fixture.narrate.run("script", "--unskip", "3").stdout == "Paragraph 3 of \"Harbour\" is unskipped now.\nParagraph 3 of 4 is still to read.\n")
        #expect(try fixture.narrate.run("script", "--unskip", "3").stdout == "Paragraph 3 was not skipped already.\nParagraph 3 of 4 is still to read.\n")
        let history = try #require(try fixture.narrate.run("history", "--json").json() as? [[String: Any]])
        #expect(history.first?["summary"] as? String == "Unskipped paragraph 3.")
        #expect(history.first?["kind"] as? String == "skip")
        let undone = try fixture.narrate.run("undo")
        #expect(undone.stdout.hasPrefix("Undone: Unskipped paragraph 3.\n"), "\(undone.stderr)")
        #expect(try states(fixture) == ["skipped", "read", "skipped", "read"])
        #expect(try fixture.narrate.run("queue", "--json").status == 0)  // every paragraph read or skipped
        #expect(try fixture.recordings() == before)
    }

    @Test("an export of an article with a skipped paragraph has no chapter, cue or sidecar paragraph for it")
    func chaptersLeaveSkippedOut() throws {
        let fixture = try EndToEndFixture()
        _ = try article(fixture, "Bridge", paragraphs: ["The bridge opens on Monday.", "Advertisement: 12 comments, share this.", "Cars wait until June."])
        #expect(try fixture.narrate.run("script", "--skip", "2").status == 0)
        #expect(try fixture.record(0.4).stdout.hasPrefix("Chunk 1 recorded (paragraph 1): "))
        #expect(try fixture.record(0.4).stdout.hasPrefix("Chunk 2 recorded (paragraph 3): "))
        let mp3 = fixture.folder.file("bridge.mp3")
        let export = try fixture.narrate.run("export", "-o", mp3.path, "--transcript", "vtt")
        #expect(export.status == 0, "\(export.stderr)")
        let probe = try Signals.run("ffprobe", ["-v", "error", "-show_chapters", "-of", "json", mp3.path])
        let chapters = try #require((try JSONSerialization.jsonObject(with: Data(probe.utf8)) as? [String: Any])?["chapters"] as? [[String: Any]])
        #expect(chapters.map { ($0["tags"] as? [String: Any])?["title"] as? String } == ["The bridge opens on Monday.", "Cars wait until June."])
        let vtt = try String(contentsOf: fixture.folder.file("bridge.vtt"), encoding: .utf8)
        #expect(!vtt.contains("Advertisement"))
        #expect(vtt.split(separator: "\n").filter { $0.contains(" --> ") }.count == 2)

        let queued = try fixture.narrate.run("queue")
        #expect(queued.status == 0, "\(queued.stderr)")
        let job = try #require(try fixture.narrate.run("outbox", "list", "--json").json() as? [[String: Any]]).last
        let path = try #require(job?["sidecar"] as? String)
        let sidecar = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        #expect((sidecar["paragraphs"] as? [[String: Any]])?.map { $0["text"] as? String } == ["The bridge opens on Monday.", "Cars wait until June."])
    }

    @Test("move-chunk --to-paragraph puts a take on another paragraph, among its chunks; undo puts it back; refusals change nothing")
    func moveTake() throws {
        let fixture = try EndToEndFixture()
        _ = try article(fixture, "Market", paragraphs: ["The market opens at six.", "Stalls sell fish and bread.", "Prices rose this year."])
        for _ in 1...3 { #expect(try fixture.record(0.3).status == 0) }
        let ids = try fixture.chunks().map { $0["id"] as? String ?? "?" }
        #expect(try fixture.chunks().map { $0["paragraph"] as? Int } == [1, 2, 3])
        let before = try fixture.recordings()

        let moved = try fixture.narrate.run("move-chunk", "1", "--to-paragraph", "3")
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(moved.stdout == "Chunk 1 of \"Market\" reads paragraph 3; it is chunk 3 now. \"narrate undo\" puts it back.\n")
        let after = try fixture.chunks()
        #expect(after.map { $0["id"] as? String ?? "?" } == [ids[1], ids[2], ids[0]])
        #expect(after.map { $0["paragraph"] as? Int } == [2, 3, 3])
        #expect(try states(fixture) == ["notRead", "read", "read"])
        #expect(try fixture.recordings() == before)

        let undone = try fixture.narrate.run("undo")
        #expect(undone.stdout.hasPrefix("Undone: Put chunk 1 on paragraph 3 (now chunk 3).\n"), "\(undone.stderr)")
        #expect(try fixture.chunks().map { $0["id"] as? String ?? "?" } == ids)
        #expect(try fixture.chunks().map { $0["paragraph"] as? Int } == [1, 2, 3])

        for (arguments, status, message) in [
            (["move-chunk", "1", "--to-paragraph", "9"], Int32(64), "There is no paragraph 9: the text has 3 paragraphs (1–3). Run \"narrate script\" to see them.\n"),
            (["move-chunk", "4", "--to-paragraph", "1"], 1, "There is no chunk 4: the article has 3 chunks (1–3). Run \"narrate chunks\" to see them.\n"),
            (["move-chunk", "2", "--to-paragraph", "2"], 64, "Chunk 2 reads paragraph 2 already; nothing was changed. Run \"narrate script\" to see them.\n"),
            (["move-chunk", "2"], 64, "Error: Say where chunk 2 goes: --to M (its new place) or --to-paragraph P (the paragraph it reads).\n"),
        ] {
            let result = try fixture.narrate.run(arguments)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix(message), "\(arguments): \(result.stderr)")
        }
        #expect(try fixture.chunks().map { $0["id"] as? String ?? "?" } == ids)
        #expect(try fixture.recordings() == before)
    }
}
