import Foundation
import NarrationAudio
import NarrationCore
import NarrationTestSupport
import Testing

/// The article's text with the built binary: importing it, reading it paragraph by paragraph
/// from the microphone, and the chapters and transcript made from it.
@Suite("narrate script, record by paragraph, chapters and transcripts")
struct ScriptCommandTests {
    /// `script --json` as (kind, text) pairs.
    private func paragraphs(_ fixture: EndToEndFixture, _ extra: String...) throws -> [[String]] {
        let result = try fixture.narrate.run(["script", "--json"] + extra)
        let list = try #require(try result.json() as? [[String: Any]], "\(result.stderr)")
        return list.map { [$0["kind"] as? String ?? "?", $0["text"] as? String ?? "?"] }
    }

    @Test("plain text, Markdown and a saved HTML page come in as exactly their paragraphs")
    func importsEachFormat() throws {
        let fixture = try EndToEndFixture()
        let plain = fixture.folder.file("harbour.txt")
        try Data("\u{FEFF}The Harbour Reopens\r\n\r\nAfter three years of repairs, the old harbour opened on Monday.\r\nFishermen lined the quay.\r\n\r\n\r\n   Ferries will run twice a day from June.  \r\n".utf8).write(to: plain)
        _ = try fixture.newArticle("Harbour", "--text", plain.path)
        #expect(try paragraphs(fixture) == [
            ["paragraph", "The Harbour Reopens"],
            ["paragraph", "After three years of repairs, the old harbour opened on Monday. Fishermen lined the quay."],
            ["paragraph", "Ferries will run twice a day from June."],
        ])

        let markdown = fixture.folder.file("harbour.md")
        try """
            # The Harbour Reopens

            After *three years* of repairs, the [old harbour](https://example.org/harbour) opened on **Monday**.

            ## What changes

            - Ferries run twice a day.
            - Parking moves to `Dock Road`.

            ![A boat](boat.jpg)
            """.write(to: markdown, atomically: true, encoding: .utf8)
        let attached = try fixture.narrate.run("script", markdown.path)
        #expect(attached.status == 0, "\(attached.stderr)")
        #expect(attached.stdout.hasPrefix("Attached the text of \"Harbour\" "))
        #expect(attached.stdout.contains(": 5 paragraphs.\n"))
        #expect(try paragraphs(fixture) == [
            ["heading", "The Harbour Reopens"],
            ["paragraph", "After three years of repairs, the old harbour opened on Monday."],
            ["heading", "What changes"],
            ["paragraph", "Ferries run twice a day."],
            ["paragraph", "Parking moves to Dock Road."],
        ])

        let html = fixture.folder.file("harbour.html")
        try """
            <!DOCTYPE html><html><head><meta charset="utf-8"><title>Harbour | Daily Post</title>
            <style>p { color: red }</style><script>var teaser = "<p>not this</p>";</script></head>
            <body><header><a href="/">Daily Post</a><nav><ul><li><a href="/news">News</a></li><li>Sport</li></ul></nav></header>
            <main><article><h1>The Harbour Reopens</h1>
            <p>After three years of repairs, the <a href="#">old harbour</a> opened on <em>Monday</em>.</p>
            <figure><img src="boat.jpg" alt="A boat"><figcaption>The first boat in.</figcaption></figure>
            <script>track("read");</script>
            <h2>What changes</h2><ul><li>Ferries run twice a day.</li><li>Parking moves to Dock Road.</li></ul>
            <aside>Advertisement: buy a boat</aside>
            <p>Caf&eacute; owners are pleased.</p></article></main>
            <footer><p>&copy; Daily Post</p></footer></body></html>
            """.write(to: html, atomically: true, encoding: .utf8)
        #expect(try fixture.narrate.run("script", html.path).status == 0)
        #expect(try paragraphs(fixture) == [
            ["heading", "The Harbour Reopens"],
            ["paragraph", "After three years of repairs, the old harbour opened on Monday."],
            ["heading", "What changes"],
            ["paragraph", "Ferries run twice a day."],
            ["paragraph", "Parking moves to Dock Road."],
            ["paragraph", "Café owners are pleased."],
        ])
    }

    /// The text the recording test reads: a heading and three paragraphs.
    static let harbour = [
        "Harbour reopens",
        "The old harbour opened to boats again on Monday after three years of repairs.",
        "Ferries will run twice a day from June, the council said.",
        "Fishermen welcomed the news and the cafes on the quay were full.",
    ]

    /// Makes the microphone speak `text`; returns its length in frames.
    private func speak(_ text: String, _ fixture: EndToEndFixture, wordsPerMinute: Int = 170) throws -> Int {
        let bytes = try Signals.spoken(text, wordsPerMinute: wordsPerMinute)
        try fixture.devices.setMicrophoneInput(bytes)
        return bytes.count / 2
    }

    @Test("takes read the paragraphs in turn; a re-read replaces one; chapters and transcript cues fall on the chunks' boundaries to the millisecond")
    func recordsParagraphByParagraph() throws {
        let fixture = try EndToEndFixture()
        let text = fixture.folder.file("harbour.md")
        try ("# " + Self.harbour[0] + "\n\n" + Self.harbour[1...].joined(separator: "\n\n") + "\n").write(to: text, atomically: true, encoding: .utf8)
        let id = try fixture.newArticle("Harbour", "--text", text.path)
        var frames: [Int] = []
        for (number, paragraph) in Self.harbour.enumerated() {
            let length = try speak(paragraph, fixture)
            let result = try fixture.record(Double(length) / 44_100)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("Chunk \(number + 1) recorded (paragraph \(number + 1)): "))
            let kind = number == 0 ? "heading" : "paragraph"
            // The paragraph to read, wrapped and indented, then the first words of the next.
            let shown = result.stderr.components(separatedBy: "\n")
            #expect(shown.first == "Read \(kind) \(number + 1) of 4:", "\(result.stderr)")
            let wrapped = shown.dropFirst().prefix { $0.hasPrefix("  ") }
            #expect(wrapped.map { $0.dropFirst(2) }.joined(separator: " ") == paragraph)
            #expect(wrapped.allSatisfy { $0.count <= 78 })
            #expect(shown.dropFirst(1 + wrapped.count).first == (number == 3 ? "This is the last paragraph." : "Next: \(ScriptParagraph(kind: .paragraph, text: Self.harbour[number + 1]).firstWords(8))"))
            frames.append(length)
        }
        #expect(try fixture.chunks().map { $0["paragraph"] as? Int } == [1, 2, 3, 4])
        #expect(try fixture.chunks().map { $0["frames"] as? Int } == frames)

        // Paragraph 3 again, faster: its one chunk goes to the trash, the new take takes its place.
        let oldThird = try #require(try fixture.chunks()[2]["id"] as? String)
        frames[2] = try speak(Self.harbour[2], fixture, wordsPerMinute: 210)
        let reread = try fixture.record(Double(frames[2]) / 44_100, "--paragraph", "3")
        #expect(reread.stdout.hasPrefix("Chunk 3 re-recorded (paragraph 3): "), "\(reread.stderr)")
        #expect(FileManager.default.fileExists(atPath: fixture.narrate.home.path + "/articles/\(id)/trash/\(oldThird).wav"))
        // Another chunk for paragraph 4, and nothing left to read.
        let more = try speak("The quay stayed busy until late.", fixture)
        #expect(try fixture.record(Double(more) / 44_100, "--paragraph", "4", "--continue").stdout.hasPrefix("Chunk 5 recorded (paragraph 4): "))
        frames.append(more)
        let chunks = try fixture.chunks()
        #expect(chunks.map { $0["paragraph"] as? Int } == [1, 2, 3, 4, 4])
        #expect(chunks.map { $0["frames"] as? Int } == frames)
        let allRead = try fixture.record(1)
        #expect(allRead.status == 64)
        #expect(allRead.stderr == "Every paragraph of \"Harbour\" is read (4 of 4). Re-read one with \"narrate record --paragraph N\" or add to one with --continue.\n")

        // Paragraph boundaries in milliseconds, from the chunks' frames: 4 paragraphs over 5 chunks.
        let ends = frames.reduce(into: [Int]()) { $0.append(($0.last ?? 0) + $1) }
        let boundaries = [0, ends[0], ends[1], ends[2], ends[4]].map { ($0 * 1_000 + 22_050) / 44_100 }

        let mp3 = fixture.folder.file("harbour.mp3")
        let export = try fixture.narrate.run("export", "-o", mp3.path, "--transcript", "vtt")
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stdout.contains(", 5 chunks, 4 chapters, "))
        let probe = try Signals.run("ffprobe", ["-v", "error", "-show_chapters", "-of", "json", mp3.path])
        let chapters = try #require((try JSONSerialization.jsonObject(with: Data(probe.utf8)) as? [String: Any])?["chapters"] as? [[String: Any]])
        #expect(chapters.map { ($0["tags"] as? [String: Any])?["title"] as? String } == [
            "Harbour reopens", "The old harbour opened to boats…", "Ferries will run twice a day…", "Fishermen welcomed the news and the…",
        ])
        let starts = chapters.map { Int(((Double($0["start_time"] as? String ?? "") ?? -1) * 1_000).rounded()) }
        let finishes = chapters.map { Int(((Double($0["end_time"] as? String ?? "") ?? -1) * 1_000).rounded()) }
        #expect(starts == Array(boundaries.dropLast()))
        #expect(finishes == Array(boundaries.dropFirst()))

        // The WebVTT file as written, and as ffmpeg reads it.
        let vtt = try String(contentsOf: fixture.folder.file("harbour.vtt"), encoding: .utf8)
        let times = vtt.split(separator: "\n").filter { $0.contains(" --> ") }.map { line in
            line.components(separatedBy: " --> ").map(Self.milliseconds)
        }
        #expect(times.map { $0[0] } == Array(boundaries.dropLast()))
        #expect(times.map { $0[1] } == Array(boundaries.dropFirst()))
        #expect(vtt.hasPrefix("WEBVTT\n\n1\n00:00:00.000 --> "))
        #expect(vtt.contains("\n\(Self.harbour[1])\n"))
        let packets = try Signals.run("ffprobe", ["-v", "error", "-show_packets", "-show_data", "-of", "json", fixture.folder.file("harbour.vtt").path])
        let cues = try #require((try JSONSerialization.jsonObject(with: Data(packets.utf8)) as? [String: Any])?["packets"] as? [[String: Any]])
        #expect(cues.map { Int(((Double($0["pts_time"] as? String ?? "") ?? -1) * 1_000).rounded()) } == Array(boundaries.dropLast()))
        #expect(cues.map { Int(((Double($0["duration_time"] as? String ?? "") ?? -1) * 1_000).rounded()) }
            == zip(boundaries.dropFirst(), boundaries.dropLast()).map { $0 - $1 })

        // Queued, the sidecar carries each paragraph's text and times, and a transcript lies beside the audio.
        let queued = try fixture.narrate.run("queue", "--json")
        #expect(queued.status == 0, "\(queued.stderr)")
        let job = try #require(try fixture.narrate.run("outbox", "list", "--json").json() as? [[String: Any]]).last
        let sidecarPath = try #require(job?["sidecar"] as? String)
        let sidecar = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: sidecarPath))) as? [String: Any])
        let entries = try #require(sidecar["paragraphs"] as? [[String: Any]])
        #expect(entries.map { $0["text"] as? String } == Self.harbour)
        #expect(entries.map { Int((($0["start"] as? Double ?? -1) * 1_000).rounded()) } == Array(boundaries.dropLast()))
        let transcripts = try #require(sidecar["transcripts"] as? [String])
        #expect(transcripts.map { URL(fileURLWithPath: $0).pathExtension } == ["vtt", "srt"])
        let folder = URL(fileURLWithPath: sidecarPath).deletingLastPathComponent()
        #expect(try String(contentsOf: folder.appendingPathComponent(transcripts[0]), encoding: .utf8) == vtt)
        let srt = try String(contentsOf: folder.appendingPathComponent(transcripts[1]), encoding: .utf8)
        #expect(srt.hasPrefix("1\n00:00:00,000 --> ") && srt.split(separator: "\n").filter { $0.contains(" --> ") }.count == 4)
    }

    @Test("the take check flags a take of the wrong paragraph and one that skips a sentence, not a right one; hints can be dismissed")
    func takeCheck() throws {
        let fixture = try EndToEndFixture()
        let paragraphs = [
            "The city council met on Tuesday evening to discuss the new budget. Several residents spoke about the cost of repairing the old bridge over the river.",
            "Teachers at the primary school have planted a garden behind the library. The children water the vegetables every morning before their lessons begin.",
            "The weather service expects heavy rain across the region this weekend. Drivers are asked to take care on the coast road, which often floods near the harbour.",
        ]
        let text = fixture.folder.file("news.txt")
        try paragraphs.joined(separator: "\n\n").write(to: text, atomically: true, encoding: .utf8)
        _ = try fixture.newArticle("News", "--text", text.path)
        let firstSentenceOnly = String(paragraphs[2].prefix { $0 != "." }) + "."
        for spoken in [paragraphs[0], paragraphs[2], firstSentenceOnly] {  // right; the wrong paragraph; a sentence skipped
            let length = try speak(spoken, fixture)
            #expect(try fixture.record(Double(length) / 44_100).status == 0)
        }
        #expect(try fixture.narrate.run("script", "--check").status == 0)  // checks what the background check has not yet
        let listed = try #require(try fixture.narrate.run("script", "--json").json() as? [[String: Any]])
        #expect(listed.map { $0["state"] as? String } == ["read", "flagged", "flagged"])
        let hints = listed.map { ($0["hints"] as? [[String: Any]] ?? []) }
        #expect(hints[0].isEmpty)
        #expect(hints[1].map { $0["kind"] as? String } == ["wrongParagraph"])
        #expect(hints[1].first?["soundsLike"] as? Int == 3)
        #expect(hints[2].contains { $0["kind"] as? String == "unheard" || $0["kind"] as? String == "possiblySkipped" })
        let text2 = try fixture.narrate.run("script").stdout
        #expect(text2.contains("FLAGGED: 1 hint"))
        #expect(text2.contains("chunk 2: sounds like paragraph 3"))
        #expect(try fixture.narrate.run("script", "--dismiss", "2").stdout == "Dismissed the hints about paragraph 2 of \"News\".\n")
        let after = try #require(try fixture.narrate.run("script", "--json").json() as? [[String: Any]])
        #expect(after.map { $0["state"] as? String } == ["read", "read", "flagged"])

        // The right take's two sentences were placed: the transcript has a cue for each, the
        // boundary between them in the pause after the first (espeak-ng's length of it alone),
        // and the paragraph's own start and end kept exactly. The others stay one cue each.
        let vttFile = fixture.folder.file("news.vtt")
        #expect(try fixture.narrate.run("export", "-o", fixture.folder.file("news.wav").path, "--transcript", "vtt").status == 0)
        let vtt = try String(contentsOf: vttFile, encoding: .utf8)
        let cues = vtt.components(separatedBy: "\n\n").dropFirst().map { $0.split(separator: "\n").map(String.init) }
        let sentences = paragraphs[0].components(separatedBy: ". ").enumerated().map { $0.offset == 0 ? $0.element + "." : $0.element }
        #expect(cues.map { $0.last ?? "" } == sentences + [paragraphs[1], paragraphs[2]])
        let frames = try fixture.chunks().map { $0["frames"] as? Int ?? 0 }
        let firstAlone = try Signals.spoken(sentences[0]).count / 2
        let times = cues.map { $0[1].components(separatedBy: " --> ").map(Self.milliseconds) }
        #expect(times[0][0] == 0 && times[1][1] == (frames[0] * 1_000 + 22_050) / 44_100)
        #expect(abs(times[0][1] - firstAlone * 1_000 / 44_100) < 600, "sentence boundary at \(times[0][1]) ms; the first sentence alone lasts \(firstAlone * 1_000 / 44_100) ms")
        #expect(times[0][1] == times[1][0])
    }

    /// "00:00:03.215" as milliseconds.
    static func milliseconds(_ time: String) -> Int {
        let parts = time.split(whereSeparator: { $0 == ":" || $0 == "." || $0 == "," }).compactMap { Int($0) }
        guard parts.count == 4 else { return -1 }
        return ((parts[0] * 60 + parts[1]) * 60 + parts[2]) * 1_000 + parts[3]
    }

    @Test("a new text keeps the takes of unchanged paragraphs, in the new text's order, and keeps the others unbound")
    func replacingTheText() throws {
        let fixture = try EndToEndFixture()
        let first = fixture.folder.file("first.txt")
        try "Alpha paragraph.\n\nBeta paragraph.\n\nGamma paragraph.\n".write(to: first, atomically: true, encoding: .utf8)
        _ = try fixture.newArticle("Greek", "--text", first.path)
        for seconds in [0.1, 0.2, 0.3] { try fixture.record(seconds) }
        let second = fixture.folder.file("second.txt")
        try "Gamma paragraph.\n\nAlpha paragraph.\n\nBeta, rewritten.\n".write(to: second, atomically: true, encoding: .utf8)
        let attached = try fixture.narrate.run("script", second.path)
        #expect(attached.status == 0)
        #expect(attached.stdout.contains("2 chunks stay bound to 2 unchanged paragraphs.\n"))
        #expect(attached.stdout.contains("1 chunk read no paragraph of this text (3): they are kept;"))
        let chunks = try fixture.chunks()
        #expect(chunks.map { ($0["frames"] as? Int ?? 0) / 4_410 } == [3, 1, 2])
        #expect(chunks.map { $0["paragraph"] as? Int } == [1, 2, nil])
        let next = try fixture.record(0.4)
        #expect(next.stdout.hasPrefix("Chunk 4 recorded (paragraph 3): "), "\(next.stderr)")
    }

    @Test("a file that is not text, or has none, is refused with one sentence and starts no article")
    func badText() throws {
        let fixture = try EndToEndFixture()
        let binary = fixture.folder.file("scan.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + (0..<200).map { UInt8($0) }).write(to: binary)
        let refused = try fixture.narrate.run("new", "Scan", "--text", binary.path)
        #expect(refused.status == 1)
        #expect(refused.stderr == "\"scan.png\" is a PNG image, not a text: narrate reads plain text, Markdown or HTML in UTF-8, and Word, OpenDocument and PDF files named .docx, .odt or .pdf.\n")
        #expect(refused.stderr.split(separator: "\n").count == 1)
        #expect((try fixture.narrate.run("list", "--json").json() as? [Any])?.count == 0)

        let latin = fixture.folder.file("old.txt")
        try Data("Caf".utf8 + [0xE9] + " owners are pleased.".utf8).write(to: latin)
        _ = try fixture.newArticle("Old")
        let wrongEncoding = try fixture.narrate.run("script", latin.path)
        #expect(wrongEncoding.status == 1)
        #expect(wrongEncoding.stderr.contains("is not UTF-8"))
        let empty = fixture.folder.file("empty.md")
        try "\n   \n\n".write(to: empty, atomically: true, encoding: .utf8)
        let nothing = try fixture.narrate.run("script", empty.path)
        #expect(nothing.status == 1)
        #expect(nothing.stderr == "\"empty.md\" has no text to read.\n")
        #expect(try paragraphs(fixture).isEmpty)
        let noText = try fixture.record(0.1, "--paragraph", "2")
        #expect(noText.status == 64)
        #expect(noText.stderr == "\"Old\" has no text, so there is no paragraph to read. Attach it with \"narrate script FILE\".\n")
    }

    @Test("a text of 2000 paragraphs is read, listed and recorded from")
    func longText() throws {
        let fixture = try EndToEndFixture()
        let long = fixture.folder.file("long.txt")
        try (1...2_000).map { "Paragraph number \($0) of the long text." }.joined(separator: "\n\n").write(to: long, atomically: true, encoding: .utf8)
        _ = try fixture.newArticle("Long", "--text", long.path)
        let listed = try paragraphs(fixture)
        #expect(listed.count == 2_000)
        #expect(listed.last == ["paragraph", "Paragraph number 2000 of the long text."])
        #expect(try fixture.record(0.1, "--paragraph", "1999").stdout.hasPrefix("Chunk 1 recorded (paragraph 1999): "))
        #expect(try fixture.record(0.1).stdout.hasPrefix("Chunk 2 recorded (paragraph 2000): "))
        let tooFar = try fixture.record(0.1, "--paragraph", "2001")
        #expect(tooFar.stderr == "There is no paragraph 2001: the text has 2000 paragraphs (1–2000). Run \"narrate script\" to see them.\n")
    }
}
