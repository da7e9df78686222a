import Foundation
import NarrationAudio
import NarrationCore
import NarrationTestSupport
import Testing

/// Books made by the built binary from real takes: an EPUB 3 checked by epubcheck and a DAISY
/// 2.02 book checked against the format's rules and opened in daisy-player, their clip times
/// against the chunks' boundaries; and the refusal without a text.
@Suite("narrate export --format epub|daisy")
struct BookExportTests {
    /// The text: a title heading, a paragraph, a section heading, a Markdown list (its items are
    /// paragraphs) with CJK and emoji, and a closing paragraph.
    static let markdown = """
        # Harbour reopens

        The city council met on Tuesday evening to discuss the new budget. Several residents spoke about the cost of repairing the old bridge over the river.

        ## What changes

        - Ferries run twice a day & stop at "Dock Road".
        - 日本語の段落 🎧

        Fishermen welcomed the news.
        """
    /// What the narrator says for each paragraph (espeak-ng reads the CJK item's meaning).
    static let spoken = [
        "Harbour reopens",
        "The city council met on Tuesday evening to discuss the new budget. Several residents spoke about the cost of repairing the old bridge over the river.",
        "What changes",
        "Ferries run twice a day and stop at Dock Road.", "A Japanese paragraph with headphones.", "Fishermen welcomed the news.",
    ]

