import Foundation
import NarrationAudio
import NarrationCore
import NarrationTestSupport
import Testing

@Suite("Punch-and-roll, undo, history, move-chunk, trim, edit and delete-article through the binary")
struct EditCommandTests {
    /// The chunk list as `chunks --json` gives it, with each chunk's file bytes: what undo must restore.
    struct Snapshot: Equatable {
        let json: String
        let files: [Data]
    }

    static func snapshot(_ fixture: EndToEndFixture) throws -> Snapshot {
        let result = try fixture.narrate.run("chunks", "--json")
        let chunks = try #require(try result.json() as? [[String: Any]])
        let files = try chunks.map { try Data(contentsOf: URL(fileURLWithPath: try #require($0["file"] as? String))) }
        return Snapshot(json: result.stdout, files: files)
    }

    /// The largest step between neighbouring samples in `range` of `samples`, as a fraction of full scale.
    static func peakDerivative(_ samples: [Int32], _ range: Range<Int>) -> Double {
        range.dropFirst().map { abs(Double(samples[$0]) - Double(samples[$0 - 1])) / Double(Int32.max) }.max() ?? 0
    }

    @Test("a punch plays the pre-roll, then joins the chunk's first part to the take with an exact equal-power crossfade; undo brings the chunk back")
    func punchAndRoll() throws {
        let fixture = try EndToEndFixture()
        _ = try fixture.newArticle("Punch")
        try #require(try fixture.record(4).status == 0)
        let before = try Self.snapshot(fixture)
        let originalSamples = try SoundFileReader(path: try #require(try fixture.chunks()[0]["file"] as? String)).readAll()
        #expect(originalSamples == fixture.sourceSamples(frames: 4 * 44_100))

        // The take is other speech, so that the join is between two different signals.
        let takeSource = try Signals.spoken("After the slip, the narrator reads the sentence again in the same voice.")
        try fixture.devices.setMicrophoneInput(takeSource)
        let punchFrame = 154_350  // 3.5 s
        let result = try fixture.narrate.run(
            "record", "--punch", "1@3.5", "--pre-roll", "3", "--output-device", "vspk", "--device", "vmic", "--duration", "1.5")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Chunk 1 punched in at 00:00:03.500: 00:00:01.500 recorded over its end; now 00:00:05.000"), "\(result.stdout)")
        #expect(result.stderr.contains("Listen: 00:00:03.000 of the chunk up to 00:00:03.500 on vspk"), "\(result.stderr)")

        // The pre-roll: exactly the 3 s before the punch, as the speaker received them.
        let played = Signals.samples([UInt8](try Data(contentsOf: fixture.devices.playedFile)), bitsPerSample: 16)
        #expect(played.count == 132_300)
        #expect(played == Array(originalSamples[(punchFrame - 132_300)..<punchFrame]))

        // The join: first part untouched, 441 frames of crossfade, then the take; length t + take.
        let chunks = try fixture.chunks()
        #expect(chunks.count == 1)
        let joined = try SoundFileReader(path: try #require(chunks[0]["file"] as? String)).readAll()
        let take = Signals.samples(Array(takeSource.prefix(66_150 * 2)), bitsPerSample: 16)
        let overlap = 441
        #expect(joined.count == punchFrame + take.count)
        #expect(Array(joined[0..<punchFrame]) == Array(originalSamples[0..<punchFrame]))
        for index in 0..<overlap {
            let (fadeOut, fadeIn) = PunchJoin.gains(at: index, of: overlap)
            // Mixed, then rounded to the nearest 16-bit value (left-justified: a step of 65536).
            let expected = ((Double(originalSamples[punchFrame + index]) * fadeOut + Double(take[index]) * fadeIn) / 65_536).rounded() * 65_536
            #expect(Double(joined[punchFrame + index]) == expected, "frame \(punchFrame + index)")
        }
        #expect(Array(joined[(punchFrame + overlap)...]) == Array(take[overlap...]))

        // Click-free: the join's steepest step is no steeper than the speech on either side.
        let join = Self.peakDerivative(joined, (punchFrame - overlap)..<(punchFrame + 2 * overlap))
        let around = max(
            Self.peakDerivative(joined, (punchFrame - 22_050)..<(punchFrame - overlap)),
            Self.peakDerivative(joined, (punchFrame + 2 * overlap)..<(punchFrame + 22_050)))
        print("punch join: peak derivative \(join) at the join, \(around) in the 0.5 s around it")
        #expect(join <= around)

        // History and undo: the chunk comes back byte for byte.
        let history = try #require(try fixture.narrate.run("history", "--json").json() as? [[String: Any]])
        #expect(history.first?["kind"] as? String == "punch")
        #expect(history.first?["summary"] as? String == "Punched in chunk 1 at 00:00:03.500: 00:00:01.500 recorded over its end, 10 ms crossfade.")
        let undone = try fixture.narrate.run("undo")
        #expect(undone.status == 0 && undone.stdout.hasPrefix("Undone: Punched in chunk 1"), "\(undone.stderr)")
        #expect(try Self.snapshot(fixture) == before)
    }

    @Test("undo reverses each kind of edit, restoring the chunk list and the files byte for byte")
    func undoEveryKind() throws {
        let fixture = try EndToEndFixture()
        _ = try fixture.newArticle("Undo")
        try fixture.record(0.5)
        try fixture.record(0.7)
        try fixture.record(0.9)
        // A file recorded elsewhere, for import: 0.3 s of the speech at 48 kHz stereo.
        let imported = fixture.folder.file("elsewhere.wav").path
        let stereo = AudioFormat(sampleRate: 48_000, channels: 2, bitsPerSample: 16)
        let writer = try SoundFileWriter(creating: imported, format: stereo)
        try Signals.samples(try Signals.speech(stereo, seconds: 0.3), bitsPerSample: 16).withUnsafeBufferPointer { try writer.write($0) }
        try writer.close()
        let edits: [(name: String, arguments: [String], kind: String)] = [
            ("record", ["record", "--device", "vmic", "--duration", "0.3"], "record"),
            ("re-record", ["record", "--device", "vmic", "--duration", "0.4", "--replace", "2"], "rerecord"),
            ("insert", ["record", "--device", "vmic", "--duration", "0.2", "--insert", "1"], "insert"),
            ("delete", ["delete-chunk", "2"], "delete"),
            ("punch", ["record", "--device", "vmic", "--duration", "0.25", "--punch", "3@0.4", "--pre-roll", "0.2", "--output-device", "vspk"], "punch"),
            ("move", ["move-chunk", "3", "--to", "1"], "move"),
            ("trim", ["trim", "3", "--start", "0.1", "--end", "0.3"], "trim"),
            ("rename", ["edit", "--title", "Renamed", "--date", "2026-10-31"], "details"),
            ("import", ["import", imported, imported], "import"),
        ]
        for edit in edits {
            let before = try Self.snapshot(fixture)
            let title = try fixture.narrate.run("list", "--json").stdout
            let result = try fixture.narrate.run(edit.arguments)
            #expect(result.status == 0, "\(edit.name): \(result.stderr)")
            let after = try Self.snapshot(fixture)
            #expect(after != before || edit.kind == "details", "\(edit.name) changed nothing")
            let history = try #require(try fixture.narrate.run("history", "--json").json() as? [[String: Any]])
            #expect(history.first?["kind"] as? String == edit.kind, "\(edit.name)")
            let undone = try fixture.narrate.run("undo", "--json")
            #expect(undone.status == 0, "\(edit.name): \(undone.stderr)")
            #expect((try undone.json() as? [String: Any]).flatMap { ($0["undone"] as? [String: Any])?["kind"] as? String } == edit.kind)
            #expect(try Self.snapshot(fixture) == before, "undo of \(edit.name)")
            #expect(try fixture.narrate.run("list", "--json").stdout == title, "\(edit.name)")
            // Done again, so that the next edit starts from it: undo goes one edit further back each time.
            #expect(try fixture.narrate.run(edit.arguments).status == 0)
        }
        // Nine edits done again, then undone one by one back to the three first takes.
        let history = try #require(try fixture.narrate.run("history", "--json", "--limit", "100").json() as? [[String: Any]])
        let standing = history.filter { $0["undoneAt"] == nil || $0["undoneAt"] is NSNull }
        #expect(standing.count == 12)
        for _ in 0..<9 { #expect(try fixture.narrate.run("undo").status == 0) }
        #expect(try fixture.chunks().map { $0["frames"] as? Int } == [22_050, 30_870, 39_690])

        // delete-article, then undo: the article is back and current, its chunks untouched.
        let before = try Self.snapshot(fixture)
        let id = try #require((try fixture.narrate.run("list", "--json").json() as? [[String: Any]])?.first?["id"] as? String)
        let deleted = try fixture.narrate.run("delete-article", id, "--json")
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect((try deleted.json() as? [String: Any])?["chunks"] as? Int == 3)
        #expect(try fixture.narrate.run("list").stdout.hasPrefix("No articles yet"))
        let gone = try fixture.narrate.run("chunks", "--article", id)
        #expect(gone.status == 1)
        #expect(gone.stderr == "The article \(id) \"Undo\" is in the trash; narrate undo brings it back (narrate history lists what was deleted).\n")
        let back = try fixture.narrate.run("undo")
        #expect(back.stdout.hasPrefix("Undone: Deleted the article \"Undo\" (3 chunks)."), "\(back.stdout)\(back.stderr)")
        #expect(try Self.snapshot(fixture) == before)
    }

    @Test("delete-article refuses an article queued and not delivered, unless --force, which withdraws its export")
    func deleteQueuedArticle() throws {
        let fixture = try EndToEndFixture()
        let id = try fixture.newArticle("Queued")
        try fixture.record(0.5)
        let queued = try fixture.narrate.run("queue")
        try #require(queued.status == 0, "\(queued.stderr)")
        let job = try #require((try fixture.narrate.run("outbox", "list", "--json").json() as? [[String: Any]])?.first?["id"] as? String)
        let refused = try fixture.narrate.run("delete-article", id)
        #expect(refused.status == 1)
        #expect(refused.stderr == "The article \"Queued\" is queued (job \(job)) and not delivered yet: deliver it first (narrate outbox push), or delete it anyway with --force, which withdraws the export.\n")
        #expect(try fixture.narrate.run("list", "--json").stdout.contains(id))
        let forced = try fixture.narrate.run("delete-article", id, "--force", "--json")
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect((try forced.json() as? [String: Any])?["withdrawnExport"] as? String == "queued")
        #expect((try fixture.narrate.run("outbox", "list", "--json").json() as? [[String: Any]])?.isEmpty == true)
        // Undo brings the article back, open: its export stays withdrawn.
        #expect(try fixture.narrate.run("undo").status == 0)
        let list = try #require(try fixture.narrate.run("list", "--json").json() as? [[String: Any]])
        #expect(list.first?["id"] as? String == id && list.first?["state"] as? String == "open")
    }

    @Test("one article's history says why its edit numbers skip: the others' edits are numbered in between")
    func historyNumbering() throws {
        let fixture = try EndToEndFixture()
        let first = try fixture.newArticle("First")
        let second = try fixture.newArticle("Second")
        #expect(try fixture.record(0.2, "--article", first).status == 0)
        #expect(try fixture.record(0.2, "--article", second).status == 0)
        #expect(try fixture.record(0.2, "--article", first).status == 0)
        let listed = try fixture.narrate.run("history", "--article", first)
        let lines = listed.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(listed.stdout)")
        #expect(lines.first?.hasPrefix("3  ") == true && lines.dropFirst().first?.hasPrefix("1  ") == true, "\(listed.stdout)")
        #expect(lines.last == "Numbers missing above are edits of other articles: edits are numbered across the library (narrate history --all lists every one).")
        let every = try fixture.narrate.run("history", "--all")
        #expect(!every.stdout.contains("Numbers missing"), "\(every.stdout)")
        let second2 = try fixture.narrate.run("history", "--article", second)
        #expect(!second2.stdout.contains("Numbers missing"), "one edit skips nothing: \(second2.stdout)")
    }

    @Test("nothing to undo, and a punch outside the chunk, are refused in a sentence, changing nothing")
    func refusals() throws {
        let fixture = try EndToEndFixture()
        let nothing = try fixture.narrate.run("undo")
        #expect(nothing.status == 64)
        #expect(nothing.stderr == "There is nothing to undo: no edit of the article is left to reverse (narrate history lists them).\n")
        _ = try fixture.newArticle("Refusals")
        try fixture.record(1)
        let before = try fixture.recordings()
        let outside = try fixture.narrate.run("record", "--device", "vmic", "--duration", "0.5", "--punch", "1@2", "--output-device", "vspk")
        #expect(outside.status == 64)
        #expect(outside.stderr.contains("Chunk 1 is 00:00:01.000 long, so 00:00:02.000 is not in it: punch in at a time within it"), "\(outside.stderr)")
        let noChunk = try fixture.narrate.run("record", "--device", "vmic", "--duration", "0.5", "--punch", "4@0.5", "--output-device", "vspk")
        #expect(noChunk.status == 1 && noChunk.stderr.hasPrefix("There is no chunk 4: the article has 1 chunk (1)."), "\(noChunk.stderr)")
        let malformed = try fixture.narrate.run("record", "--punch", "one@2")
        #expect(malformed.status == 64 && malformed.stderr.contains("one@2"), "\(malformed.stderr)")
        let trimAll = try fixture.narrate.run("trim", "1", "--start", "0.8", "--end", "0.2")
        #expect(trimAll.status == 64)
        #expect(trimAll.stderr == "--start 00:00:00.800 is not before --end 00:00:00.200: that keeps nothing of chunk 1; to remove it, use narrate delete-chunk 1.\n")
        let badDate = try fixture.narrate.run("edit", "--date", "2026-02-29")
        #expect(badDate.status == 64)
        #expect(badDate.stderr == "--date 2026-02-29 is not a day: give it as YYYY-MM-DD, e.g. 2026-11-23.\n")
        let move = try fixture.narrate.run("move-chunk", "1", "--to", "3")
        #expect(move.status != 0 && move.stderr.contains("3"), "\(move.stderr)")
        #expect(try fixture.recordings() == before)
        #expect(try fixture.chunks().count == 1)
    }

    @Test("move-chunk, trim --auto and edit say what they did in --json; trim --auto keeps 0.25 s around the sound")
    func editsInJSON() throws {
        // One second of silence, the speech, one second of silence: a floor of digital silence.
        let speech = try Signals.spoken("A short sentence between two silences.")
        let silence = [UInt8](repeating: 0, count: 88_200)
        let fixture = try EndToEndFixture(source: silence + speech + silence)
        _ = try fixture.newArticle("Edges")
        let total = Double(silence.count * 2 + speech.count) / 88_200
        try #require(try fixture.record(total).status == 0)
        try fixture.devices.setMicrophoneInput(speech)
        try fixture.record(0.5)

        let moved = try #require(try fixture.narrate.run("move-chunk", "2", "--to", "1", "--json").json() as? [String: Any])
        #expect(moved["moved"] as? Int == 2 && moved["to"] as? Int == 1 && moved["chunks"] as? Int == 2)
        #expect(try fixture.chunks().map { $0["frames"] as? Int }.first == 22_050)

        let trimmed = try fixture.narrate.run("trim", "2", "--auto", "--json")
        #expect(trimmed.status == 0, "\(trimmed.stderr)")
        let trim = try #require(try trimmed.json() as? [String: Any])
        // espeak-ng's own lead-in and tail are quiet but not silent; the cut is at most the silence added.
        let cutStart = try #require(trim["cutAtStartSeconds"] as? Double)
        let cutEnd = try #require(trim["cutAtEndSeconds"] as? Double)
        #expect(cutStart >= 0.74 && cutStart <= 1.25, "\(cutStart)")
        #expect(cutEnd >= 0.74 && cutEnd <= 1.25, "\(cutEnd)")
        let frames = try #require(trim["frames"] as? Int)
        #expect(frames == Int((total * 44_100).rounded()) - Int((cutStart * 44_100).rounded()) - Int((cutEnd * 44_100).rounded()))
        let file = try #require(try fixture.chunks()[1]["file"] as? String)
        let kept = try SoundFileReader(path: file).readAll()
        // The first and last 0.25 s kept are below the threshold (the margin), the sound right after is not.
        let level = { (range: Range<Int>) in range.map { abs(Double(kept[$0]) / Double(Int32.max)) }.max() ?? 0 }
        #expect(level(0..<10_000) < 0.001 && level(kept.count - 10_000..<kept.count) < 0.001)
        #expect(level(11_025..<15_435) > 0.0003)

        let edited = try #require(try fixture.narrate.run("edit", "--narrator", "Ann Lee", "--date", "2026-11-01", "--json").json() as? [String: Any])
        #expect(edited["narrator"] as? String == "Ann Lee" && edited["date"] as? String == "2026-11-01")
        #expect(edited["changed"] as? [String] == ["narrator", "date"])
        // The listener date reaches the file's tags, not the export day.
        let output = fixture.folder.file("edges.wav").path
        #expect(try fixture.narrate.run("export", "-o", output).status == 0)
        let tags = try Signals.run("ffprobe", ["-v", "quiet", "-show_entries", "format_tags=date", "-of", "default=nw=1", output])
        #expect(tags.contains("2026-11-01"), "\(tags)")
    }
}
