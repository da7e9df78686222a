import Foundation
import NarrationAudio
import NarrationCore
import NarrationTestSupport
import Testing

/// `narrate studio` on a real terminal (tmux), with the emulated USB microphone (a 440 Hz sine at
/// -12 dBFS, paced in real time) and a paced speaker that keeps every byte it is sent.
@Suite("Studio on a terminal", .serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")))
struct StudioCommandTests {
    let fixture: EndToEndFixture

    init() throws {
        // No config.toml of the machine's: a folder of its own that nothing writes (a relative
        // name would make PulseAudio's clients create it in the working folder).
        fixture = try EndToEndFixture(environment: ["XDG_CONFIG_HOME": FileManager.default.temporaryDirectory.appendingPathComponent("narrate-no-config").path])
    }

    /// The studio in an 80×24 tmux terminal, with narrator and publication in config.toml.
    private func openStudio(_ arguments: String = "", terminal: String? = nil, environment extra: [String: String] = [:]) throws -> TmuxSession {
        let config = fixture.folder.url.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: config.appendingPathComponent("narrate"), withIntermediateDirectories: true)
        try "narrator = \"Ann Reader\"\npublication = \"Daily Post\"\n".write(
            to: config.appendingPathComponent("narrate/config.toml"), atomically: true, encoding: .utf8)
        var environment = fixture.narrate.environment.filter { ["NARRATE_HOME", "ALSA_CONFIG_PATH", "PATH", "HOME"].contains($0.key) }
        environment["XDG_CONFIG_HOME"] = config.path
        environment["LANG"] = "C.UTF-8"
        environment.merge(extra) { $1 }
        return try TmuxSession(
            "\(Narrate.executable.path) studio --device usbmic --output-device pacedspk \(arguments)",
            environment: environment, width: 80, height: 24, terminal: terminal)
    }

    /// Waits for `text`, failing the test with the screen if it does not come.
    @discardableResult
    private func expectScreen(_ terminal: TmuxSession, _ text: String, within seconds: Double = 10, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let screen = try terminal.screen(containing: text, within: seconds)
        #expect(screen.contains(text), "waited for \(text) on:\n\(screen)", sourceLocation: sourceLocation)
        return screen
    }

    /// r, a little over a second of audio, r; returns the screen while recording.
    @discardableResult
    private func recordTake(_ terminal: TmuxSession, key: String = "r", number: Int, verb: String = "recorded") throws -> String {
        try terminal.send(key)
        let recording = try expectScreen(terminal, "● REC 00:00:01")
        try terminal.send("r")
        try expectScreen(terminal, "Chunk \(number) \(verb): 00:00:0")
        return recording
    }

    private func samples(ofFile path: String) throws -> [Int32] {
        try SoundFileReader(path: path).readAll()
    }

    @Test("start an article, record three chunks, play from 2, delete 3, re-record 1, queue: list, samples and tags")
    func wholeSession() throws {
        let terminal = try openStudio()
        try expectScreen(terminal, "New article")
        try terminal.type("Hafen & Haus 港口 café")
        try terminal.send("Enter", "Enter", "Enter")
        try expectScreen(terminal, "Press r to record the first chunk.")

        try recordTake(terminal, number: 1)
        try recordTake(terminal, number: 2)
        let recordingScreen = try recordTake(terminal, number: 3)
        print("figure: the studio while recording chunk 3 (80×24):\n" + recordingScreen)
        #expect(recordingScreen.contains("   level ████████"), "the sine at -12 dBFS lights the meter")
        #expect(recordingScreen.contains("peak -12.0 dBFS"))
        #expect(recordingScreen.contains("recording chunk 3"))
        var screen = try expectScreen(terminal, "3 chunks")
        let listed = try fixture.chunks()
        #expect(listed.count == 3)

        // Play from chunk 2: the speaker gets chunks 2 and 3, every sample, nothing else.
        try terminal.send("Up", "Space")
        try expectScreen(terminal, "▶ chunk 2/3")
        screen = try expectScreen(terminal, "Played to the end.")
        let played = Signals.samples([UInt8](try Data(contentsOf: fixture.devices.playedFile)), bitsPerSample: 16)
        let expectedPlayed = try samples(ofFile: listed[1]["file"] as! String) + samples(ofFile: listed[2]["file"] as! String)
        #expect(played.count == expectedPlayed.count)
        #expect(played == expectedPlayed)

        try terminal.send("End", "x")
        try expectScreen(terminal, "Delete chunk 3 (00:00:0")
        try terminal.send("y")
        try expectScreen(terminal, "Chunk 3 deleted (")

        try terminal.send("Home")
        let rerecording = try recordTake(terminal, key: "e", number: 1, verb: "re-recorded")
        #expect(rerecording.contains("re-recording chunk 1"))
        screen = try expectScreen(terminal, "2 chunks")

        // The list on screen matches the catalog: two chunks, the lengths to the tenth of a second.
        let chunks = try fixture.chunks()
        #expect(chunks.count == 2)
        #expect(chunks[0]["id"] as? String != listed[0]["id"] as? String, "chunk 1 is the new take")
        #expect(chunks[1]["id"] as? String == listed[1]["id"] as? String)
        for (position, chunk) in chunks.enumerated() {
            let duration = try #require(chunk["duration"] as? Double)
            let row = "\(position == 0 ? "▸" : " ")    \(position + 1)  \(Timecode.tenths(duration))  -12.0 dB  "
            #expect(screen.contains(row), "no row \(row) on:\n\(screen)")
        }
        #expect(!screen.contains("    3  00:"))
        print("figure: the chunk list after the edits:\n" + screen)

        // q asks first, whatever the article (q reads as "quit"): any key but y says no.
        try terminal.send("q")
        screen = try expectScreen(terminal, " Queue \"Hafen & Haus 港口 café\" for sending?")
        #expect(screen.contains(" y yes, queue it   any other key no (the default)"))
        let before = try fixture.recordings()
        try terminal.send("Enter")
        try expectScreen(terminal, "Nothing was queued.")
        #expect(try #require(try fixture.narrate.run("outbox", "list", "--all", "--json").json() as? [[String: Any]]).isEmpty)
        #expect(try fixture.recordings() == before)
        try terminal.send("q")
        try expectScreen(terminal, "for sending?")
        try terminal.send("y")
        screen = try expectScreen(terminal, "Queued \"Hafen & Haus 港口 café\"")
        #expect(screen.contains(": meets the archive profile."))
        try terminal.send("Escape")
        screen = try expectScreen(terminal, "EXIT=0")
        #expect(screen.contains("Left the studio."))

        // The exported file: the two chunks' samples in order, and the article's tags.
        let outbox = try #require(try fixture.narrate.run("outbox", "list", "--json").json() as? [[String: Any]])
        let file = try #require(outbox.first?["file"] as? String)
        #expect(file.hasSuffix(".flac"))
        let exported = try samples(ofFile: file)
        #expect(exported == (try samples(ofFile: chunks[0]["file"] as! String) + samples(ofFile: chunks[1]["file"] as! String)))
        let tags = try Signals.run("ffprobe", ["-v", "error", "-show_entries", "format_tags=title,artist,album", "-of", "default=nw=1", file])
        // Vorbis comment names are case-blind; the FLAC writer writes them upper case (TITLE=).
        let lines = tags.split(separator: "\n").map { $0.replacingOccurrences(of: "TAG:", with: "") }
        let named = { (name: String, value: String) in lines.contains { $0.lowercased().hasPrefix(name + "=") && $0.hasSuffix("=" + value) } }
        #expect(named("title", "Hafen & Haus 港口 café"), "\(tags)")
        #expect(named("artist", "Ann Reader"), "\(tags)")
        #expect(named("album", "Daily Post"), "\(tags)")
        print("figure: exported \(exported.count) frames (\(Double(exported.count) / 44_100) s) in 2 chunks, tags:\n\(tags)")
    }

    @Test("a punch by keys (play, pause, c, read, r) joins the take at the paused position; u takes it back")
    func punchAndUndoByKeys() throws {
        let terminal = try openStudio()
        try expectScreen(terminal, "New article")
        try terminal.type("Punch by keys")
        try terminal.send("Enter", "Enter", "Enter")
        try expectScreen(terminal, "Press r to record the first chunk.")
        try terminal.send("r")
        try expectScreen(terminal, "● REC 00:00:02")
        try terminal.send("r")
        try expectScreen(terminal, "Chunk 1 recorded: 00:00:0")
        let original = try #require(try fixture.chunks().first)
        let originalSamples = try samples(ofFile: original["file"] as! String)

        try terminal.send("c")
        try expectScreen(terminal, "To correct a slip: play the chunk and pause where it went wrong")
        try terminal.send("Space")
        try expectScreen(terminal, "▶ chunk 1/1 00:00:01")
        try terminal.send("Space")
        let paused = try expectScreen(terminal, "⏸ Paused at chunk 1, 00:00:01.")
        #expect(paused.contains(": c fixes a slip from here") && !paused.contains("Playing"), "paused, the screen says so:\n\(paused)")
        print("figure: the studio paused, ready to punch:\n" + paused)
        try terminal.send("c")
        let preRoll = try expectScreen(terminal, "▶ Pre-roll: fixing chunk 1 from 00:00:01")
        #expect(!preRoll.contains("● REC"), "the pre-roll is not shown as a take:\n\(preRoll)")
        #expect(preRoll.contains(" Playing the "), "\(preRoll)")
        try expectScreen(terminal, "Recording from there.")
        try expectScreen(terminal, "● REC 00:00:01")
        try terminal.send("r")
        let punched = try expectScreen(terminal, "Chunk 1 punched in at 00:00:01")
        print("figure: after the punch:\n" + punched)

        // The chunk is its first part up to the paused position, then the take: p + take frames.
        let chunk = try #require(try fixture.chunks().first)
        #expect(chunk["id"] as? String != original["id"] as? String)
        let joined = try samples(ofFile: chunk["file"] as! String)
        let trash = URL(fileURLWithPath: original["file"] as! String).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("trash")
        let trashed = try FileManager.default.contentsOfDirectory(atPath: trash.path).filter { $0.hasSuffix(".wav") }
        #expect(trashed.count == 2, "the old chunk and the raw take: \(trashed)")
        let takeName = try #require(trashed.first { !$0.hasPrefix(original["id"] as? String ?? "?") })
        let take = try samples(ofFile: trash.appendingPathComponent(takeName).path)
        let punchFrame = joined.count - take.count
        #expect(punchFrame >= 44_100 && punchFrame < originalSamples.count, "punched at frame \(punchFrame)")
        #expect(Array(joined[0..<punchFrame]) == Array(originalSamples[0..<punchFrame]))
        #expect(Array(joined[(punchFrame + 441)...]) == Array(take[441...]))

        try terminal.send("u")
        try expectScreen(terminal, "Undone: Punched in chunk 1 at 00:00:01")
        let restored = try #require(try fixture.chunks().first)
        #expect(restored["id"] as? String == original["id"] as? String)
        #expect(try samples(ofFile: restored["file"] as! String) == originalSamples)

        // Volume and speed keys while playing: two steps down (−6 dB) and one faster (1.25×).
        try? FileManager.default.removeItem(at: fixture.devices.playedFile)
        try terminal.send("Space")
        try expectScreen(terminal, "▶ chunk 1/1")
        try terminal.send("-")
        try expectScreen(terminal, "Volume -3.0 dB.")
        try terminal.send("-")
        try expectScreen(terminal, "Volume -6.0 dB.")
        try terminal.send("]")
        let faster = try expectScreen(terminal, "Speed 1.25×, the pitch kept.")
        #expect(faster.contains("+ - volume  [ ] speed"), "the legend while playing:\n\(faster)")
        try expectScreen(terminal, "Played to the end.")
        let played = Signals.samples([UInt8](try Data(contentsOf: fixture.devices.playedFile)), bitsPerSample: 16)
        let rms = { (samples: ArraySlice<Int32>) in (samples.reduce(0.0) { $0 + pow(Double($1) / Double(Int32.max), 2) } / Double(samples.count)).squareRoot() }
        let tail = 11_025
        let drop = 20 * log10(rms(played.suffix(tail)) / rms(originalSamples.suffix(tail)))
        print("figure: studio playback at -6 dB and 1.25×: \(played.count) frames played of \(originalSamples.count), the tail \(drop) dB")
        #expect(abs(drop + 6) < 1, "the tail is \(drop) dB against the recording")
        #expect(played.count < originalSamples.count - 4_410, "1.25× for most of it makes it shorter")
        try terminal.send("u")
        try expectScreen(terminal, "Undone: Recorded chunk 1")
        #expect(try fixture.chunks().isEmpty)
        try terminal.send("Escape")
        try expectScreen(terminal, "EXIT=0")
    }

    @Test("review by keys: the paused position to a tenth, ← 1 s back; Esc during a fix's pre-roll cancels it, every file byte for byte; o lists the articles and Enter reopens one; at 40×14 the paragraph keeps three lines")
    func reviewFixAndArticleList() throws {
        _ = try fixture.newArticle("Ferry timetable")
        let id = try fixture.newArticle("Budget vote")
        try fixture.attachText([
            ScriptParagraph(kind: .heading, text: "Budget vote in the city council"),
            ScriptParagraph(kind: .paragraph, text: "The city council adopted next year's budget on Tuesday evening by 27 votes to 14, after a debate that lasted most of the day and ended with the mayor's thanks to the volunteers who counted the votes."),
            ScriptParagraph(kind: .paragraph, text: "The mayor said the vote was a relief for the city's schools."),
        ], to: id)
        #expect(try fixture.record(4).status == 0)
        let terminal = try openStudio()
        try expectScreen(terminal, " Paragraph 2 of 3 · r reads it")

        // The smallest screen: the paragraph's heading and three lines of its text.
        try terminal.resize(width: 40, height: 14)
        // The screen is drawn in one write, but tmux may be read between its lines: wait for the last.
        let small = try terminal.screen(containing: "votes to 14, after a debate that", within: 10)
        print("figure: the studio at 40×14 with a text:\n" + small)
        let lines = small.components(separatedBy: "\n")
        let heading = try #require(lines.firstIndex { $0.hasPrefix(" Paragraph 2 of 3") })
        #expect(lines[(heading + 1)...(heading + 3)].map { $0.trimmingCharacters(in: .whitespaces) }
            == ["The city council adopted next year's", "budget on Tuesday evening by 27", "votes to 14, after a debate that …"], "\(small)")
        try terminal.resize(width: 80, height: 24)

        // Paused: where in the chunk, to a tenth; ← goes back 1 s.
        let before = try fixture.recordings()
        try terminal.send("Space")
        try expectScreen(terminal, "▶ chunk 1/1 00:00:02.")
        try terminal.send("Space")
        let paused = try expectScreen(terminal, "⏸ Paused at chunk 1, 00:00:0")
        let position = { (screen: String) -> Double? in
            guard let range = screen.range(of: #"Paused at chunk 1, 00:00:\d\d\.\d"#, options: .regularExpression) else { return nil }
            return Double(screen[range].suffix(4))
        }
        let at = try #require(position(paused), "\(paused)")
        #expect(at >= 2 && at < 4, "\(at)")
        #expect(paused.contains(" Paused. ← → move 1 s, PgUp PgDn 5 s; c fixes a slip from there; space plays"), "\(paused)")
        try terminal.send("Left")
        let back = try expectScreen(terminal, String(format: "⏸ Paused at chunk 1, 00:00:%04.1f", at - 1))
        #expect(position(back).map { abs($0 - (at - 1)) < 0.15 } == true, "\(back)")

        // c plays the seconds before the point (about 1.x s); Esc cancels the fix: no take, nothing changed.
        try terminal.send("c")
        let preRoll = try expectScreen(terminal, "▶ Pre-roll: fixing chunk 1")
        #expect(preRoll.contains(" Paragraph 1 of 3 · fixing a slip in it") || preRoll.contains(" Heading 1 of 3 · fixing a slip in it"), "\(preRoll)")
        try terminal.send("Escape")
        try expectScreen(terminal, "The fix is cancelled: chunk 1 is as it was.")
        #expect(try fixture.recordings() == before, "every chunk file byte for byte")
        #expect(try fixture.chunks().count == 1)

        // o: the articles, with paragraphs read; Enter on another opens it.
        try terminal.send("o")
        let list = try expectScreen(terminal, " Your articles")
        print("figure: the article list (80×24):\n" + list)
        #expect(list.contains("▸ Budget vote (open now)"), "\(list)")
        #expect(list.range(of: #"\n    no publication · open · 1 of 3 paragraphs read · 00:00:04 · \d{4}-\d\d-\d\d \d\d:\d\d\n"#, options: .regularExpression) != nil, "\(list)")
        #expect(list.contains("  Ferry timetable"), "\(list)")
        try terminal.send("Down", "Enter")
        try expectScreen(terminal, "Opened “Ferry timetable”.")
        try terminal.send("Escape")
        try expectScreen(terminal, "EXIT=0")
        let current = try fixture.narrate.run(["list", "--json"])
        let articles = try #require(try current.json() as? [[String: Any]])
        #expect(articles.first { $0["current"] as? Bool == true }?["title"] as? String == "Ferry timetable")

        // --article opens any article, whichever is current.
        let again = try openStudio("--article \(id)")
        try expectScreen(again, " Paragraph 2 of 3 · r reads it")
        #expect(try again.screen().hasPrefix(" Budget vote"))
        try again.send("Escape")
        try expectScreen(again, "EXIT=0")
    }

    @Test("an article with a text: the reading pane shows paragraph 1, and after a take paragraph 2")
    func readingPane() throws {
        let id = try fixture.newArticle("Budget vote")
        try fixture.attachText([
            ScriptParagraph(kind: .heading, text: "Budget vote in the city council"),
            ScriptParagraph(kind: .paragraph, text: "The city council adopted next year's budget on Tuesday evening by 27 votes to 14."),
            ScriptParagraph(kind: .paragraph, text: "The mayor said the vote was a relief for the city's schools."),
        ], to: id)
        let terminal = try openStudio()
        var screen = try expectScreen(terminal, " Heading 1 of 3 · r reads it")
        print("figure: the reading pane on paragraph 1 (80×24):\n" + screen)
        #expect(screen.contains("\n   Budget vote in the city council"))
        #expect(screen.contains("\n   Next: The city council adopted next year's budget on Tuesday evening by 27…"))
        #expect(screen.contains(" p n paragraph  a read again "))

        try terminal.send("r")
        screen = try expectScreen(terminal, "● REC 00:00:01")
        #expect(screen.contains(" Heading 1 of 3 · reading now"))
        try terminal.send("r")
        screen = try expectScreen(terminal, "Chunk 1 recorded (paragraph 1): 00:00:0")
        screen = try expectScreen(terminal, " Paragraph 2 of 3 · r reads it")
        print("figure: the reading pane on paragraph 2 after a take (80×24):\n" + screen)
        #expect(screen.contains("\n   The city council adopted next year's budget on Tuesday evening by 27 votes\n   to 14.\n"), "wrapped to the width")
        #expect(screen.contains("\n   Next: The mayor said the vote was a relief for the city's schools."))
        #expect(screen.contains("▸    1  00:00:0"))
        try terminal.send("Escape")
        try expectScreen(terminal, "EXIT=0")
        let chunks = try fixture.chunks()
        #expect(chunks.count == 1 && chunks.first?["paragraph"] as? Int == 1)
    }

    @Test("k skips the paragraph shown and u takes it back; s asks, naming the unread paragraphs, Enter sends nothing, y sends")
    func skipAndAskBeforeSending() throws {
        let id = try fixture.newArticle("Budget vote")
        try fixture.attachText([
            ScriptParagraph(kind: .heading, text: "Budget vote in the city council"),
            ScriptParagraph(kind: .paragraph, text: "Share on Facebook Share on X Email"),
            ScriptParagraph(kind: .paragraph, text: "The city council adopted next year's budget on Tuesday evening by 27 votes to 14."),
            ScriptParagraph(kind: .paragraph, text: "The mayor said the vote was a relief for the city's schools."),
        ], to: id)
        let share = fixture.folder.url.appendingPathComponent("share")
        try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
        let terminal = try openStudio("--to \(share.path)")
        try expectScreen(terminal, " Heading 1 of 4 · r reads it")
        try recordTake(terminal, number: 1, verb: "recorded (paragraph 1)")
        try expectScreen(terminal, " Paragraph 2 of 4 · r reads it")
        // The take check's notice, when it flags the take (⚑), comes a moment after the take and
        // takes the status line: let it come before k, whose sentence this test reads there.
        _ = try terminal.screen(containing: "⚑", within: 20)

        try terminal.send("k")
        var screen = try expectScreen(terminal, "Paragraph 2 is skipped: it is not read")
        #expect(screen.contains(" Paragraph 3 of 4 · r reads it"), "the pane goes on to the next paragraph to read:\n\(screen)")
        try terminal.send("u")
        screen = try expectScreen(terminal, "Undone: Skipped paragraph 2.")
        #expect(screen.contains(" Paragraph 2 of 4 · r reads it"))
        try terminal.send("k")
        try expectScreen(terminal, " Paragraph 3 of 4 · r reads it")

        let before = try fixture.recordings()
        try terminal.send("s")
        screen = try expectScreen(terminal, " Send \"Budget vote\" now?")
        print("figure: the question before sending an unfinished article (80×24):\n" + screen)
        #expect(screen.contains("   Paragraphs 3–4 of 4 are not read: it goes out without them."))
        #expect(screen.contains(" y yes, send it   any other key no (the default)"))
        try terminal.send("Enter")
        try expectScreen(terminal, "Nothing was sent.")
        #expect(try FileManager.default.subpathsOfDirectory(atPath: share.path).isEmpty)
        #expect(try #require(try fixture.narrate.run("outbox", "list", "--all", "--json").json() as? [[String: Any]]).isEmpty)
        #expect(try fixture.recordings() == before)

        try terminal.send("s")
        try expectScreen(terminal, " Send \"Budget vote\" now?")
        try terminal.send("y")
        try expectScreen(terminal, "Submitted \"Budget vote\"", within: 60)
        #expect(try FileManager.default.subpathsOfDirectory(atPath: share.path).contains { $0.hasSuffix("Budget vote-\(id).flac") })
        try terminal.send("Escape")
        try expectScreen(terminal, "EXIT=0")
        let states = try #require(try fixture.narrate.run("script", "--json", "--article", id).json() as? [[String: Any]]).map { $0["state"] as? String }
        #expect(states == ["read", "skipped", "notRead", "notRead"] || states == ["flagged", "skipped", "notRead", "notRead"])
    }

    @Test("colour on a colour terminal, none with NO_COLOR; the layout follows a resize")
    func colourAndResize() throws {
        _ = try fixture.newArticle("Colours")
        let coloured = try openStudio()
        try coloured.send("r")
        try expectScreen(coloured, "● REC 00:00:01")
        let colours = try coloured.styledScreen()
        #expect(colours.contains("\u{1B}[31m"), "● REC is red: \(colours.debugDescription)")
        try coloured.send("r")
        try expectScreen(coloured, "Chunk 1 recorded")
        try coloured.resize(width: 100, height: 30)
        let wide = try coloured.screen(containing: String(repeating: "─", count: 100), within: 5)
        #expect(wide.split(separator: "\n").contains { $0 == Substring(String(repeating: "─", count: 100)) })
        try coloured.send("Escape")
        try expectScreen(coloured, "EXIT=0")

        let plain = try openStudio(environment: ["NO_COLOR": "1"])
        try plain.send("r")
        try expectScreen(plain, "● REC 00:00:01")
        let styled = try plain.styledScreen()
        #expect(!styled.contains("\u{1B}[31m") && !styled.contains("\u{1B}[32m"), "NO_COLOR: no colours, only bold and reverse")
        #expect(styled.contains("\u{1B}[1m"))
        try plain.send("r")
        try expectScreen(plain, "Chunk 2 recorded")
        try plain.send("Escape")
        try expectScreen(plain, "EXIT=0")
    }

    @Test("TERM=dumb: the screen is printed line by line, and keys still record and leave")
    func dumbTerminal() throws {
        _ = try fixture.newArticle("Plain text")
        let terminal = try openStudio(terminal: "dumb")
        try expectScreen(terminal, "■ ready")
        try terminal.send("r")
        try expectScreen(terminal, "● REC 00:00:01")
        try terminal.send("r")
        let screen = try expectScreen(terminal, "Chunk 1 recorded: 00:00:0")
        #expect(screen.contains(" Plain text"))
        try terminal.send("Escape")
        try expectScreen(terminal, "EXIT=0")
        #expect(try fixture.chunks().count == 1)
    }

    @Test("without a terminal it says so in one line and exits 64; a wrong --article is refused before the screen opens")
    func refusals() throws {
        let noTerminal = try fixture.narrate.run("studio")
        #expect(noTerminal.status == 64)
        #expect(noTerminal.stderr == "narrate studio needs a terminal (stdin and stdout); for scripts use record, play and queue.\n")
        let unknown = try fixture.narrate.run("studio", "--article", "zzzz")
        #expect(unknown.status != 0)
        #expect(unknown.stderr.split(separator: "\n").count == 1 && unknown.stderr.contains("zzzz"))
    }

    @Test("SIGTERM while recording (the terminal closed) keeps the take, as Esc does")
    func terminatedWhileRecording() throws {
        _ = try fixture.newArticle("Closed")
        let terminal = try openStudio()
        try terminal.send("r")
        try expectScreen(terminal, "● REC 00:00:01")
        kill(try terminal.commandPID(), SIGTERM)
        try expectScreen(terminal, "EXIT=0")
        let chunks = try fixture.chunks()
        #expect(chunks.count == 1)
        #expect((chunks.first?["duration"] as? Double ?? 0) >= 1)
    }
}