    /// An article of six paragraphs read in six takes, each checked by the take check (which
    /// places paragraph 2's two sentences), then a seventh chunk (imported) that reads none.
    /// Returns the fixture and the chunks' boundaries in milliseconds (from their frames).
    static func recordedArticle() throws -> (EndToEndFixture, [Int]) {
        let fixture = try EndToEndFixture()
        let text = fixture.folder.file("harbour.md")
        try markdown.write(to: text, atomically: true, encoding: .utf8)
        _ = try fixture.newArticle("Harbour reopens", "--text", text.path)
        for words in spoken {
            let bytes = try Signals.spoken(words)
            try fixture.devices.setMicrophoneInput(bytes)
            let take = try fixture.record(Double(bytes.count / 2) / 44_100)
            #expect(take.status == 0, "\(take.stderr)")
        }
        let raw = fixture.folder.file("outro.raw")
        try Data(try Signals.spoken("Thank you for listening.")).write(to: raw)
        let wav = fixture.folder.file("outro.wav")
        try Signals.run("sox", ["-t", "raw", "-r", "44100", "-e", "signed", "-b", "16", "-c", "1", raw.path, wav.path])
        let imported = try fixture.narrate.run("import", wav.path)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try fixture.narrate.run("script", "--check").status == 0)
        let chunks = try fixture.chunks()
        #expect(chunks.map { $0["paragraph"] as? Int } == [1, 2, 3, 4, 5, 6, nil])
        let frames = chunks.map { $0["frames"] as? Int ?? -1 }
        let ends = frames.reduce(into: [0]) { $0.append($0.last! + $1) }
        return (fixture, ends.map { ($0 * 1_000 + 22_050) / 44_100 })
    }

    /// Runs a tool to the end, whatever its exit status: (status, stdout and stderr).
    static func run(_ tool: String, _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) throws -> (Int32, String) {
        let folder = TemporaryFolder("narrate-book-tool")
        let child = try ChildProcess(tool, arguments, environment: environment, stdoutFile: folder.file("out"), stderrFile: folder.file("err"))
        let status = child.wait()
        let out = (try? String(contentsOf: folder.file("out"), encoding: .utf8)) ?? ""
        let err = (try? String(contentsOf: folder.file("err"), encoding: .utf8)) ?? ""
        return (status, out + err)
    }

    /// Every match of `pattern`'s capture groups in `text`.
    static func matches(_ pattern: String, in text: String) -> [[String]] {
        let expression = try! NSRegularExpression(pattern: pattern)
        let range = NSRange(text.startIndex..., in: text)
        return expression.matches(in: text, range: range).map { match in
            (1..<match.numberOfRanges).map { index in
                Range(match.range(at: index), in: text).map { String(text[$0]) } ?? ""
            }
        }
    }

    /// "0:00:03.215" or "npt=3.215s" or "00:00:03.215" as milliseconds.
    static func milliseconds(_ value: String) -> Int {
        var text = value
        if text.hasPrefix("npt=") { text = String(text.dropFirst(4).dropLast()) }
        let parts = text.split(separator: ":").map(String.init)
        let seconds = parts.last.flatMap { Double($0) } ?? -1
        let minutes = parts.dropLast().reduce(0) { $0 * 60 + (Int($1) ?? 0) }
        return minutes * 60_000 + Int((seconds * 1_000).rounded())
    }

    @Test("EPUB: epubcheck finds no error or warning; mimetype first and stored; every par's clip on the chunks' boundaries and its text id in the document")
    func epub() throws {
        let (fixture, boundaries) = try Self.recordedArticle()
        let book = fixture.folder.file("harbour.epub")
        let made = try fixture.narrate.run("export", "-o", book.path, "--json")
        #expect(made.status == 0, "\(made.stderr)")
        let report = try #require(try made.json() as? [String: Any])
        #expect(report["format"] as? String == "epub" && report["archive"] as? Bool == true)
        #expect(report["paragraphs"] as? Int == 6 && report["parts"] as? Int == 1)

        // Debian's /usr/bin/epubcheck is a link to the jar, which only binfmt_misc would run.
        let (status, output) = try Self.run("java", ["-jar", "/usr/share/java/epubcheck.jar", book.path])
        #expect(status == 0, "\(output)")
        #expect(output.contains("No errors or warnings detected."), "\(output)")

        // OCF: the first local header is "mimetype", stored (method 0), no extra field.
        let bytes = [UInt8](try Data(contentsOf: book))
        #expect(bytes.prefix(4) == [0x50, 0x4B, 0x03, 0x04])
        #expect(bytes[8] == 0 && bytes[9] == 0 && bytes[28] == 0 && bytes[29] == 0)
        #expect(String(decoding: bytes[30..<38], as: UTF8.self) == "mimetype")
        #expect(String(decoding: bytes[38..<58], as: UTF8.self) == "application/epub+zip")

        let unpacked = fixture.folder.file("unpacked")
        try Signals.run("python3", ["-m", "zipfile", "-e", book.path, unpacked.path])
        let smil = try String(contentsOf: unpacked.appendingPathComponent("EPUB/text.smil"), encoding: .utf8)
        let document = try String(contentsOf: unpacked.appendingPathComponent("EPUB/text.xhtml"), encoding: .utf8)
        let opf = try String(contentsOf: unpacked.appendingPathComponent("EPUB/package.opf"), encoding: .utf8)
        let pars = Self.matches(#"<text src="text\.xhtml#([^"]+)"/><audio src="audio\.mp3" clipBegin="([^"]+)" clipEnd="([^"]+)"/>"#, in: smil)
        #expect(pars.count >= 7)
        let ids = Set(Self.matches(#" id="([^"]+)""#, in: document).map { $0[0] })
        for par in pars { #expect(ids.contains(par[0]), "\(par[0]) is not an id of text.xhtml") }
        // Pars follow one another without a gap; a paragraph's sentence pars (pNsK) joined make
        // its paragraph, and the paragraphs' edges are the chunks' boundaries to the millisecond.
        let begins = pars.map { Self.milliseconds($0[1]) }, ends = pars.map { Self.milliseconds($0[2]) }
        #expect(Array(begins.dropFirst()) == Array(ends.dropLast()))
        var paragraphs: [(String, Int, Int)] = []
        for (index, par) in pars.enumerated() {
            let target = par[0].replacingOccurrences(of: #"s[0-9]+$"#, with: "", options: .regularExpression)
            if let last = paragraphs.last, last.0 == target {
                paragraphs[paragraphs.count - 1].2 = ends[index]
            } else {
                paragraphs.append((target, begins[index], ends[index]))
            }
        }
        #expect(paragraphs.map(\.0) == ["p1", "p2", "p3", "p4", "p5", "p6", "part7"])
        // Paragraph 2's sentences, as the take check placed them: a par each, the boundary
        // between them inside the paragraph, each sentence a span of the text.
        #expect(pars.map { $0[0] }.filter { $0.hasPrefix("p2") } == ["p2s1", "p2s2"])
        if let first = pars.firstIndex(where: { $0[0] == "p2s1" }) {
            #expect(ends[first] > boundaries[1] + 1_000 && ends[first] < boundaries[2] - 1_000, "sentence boundary \(ends[first]) ms")
        }
        #expect(document.contains(#"<p id="p2"><span id="p2s1">The city council met on Tuesday evening to discuss the new budget.</span> <span id="p2s2">"#))
        #expect(paragraphs.map(\.1) == Array(boundaries.dropLast()))
        #expect(paragraphs.map(\.2) == Array(boundaries.dropFirst()))
        // The text as written: title, headings, list items as paragraphs, escaped, CJK and emoji kept.
        #expect(document.contains(#"<h1 class="title" id="p1">Harbour reopens</h1>"#))
        #expect(document.contains(#"<h2 id="p3">What changes</h2>"#))
        #expect(document.contains(#"Ferries run twice a day &amp; stop at &quot;Dock Road&quot;."#))
        #expect(document.contains(#"<p id="p5">日本語の段落 🎧</p>"#))
        #expect(document.contains(#"<p class="part" id="part7">Part 7</p>"#))
        #expect(opf.contains("<dc:language>en</dc:language>"))
        #expect(opf.contains("<meta property=\"media:duration\">\(BookClock.clockValue(milliseconds: boundaries.last!))</meta>"))
    }

    /// The DAISY 2.02 rules that apply to a one-SMIL full-text book, each a sentence when broken.
    static func daisyProblems(in folder: URL, boundaries: [Int]) throws -> [String] {
        var problems: [String] = []
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        guard files == ["audio.mp3", "content.html", "content.smil", "ncc.html"] else { return ["the folder holds \(files)"] }
        let ncc = try String(contentsOf: folder.appendingPathComponent("ncc.html"), encoding: .utf8)
        let smil = try String(contentsOf: folder.appendingPathComponent("content.smil"), encoding: .utf8)
        let content = try String(contentsOf: folder.appendingPathComponent("content.html"), encoding: .utf8)
        var meta: [String: String] = [:]
        for pair in matches(#"<meta name="([^"]+)" content="([^"]*)"/>"#, in: ncc) {
            if meta[pair[0]] != nil { problems.append("ncc meta \(pair[0]) appears twice") }
            meta[pair[0]] = pair[1]
        }
        let required = [
            "dc:title", "dc:creator", "dc:date", "dc:format", "dc:identifier", "dc:language", "dc:publisher", "ncc:charset", "ncc:generator",
            "ncc:narrator", "ncc:totalTime", "ncc:files", "ncc:depth", "ncc:tocItems", "ncc:multimediaType", "ncc:pageFront", "ncc:pageNormal",
            "ncc:pageSpecial", "ncc:maxPageNormal",
        ]
        for name in required where (meta[name] ?? "").isEmpty { problems.append("ncc lacks \(name)") }
        if meta["dc:format"] != "Daisy 2.02" { problems.append("dc:format is \(meta["dc:format"] ?? "missing")") }
        if meta["ncc:multimediaType"] != "audioFullText" { problems.append("ncc:multimediaType is \(meta["ncc:multimediaType"] ?? "missing")") }
        for name in ["ncc:pageFront", "ncc:pageNormal", "ncc:pageSpecial", "ncc:maxPageNormal"] where meta[name] != "0" {
            problems.append("\(name) is \(meta[name] ?? "missing"), not 0")
        }
        if meta["ncc:files"] != String(files.count) { problems.append("ncc:files says \(meta["ncc:files"] ?? "") for \(files.count) files") }
        // Navigation: h1…h6 only, the first h1 class="title", levels nested without a skip.
        let headings = matches(##"<h([1-6])( class="title")? id="([^"]+)"><a href="([^"#]+)#([^"]+)">"##, in: ncc)
        let levels = headings.map { Int($0[0]) ?? 0 }
        if headings.first?[1] != #" class="title""# || levels.first != 1 { problems.append("the ncc does not open with h1 class=\"title\"") }
        for (previous, level) in zip(levels, levels.dropFirst()) where level > previous + 1 { problems.append("ncc level \(previous) → \(level)") }
        if meta["ncc:tocItems"] != String(headings.count) { problems.append("ncc:tocItems \(meta["ncc:tocItems"] ?? "") for \(headings.count) items") }
        if meta["ncc:depth"] != String(levels.max() ?? 0) { problems.append("ncc:depth \(meta["ncc:depth"] ?? "") for levels up to \(levels.max() ?? 0)") }
        if matches(#"<(p|span|div)[ >]"#, in: ncc.components(separatedBy: "<body>").last ?? "").count > 0 { problems.append("the ncc body holds more than headings") }
        // Identifiers unique in each file; every link resolves.
        for (name, text) in [("ncc.html", ncc), ("content.smil", smil), ("content.html", content)] {
            let ids = matches(#" id="([^"]+)""#, in: text).map { $0[0] }
            if Set(ids).count != ids.count { problems.append("\(name) repeats an id") }
        }
        let smilIDs = Set(matches(#" id="([^"]+)""#, in: smil).map { $0[0] })
        for heading in headings where heading[3] != "content.smil" || !smilIDs.contains(heading[4]) {
            problems.append("ncc link \(heading[3])#\(heading[4]) resolves to no id of the SMIL")
        }
        let contentIDs = Set(matches(#" id="([^"]+)""#, in: content).map { $0[0] })
        let texts = matches(##"<text src="([^"#]+)#([^"]+)""##, in: smil)
        for text in texts where text[0] != "content.html" || !contentIDs.contains(text[1]) { problems.append("SMIL text \(text[0])#\(text[1]) resolves to nothing") }
        // Times: the ncc's total is the SMIL's; every clip inside the MP3's real duration and on the chunks' boundaries.
        let clips = matches(#"<audio src="audio\.mp3" clip-begin="([^"]+)" clip-end="([^"]+)""#, in: smil).map { $0.map(milliseconds) }
        let smilTotal = matches(#"<meta name="ncc:timeInThisSmil" content="([^"]+)"/>"#, in: smil).first.map { milliseconds($0[0]) }
        let seqTotal = matches(#"<seq dur="([0-9.]+)s">"#, in: smil).first.map { Int(((Double($0[0]) ?? -1) * 1_000).rounded()) }
        let total = meta["ncc:totalTime"].map(milliseconds)
        if total == nil || total != smilTotal || total != seqTotal || total != clips.last?[1] {
            problems.append("ncc:totalTime \(meta["ncc:totalTime"] ?? "") against the SMIL's \(String(describing: smilTotal)), seq \(String(describing: seqTotal))")
        }
        let probed = try Signals.run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", folder.appendingPathComponent("audio.mp3").path])
        let duration = Int(((Double(probed.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) * 1_000).rounded(.down))
        for clip in clips where clip[0] < 0 || clip[1] > duration || clip[0] >= clip[1] { problems.append("clip \(clip) outside the MP3's \(duration) ms") }
        if clips.map({ $0[0] }) != Array(boundaries.dropLast()) || clips.map({ $0[1] }) != Array(boundaries.dropFirst()) {
            problems.append("clips \(clips) are not the chunks' boundaries \(boundaries)")
        }
        return problems
    }

    @Test("DAISY 2.02: the format's rules hold, clips fall on the chunks' boundaries, daisy-player lists the title, headings and paragraphs; a rerun replaces the book, .zip makes one file")
    func daisy() throws {
        let (fixture, boundaries) = try Self.recordedArticle()
        let book = fixture.folder.file("harbour-daisy")
        let made = try fixture.narrate.run("export", "--format", "daisy", "-o", book.path, "--bitrate", "64", "--json")
        #expect(made.status == 0, "\(made.stderr)")
        let report = try #require(try made.json() as? [String: Any])
        #expect(report["format"] as? String == "daisy" && report["archive"] as? Bool == false && report["pars"] as? Int == 7)
        #expect(try Self.daisyProblems(in: book, boundaries: boundaries) == [])
        // The check itself finds a broken rule: a clip 1 ms off, a missing meta.
        let broken = fixture.folder.file("broken-daisy")
        try FileManager.default.copyItem(at: book, to: broken)
        let smilFile = broken.appendingPathComponent("content.smil")
        let end = BookClock.npt(milliseconds: boundaries[1])
        try String(contentsOf: smilFile, encoding: .utf8).replacingOccurrences(of: "clip-end=\"\(end)\"", with: "clip-end=\"\(BookClock.npt(milliseconds: boundaries[1] + 1))\"")
            .write(to: smilFile, atomically: true, encoding: .utf8)
        let nccFile = broken.appendingPathComponent("ncc.html")
        try String(contentsOf: nccFile, encoding: .utf8).replacingOccurrences(of: #"<meta name="ncc:files" content="4"/>"#, with: "")
            .write(to: nccFile, atomically: true, encoding: .utf8)
        let problems = try Self.daisyProblems(in: broken, boundaries: boundaries)
        #expect(problems.contains("ncc lacks ncc:files") && problems.contains { $0.hasPrefix("clips ") }, "\(problems)")
        try FileManager.default.removeItem(at: broken)

        let ncc = try String(contentsOf: book.appendingPathComponent("ncc.html"), encoding: .utf8)
        #expect(ncc.contains(#"<h1 class="title" id="nav-p1"><a href="content.smil#text-p1">Harbour reopens</a></h1>"#))
        #expect(ncc.contains(#"<h3 id="nav-p5"><a href="content.smil#text-p5">日本語の段落 🎧</a></h3>"#))
        let bitrate = try Signals.run("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries", "stream=bit_rate", "-of", "csv=p=0", book.appendingPathComponent("audio.mp3").path])
        #expect(bitrate.trimmingCharacters(in: .whitespacesAndNewlines) == "64000")

        // daisy-player on a PulseAudio null sink, in a terminal of 100 × 20: the book's title
        // and its items (the title, the section heading indented, the paragraphs).
        let pulse = try PulseServer()
        let home = fixture.folder.file("player-home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        var environment = pulse.environment
        environment["HOME"] = home.path
        // -i: no bookmark; -d: the null sink, through PulseAudio.
        let player = try TmuxSession(
            try Self.soundCardWrapper(in: fixture.folder) + " daisy-player '\(book.path)' -i -d vspk:pulseaudio", environment: environment,
            width: 100, height: 20)
        let screen = try player.screen(containing: "Part 7", within: 20)
        let lines = screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        // The header names the book and its levels; then the items, indented by level (3 spaces each).
        #expect(lines.first?.hasSuffix("Harbour reopens") == true, "\(screen)")
        #expect(lines.dropFirst().first?.contains("level: 1 of 3") == true, "\(screen)")
        #expect(lines.dropFirst().first?.contains("total length: \(Timecode.clock(Double(boundaries.last!) / 1_000))") == true, "\(screen)")
        let items = screen.split(separator: "\n").dropFirst(2).prefix(7).map { line in
            (indent: line.prefix { $0 == " " }.count, label: (line.trimmingCharacters(in: .whitespaces).components(separatedBy: " .").first ?? "").trimmingCharacters(in: .whitespaces))
        }
        #expect(items.map(\.label) == [
            "Harbour reopens", "The city council met on Tuesday…", "What changes", "Ferries run twice a day &…", "日本語の段落 🎧",
            "Fishermen welcomed the news.", "Part 7",
        ], "\(screen)")
        #expect(items.map(\.indent) == [2, 5, 5, 8, 8, 8, 8], "\(screen)")
        try player.send("q")

        // Again, into the same folder: the old book is replaced whole, nothing left beside it.
        #expect(try fixture.narrate.run("export", "--format", "daisy", "-o", book.path).status == 0)
        #expect(try Self.daisyProblems(in: book, boundaries: boundaries) == [])
        let zip = fixture.folder.file("harbour-daisy.zip")
        #expect(try fixture.narrate.run("export", "--format", "daisy", "-o", zip.path).status == 0)
        let listing = try Signals.run("python3", ["-m", "zipfile", "-l", zip.path])
        #expect(["ncc.html", "content.smil", "content.html", "audio.mp3"].allSatisfy { listing.contains($0) }, "\(listing)")
        let left = try FileManager.default.contentsOfDirectory(atPath: fixture.folder.url.path).filter { $0.contains("narrate-") }
        #expect(left == [])
    }

    /// daisy-player refuses to start without `/proc/asound/cards`, which a machine without a sound
    /// card (CI's) lacks: the command line that runs a command in a mount namespace of its own
    /// whose /proc is the real one's entries (symbolic links) plus an `asound/cards` naming one
    /// card, and an empty home folder (daisy-player writes its settings into the passwd entry's
    /// home, whatever $HOME says). Needs root, as CI and this machine run tests.
    static func soundCardWrapper(in folder: TemporaryFolder) throws -> String {
        let script = folder.file("with-sound-card.sh")
        try """
            #!/bin/sh
            set -e
            real="$1"; shift
            mkdir -p "$real"
            mount --bind /proc "$real"
            mount -t tmpfs narrate-proc /proc
            for entry in "$real"/*; do ln -s "$entry" /proc/; done
            mkdir /proc/asound
            printf ' 0 [Null           ]: Null - PulseAudio null sink\\n                      PulseAudio null sink\\n' > /proc/asound/cards
            # daisy-player keeps its settings and bookmarks in the passwd home, not $HOME: an empty one.
            mount -t tmpfs narrate-home "$(getent passwd "$(id -u)" | cut -d: -f6)"
            exec "$@"
            """.write(to: script, atomically: true, encoding: .utf8)
        return "unshare -m sh '\(script.path)' '\(folder.file("real-proc").path)'"
    }

    @Test("an article without a text: one sentence naming it and the fix, exit 1, nothing written")
    func refusesWithoutText() throws {
        let fixture = try EndToEndFixture()
        _ = try fixture.newArticle("Plain news")
        #expect(try fixture.record(0.5).status == 0)
        let before = try FileManager.default.contentsOfDirectory(atPath: fixture.folder.url.path).sorted()
        for (format, name, kind) in [("epub", "plain.epub", "EPUB"), ("daisy", "plain-daisy", "DAISY 2.02"), ("daisy", "plain.zip", "DAISY 2.02")] {
            let result = try fixture.narrate.run("export", "--format", format, "-o", fixture.folder.file(name).path)
            #expect(result.status == 1)
            #expect(result.stderr == "\"Plain news\" has no text, so there is no \(kind) book to make. Attach it with \"narrate script FILE\".\n")
            #expect(result.stdout == "")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.folder.url.path).sorted() == before)
    }
}
