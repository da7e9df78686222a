import Foundation
import NarrationCore
import NarrationTerminal
import Studio
import Testing

/// The studio screen drawn from given states, compared with reviewed snapshots in `Snapshots/`.
/// After a deliberate change of the layout, run with NARRATE_RECORD_SNAPSHOTS=1 to write the new
/// screens, read them, and commit them with the change.
@Suite("Studio screen")
struct StudioRendererTests {
    static let snapshots = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")

    private func expectSnapshot(_ name: String, _ state: StudioState, width: Int = 80, height: Int = 24, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let frame = StudioRenderer.render(state, width: width, height: height)
        let file = Self.snapshots.appendingPathComponent("\(name).txt")
        if ProcessInfo.processInfo.environment["NARRATE_RECORD_SNAPSHOTS"] == "1" {
            try (frame.text + "\n").write(to: file, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(frame.text + "\n" == expected, "screen \(name) differs from Snapshots/\(name).txt", sourceLocation: sourceLocation)
        #expect(frame.lines.count == height, sourceLocation: sourceLocation)
        for line in frame.lines {
            #expect(line.map(\.text).joined().terminalColumns == width, "a line is not \(width) columns wide", sourceLocation: sourceLocation)
        }
    }

    // MARK: States

    static func levels(_ shape: [Double]) -> [Decibels] { shape.map { Decibels($0) } }

    static var article: StudioState {
        var state = StudioState(header: .init(
            title: "Budget vote in the city council", publication: "Daily Post", narrator: "Ann Reader", state: .open,
            duration: 126.4, chunkCount: 3))
        state.chunks = [
            .init(index: ChunkIndex(1), duration: 41.2, peak: Decibels(-6), levels: levels([-60, -40, -20, -10, -6, -12, -30, -50])),
            .init(index: ChunkIndex(2), duration: 38.0, peak: Decibels(-7.1), levels: levels([-8, -9, -10, -20, -40, -9, -7.1]), recovered: true),
            .init(index: ChunkIndex(3), duration: 47.2, peak: Decibels(-0.1), levels: levels([-3, -0.1, -6])),
        ]
        state.selection = 2
        return state
    }

    static var recording: StudioState {
        var state = article
        state.activity = .recording(seconds: 83.4, placement: .append)
        var meter = MeterDisplay()
        meter.update(average: Decibels(-18), peak: Decibels(-9), at: 0)
        state.meter = meter
        state.peak = Decibels(-9)
        state.notice = .init("Recording. Press r to stop; the take is kept whatever happens.")
        return state
    }

    @Test("recording: red status with the running time, the meter with its held peak, the list")
    func recordingScreen() throws {
        try expectSnapshot("recording", Self.recording)
        let frame = StudioRenderer.render(Self.recording, width: 80, height: 24)
        #expect(frame.lines[3].first == StyledText(" ● REC 00:01:23", .recording))
        let meterStyles = frame.lines[4].filter { $0.text == "█" }.map(\.style)
        // -18 dBFS average lights 7 of 20 segments (MeterTable), all in the green band.
        #expect(meterStyles == Array(repeating: .meterGreen, count: 7))
        #expect(frame.lines[4].contains(StyledText("|", .meterYellow)))
        #expect(frame.lines[9].allSatisfy { $0.style == .selected }, "the selected row is highlighted across the screen")
    }

    @Test("a quiet input shows its warning under the meter")
    func quietWarning() throws {
        var state = Self.recording
        state.activity = .recording(seconds: 12, placement: .replace(ChunkIndex(2)))
        state.warning = "The input has stayed below -50.0 dBFS for 3 s: is the microphone on?"
        try expectSnapshot("recording-quiet", state)
    }

    static var deviceProblem: StudioState {
        var state = article
        state.notice = .init(
            "Cannot open audio device \"usbmic\": no such device. Run \"narrate devices\" to list devices, then start the studio with --device.",
            isProblem: true)
        return state
    }

    @Test("a problem longer than a line wraps above the keys, so its fix is never cut; the list gives up the rows")
    func longProblem() throws {
        try expectSnapshot("device-problem", Self.deviceProblem)
        let frame = StudioRenderer.render(Self.deviceProblem, width: 80, height: 24)
        let notice = frame.lines[20...21].map { $0.map(\.text).joined().trimmingCharacters(in: .whitespaces) }
        #expect(notice == [
            "Cannot open audio device \"usbmic\": no such device. Run \"narrate devices\" to",
            "list devices, then start the studio with --device.",
        ])
        #expect(frame.lines[20...21].allSatisfy { $0.first?.style == .problem })
        // At 40×14 it takes three lines, the last cut with an ellipsis, and the selected row stays.
        try expectSnapshot("device-problem-40x14", Self.deviceProblem, width: 40, height: 14)
        let small = StudioRenderer.render(Self.deviceProblem, width: 40, height: 14)
        #expect(small.lines.count == 14)
        #expect(small.lines[10...12].allSatisfy { $0.first?.style == .problem })
        #expect(small.lines[12].map(\.text).joined().hasSuffix("…"))
        #expect(small.lines.contains { $0.map(\.text).joined().hasPrefix("▸    3  00:00:47.2") })
    }

    @Test("playing and paused: chunk n of m, position and total")
    func playingScreens() throws {
        var state = Self.article
        state.activity = .playing(chunk: ChunkIndex(3), of: 12, position: 41.9, total: 300, paused: false)
        var meter = MeterDisplay()
        meter.update(average: Decibels(-3), peak: Decibels(-0.5), at: 0)
        state.meter = meter
        state.peak = Decibels(-0.5)
        try expectSnapshot("playing", state)
        state.activity = .playing(chunk: ChunkIndex(3), of: 12, position: 41.9, total: 300, paused: true, inChunk: 12.34)
        #expect(StudioRenderer.render(state, width: 80, height: 24).lines[3].map(\.text).joined()
            == " ⏸ Paused at chunk 3, 00:00:12.3: c fixes a slip from here".padding(toLength: 80, withPad: " ", startingAt: 0))
    }

    @Test("300 chunks: the list scrolls to keep the selection in view and says which rows it shows")
    func longList() throws {
        var state = Self.article
        state.chunks = (1...300).map { .init(index: ChunkIndex($0), duration: Double($0 % 50) + 0.5, peak: Decibels(-Double($0 % 20))) }
        state.header?.chunkCount = 300
        state.selection = 149
        try expectSnapshot("long-list", state)
        state.selection = 299
        let text = StudioRenderer.render(state, width: 80, height: 24).text
        #expect(text.contains("▸  300  "))
        #expect(text.contains("288–300 of 300"))
    }

    @Test("Chinese, accented and emoji titles line up: every line is exactly the screen's width")
    func unicode() throws {
        var state = Self.recording
        state.header?.title = "港口城市的预算投票 · Hafen & Haus, café, naïve 🎙️ — ein sehr langer Titel, der abgeschnitten werden muss"
        state.header?.publication = "Täglich Post 日报"
        try expectSnapshot("unicode", state)
    }

    @Test("the new-article form, with publication and narrator filled in")
    func newArticleForm() throws {
        var form = NewArticleForm(publication: "Daily Post", narrator: "Ann Reader")
        for character in "Hafen 港口" { form.edit(.character(character)) }
        try expectSnapshot("new-article", StudioState(panel: .newArticle(form)))
    }

    @Test("x asks before deleting, on the notice line")
    func confirmDelete() throws {
        var state = Self.article
        state.panel = .confirmDelete(ChunkIndex(3))
        try expectSnapshot("confirm-delete", state)
    }

    @Test("exporting shows a progress bar in the status line")
    func exporting() throws {
        var state = Self.article
        state.activity = .working(stage: "Exporting", fraction: 0.62)
        try expectSnapshot("exporting", state)
    }

    @Test("after queue: where the file went and its loudness, then any key for the next article")
    func result() throws {
        var state = StudioState(panel: .result(heading: "Queued \"Budget vote\"", lines: [
            "00:02:06.400, 3 chapters, archive profile (flac), 5480231 bytes",
            "In the outbox: /home/ann/.local/share/narrate/outbox/Budget vote-k3f9x2ab.flac",
            "Loudness -18.2 LUFS, true peak -1.9 dBTP: meets the archive profile.",
        ], remedy: nil))
        state.notice = nil
        try expectSnapshot("result", state)
    }

    @Test("? shows every key")
    func help() throws {
        var state = Self.article
        state.panel = .help
        try expectSnapshot("help", state)
    }

    @Test("a resized terminal: the layout fills 120×30, and below 40×14 it asks for more room")
    func resize() throws {
        try expectSnapshot("recording-120x30", Self.recording, width: 120, height: 30)
        let small = StudioRenderer.render(Self.recording, width: 30, height: 10)
        #expect(small.text.replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
            == "Make the terminal at least 40×14 (it is 30×10).")
        #expect(small.lines.allSatisfy { $0.map(\.text).joined().terminalColumns == 30 })
    }

    // MARK: The reading pane

    /// The article's text: a heading, then eight paragraphs, the third long.
    static let text: [(ScriptParagraph.Kind, String)] = [
        (.heading, "Budget vote in the city council"),
        (.paragraph, "The city council adopted next year's budget on Tuesday evening by 27 votes to 14."),
        (.paragraph, """
            After a debate that lasted most of the day, the council agreed to spend more on schools and on the repair of the \
            old harbour bridge, which has been closed to lorries since the spring. The opposition said the plan leaves too \
            little for public transport and asked for bus fares to be frozen; the mayor promised to come back to the question \
            in the autumn, once the first figures of the year are known, and thanked the volunteers who counted the votes by \
            hand when the electronic system failed for the second time this year.
            """),
        (.paragraph, "The mayor said the vote was a relief for the city's schools, which had waited three years for new roofs."),
        (.heading, "What changes for residents"),
        (.paragraph, "Parking in the old town will cost a euro more an hour from March."),
        (.paragraph, "The libraries keep their opening hours, and the one in the harbour district opens on Sundays."),
        (.paragraph, "Water and waste charges stay as they are for a second year."),
        (.paragraph, "The budget comes into force on the first of January."),
    ]

    /// The pane showing paragraph `number` of `text`.
    static func reading(_ number: Int, isRead: Bool = false, standing: StudioState.Reading.Standing = .next) -> StudioState.Reading {
        let (kind, words) = text[number - 1]
        return .init(
            number: number, count: text.count, kind: kind, text: words, isRead: isRead, standing: standing,
            next: number < text.count ? text[number].1 : nil)
    }

    static var newWithText: StudioState {
        var state = StudioState(header: .init(
            title: "Budget vote in the city council", publication: "Daily Post", narrator: "Ann Reader", state: .open, duration: 0, chunkCount: 0))
        state.reading = reading(1)
        return state
    }

    static var recordingParagraph3: StudioState {
        var state = recording
        state.header?.chunkCount = 2
        state.chunks.removeLast()
        state.selection = 1
        state.activity = .recording(seconds: 83.4, placement: .append)
        state.reading = reading(3, standing: .reading)
        return state
    }

    @Test("ready on a text: heading 1 of 9, what r does with it, then the next paragraph dimmed; no chunks yet")
    func readingFirst() throws {
        try expectSnapshot("reading-first", Self.newWithText)
        let frame = StudioRenderer.render(Self.newWithText, width: 80, height: 24)
        #expect(frame.lines[6].first == StyledText(" Heading 1 of 9", .heading))
        #expect(frame.lines[7].map(\.text).joined().hasPrefix("   Budget vote in the city council"))
        #expect(frame.lines[8].first?.style == .dim)
        #expect(frame.lines[8].map(\.text).joined().hasPrefix("   Next: The city council adopted"))
        #expect(frame.text.contains(" p n paragraph  a read again "))
    }

    @Test("recording paragraph 3: its long text wrapped at 80 columns and cut after six lines on 24 rows, whole at 120×30")
    func readingRecording() throws {
        try expectSnapshot("reading-recording", Self.recordingParagraph3)
        try expectSnapshot("reading-recording-120x30", Self.recordingParagraph3, width: 120, height: 30)
        let frame = StudioRenderer.render(Self.recordingParagraph3, width: 80, height: 24)
        let pane = frame.lines[6...13].map { $0.map(\.text).joined() }
        #expect(pane[0].hasPrefix(" Paragraph 3 of 9 · reading now"))
        #expect(pane[1...6].allSatisfy { $0.hasPrefix("   ") && $0.terminalColumns == 80 })
        #expect(pane[6].trimmingCharacters(in: .whitespaces).hasSuffix(" …"), "the seventh line of the text is cut")
        #expect(pane[7].hasPrefix("   Next: The mayor said"))
        #expect(frame.lines[14].map(\.text).joined().hasPrefix("     #  length"))
        let wide = StudioRenderer.render(Self.recordingParagraph3, width: 120, height: 30).text
        #expect(!wide.contains(" …"), "at 120×30 the whole paragraph shows")
        #expect(wide.contains("second time this year."))
        // The smallest screen keeps the pane's heading, three lines of the text and the selected chunk.
        try expectSnapshot("reading-recording-40x14", Self.recordingParagraph3, width: 40, height: 14)
        let small = StudioRenderer.render(Self.recordingParagraph3, width: 40, height: 14).lines.map { $0.map(\.text).joined() }
        let heading = try #require(small.firstIndex { $0.hasPrefix(" Paragraph 3 of 9 · reading now") })
        #expect(small[(heading + 1)...(heading + 3)].allSatisfy { $0.hasPrefix("   ") && $0.trimmingCharacters(in: .whitespaces).count > 20 })
        #expect(small.contains { $0.hasPrefix("▸    2  00:00:38.0") })
    }

    @Test("the last paragraph: no next one, the pane says the text ends")
    func readingLast() throws {
        var state = Self.article
        state.reading = Self.reading(9)
        try expectSnapshot("reading-last", state)
    }

    @Test("moved back to a paragraph already read: the pane says r or a reads it again")
    func readingChosen() throws {
        var state = Self.article
        state.reading = Self.reading(2, isRead: true, standing: .chosen)
        state.notice = nil
        try expectSnapshot("reading-chosen", state)
        #expect(StudioRenderer.render(state, width: 80, height: 24).lines[6].map(\.text).joined()
            .hasPrefix(" Paragraph 2 of 9 · read already; r or a reads it again"))
    }

    @Test("with a text, help lists the paragraph keys in the same rows")
    func helpWithText() {
        var state = Self.article
        state.reading = Self.reading(1)
        state.panel = .help
        let text = StudioRenderer.render(state, width: 80, height: 24).text
        #expect(text.contains("   p n k  previous / next paragraph; k skips the shown one (k again: read it)"))
        #expect(text.contains("   a      read the shown paragraph again (its old takes go to the trash)"))
        #expect(text.contains("   Any key closes this help."))
    }

    @Test("a paragraph holding control characters reaches the screen escaped")
    func readingControlCharacters() {
        var state = Self.article
        state.reading = .init(
            number: 1, count: 2, kind: .paragraph, text: "Bold\u{1B}[2J move\u{9B}", isRead: false, standing: .next, next: "\u{1B}]0;x\u{07}")
        let frame = StudioRenderer.render(state, width: 80, height: 24)
        #expect(frame.text.unicodeScalars.allSatisfy { $0 == "\n" || !TerminalText.isControl($0) })
        #expect(frame.text.contains("   Bold\\u{1B}[2J move\\u{9B}"))
        #expect(frame.text.contains("   Next: \\u{1B}]0;x\\u{07}"))
    }

    @Test("every state fits every size from 40×14 to 200×60 exactly", arguments: [40, 57, 80, 133, 200])
    func fitsEverySize(width: Int) {
        var states = [Self.article, Self.recording, Self.deviceProblem, StudioState(panel: .newArticle(NewArticleForm(publication: "", narrator: "")))]
        var helpState = Self.article
        helpState.panel = .help
        states.append(helpState)
        var chosen = Self.article
        chosen.reading = Self.reading(2, isRead: true, standing: .chosen)
        var helpWithText = Self.recordingParagraph3
        helpWithText.panel = .help
        states += [Self.newWithText, Self.recordingParagraph3, chosen, helpWithText]
        for state in states {
            for height in [14, 24, 60] {
                let frame = StudioRenderer.render(state, width: width, height: height)
                #expect(frame.lines.count == height)
                #expect(frame.lines.allSatisfy { $0.map(\.text).joined().terminalColumns == width })
            }
        }
    }

    @Test("a title, publication, warning and notice holding ESC[2J, OSC and C1 controls reach the screen escaped: no control character but the line breaks")
    func controlCharacters() {
        var state = Self.recording
        let hostile = "\u{1B}[2J\u{1B}]0;pwned\u{07}Budget\u{9B}2J\r\u{0}"
        state.header?.title = hostile
        state.header?.publication = "Daily\u{1B}[31m Post"
        state.warning = "Quiet\u{85} input"
        state.notice = .init("Could not read \(hostile).", isProblem: true)
        let frame = StudioRenderer.render(state, width: 80, height: 24)
        let controls = frame.text.unicodeScalars.filter { $0 != "\n" && ($0.value < 0x20 || (0x7F...0x9F).contains($0.value)) }
        #expect(controls.isEmpty)
        let shown = "\\u{1B}[2J\\u{1B}]0;pwned\\u{07}Budget\\u{9B}2J\\u{0D}\\u{00}"
        #expect(frame.lines[0].map(\.text).joined().hasPrefix(" \(shown)"))
        #expect(frame.lines[1].map(\.text).joined().hasPrefix(" Daily\\u{1B}[31m Post · read by Ann Reader"))
        #expect(frame.text.contains("Quiet\\u{85} input"))
        #expect(frame.text.contains("Could not read \(shown)."))
        #expect(frame.lines.allSatisfy { $0.map(\.text).joined().terminalColumns == 80 })
    }

    // MARK: Review, fixes, flags and the article list

    @Test("playing shows the position within the chunk to a tenth, then the article's; paused says where and what c does")
    func reviewPositions() {
        var state = Self.article
        state.activity = .playing(chunk: ChunkIndex(4), of: 9, position: 95.2, total: 300, paused: false, inChunk: 12.36)
        let line = { (state: StudioState) in StudioRenderer.render(state, width: 80, height: 24).lines[3].map(\.text).joined() }
        #expect(line(state).hasPrefix(" ▶ chunk 4/9 00:00:12.3 · article 00:01:35 / 00:05:00"))
        state.activity = .playing(chunk: ChunkIndex(4), of: 9, position: 95.2, total: 300, paused: true, inChunk: 12.36)
        #expect(line(state).hasPrefix(" ⏸ Paused at chunk 4, 00:00:12.3: c fixes a slip from here"))
        #expect(!line(state).contains("Playing"))
        let footer = StudioRenderer.render(state, width: 80, height: 24).text
        #expect(footer.contains(" ← → 1 s  PgUp PgDn 5 s "))
    }

    static var preRoll: StudioState {
        var state = Self.recordingParagraph3
        let preRoll = StudioState.PreRoll(chunk: ChunkIndex(2), at: 12.3, lead: 3, words: "the council agreed to spend…")
        state.activity = .preRoll(preRoll)
        state.reading = reading(3, isRead: true, standing: .fixing)
        state.notice = .init(preRoll.sentence + " Esc cancels the fix.")
        return state
    }

    @Test("a fix's pre-roll: the status says so (not ● REC), the pane shows the paragraph being fixed, the notice what plays and the words to read on from, Esc cancels")
    func preRollScreen() throws {
        try expectSnapshot("pre-roll", Self.preRoll)
        let frame = StudioRenderer.render(Self.preRoll, width: 80, height: 24)
        let lines = frame.lines.map { $0.map(\.text).joined() }
        #expect(lines[3].hasPrefix(" ▶ Pre-roll: fixing chunk 2 from 00:00:12.3 · Esc cancels"))
        #expect(!frame.text.contains("● REC"))
        #expect(lines[6].hasPrefix(" Paragraph 3 of 9 · fixing a slip in it"))
        #expect(lines[20...21].map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            == "Playing the 3 s before the slip in chunk 2, then read on from “the council agreed to spend…”. Esc cancels the fix.")
        #expect(lines[22].hasPrefix(" Esc cancel the fix  ? all keys"))
        try expectSnapshot("pre-roll-40x14", Self.preRoll, width: 40, height: 14)
    }

    static var flagged: StudioState {
        var state = Self.article
        state.reading = reading(2, isRead: true, standing: .chosen)
        state.reading?.flags = [.init(chunk: ChunkIndex(2), hint: "at 4.2 s: not heard: “the council voted on Tuesday”")]
        state.chunks[1].hints = ["at 4.2 s: not heard: “the council voted on Tuesday”"]
        state.selection = 1
        state.notice = nil
        return state
    }

    @Test("a flagged take is marked ⚑ with the hint's words and time, in its row and under its paragraph, until dismissed")
    func flaggedTakes() throws {
        try expectSnapshot("flagged", Self.flagged)
        let lines = StudioRenderer.render(Self.flagged, width: 80, height: 24).lines
        let row = try #require(lines.first { $0.first?.text.hasPrefix("▸    2") == true })
        #expect(row.map(\.text).joined().contains("⚑ at 4.2 s: not heard: “the council voted on…"))
        #expect(lines[7].map(\.text).joined().hasPrefix("   ⚑ chunk 2: at 4.2 s: not heard: “the council voted on Tuesday”"))
        #expect(lines[7].first?.style == .problem)
        var dismissed = Self.flagged
        dismissed.chunks[1].hints = []
        dismissed.reading?.flags = []
        #expect(!StudioRenderer.render(dismissed, width: 80, height: 24).text.contains("⚑"))
    }

    static let listRows = [
        ArticleList.Row(
            id: ArticleID("k2m9q4"), title: "Budget vote in the city council", publication: "Daily Post", state: .open, paragraphs: 9,
            paragraphsRead: 3, chunkCount: 3, seconds: 126.4, lastChange: Date(timeIntervalSince1970: 1_795_700_520)),
        ArticleList.Row(
            id: ArticleID("p7x2aa"), title: "Harbour plans", publication: "", state: .queued, paragraphs: 0, paragraphsRead: 0, chunkCount: 12,
            seconds: 760, lastChange: Date(timeIntervalSince1970: 1_795_600_000)),
        ArticleList.Row(
            id: ArticleID("zz81bb"), title: "Old news", publication: "Weekly", state: .pruned, paragraphs: 4, paragraphsRead: 4, chunkCount: 0,
            seconds: 0, lastChange: Date(timeIntervalSince1970: 1_795_000_000)),
    ]

    @Test("the article list: each article's title, then publication, state, paragraphs read of all, length and last change; the selection marked")
    func articleList() throws {
        let list = ArticleList(rows: Self.listRows, selection: 1, openArticle: ArticleID("k2m9q4"))
        let utc = try #require(TimeZone(identifier: "UTC"))
        let lines = ArticleListRenderer.lines(list, width: 80, rows: 20, timeZone: utc).map { $0.map(\.text).joined() }
        #expect(lines == [
            " Your articles: Enter opens one, n starts a new one", "",
            "  Budget vote in the city council (open now)",
            "    Daily Post · open · 3 of 9 paragraphs read · 00:02:06 · 2026-11-26 13:42",
            "▸ Harbour plans",
            "    no publication · queued · no text · 00:12:40 · 2026-11-25 09:46",
            "  Old news",
            "    Weekly · pruned · 4 of 4 paragraphs read · 00:00:00 · 2026-11-18 11:06",
        ])
        // Few rows: the list scrolls to the selection and says there are more.
        let short = ArticleListRenderer.lines(ArticleList(rows: Self.listRows, selection: 2), width: 40, rows: 5, timeZone: utc).map { $0.map(\.text).joined() }
        #expect(short.count == 5)
        #expect(short[2] == "▸ Old news")
        #expect(short[4] == "   3–3 of 3 articles; ↑ ↓ show more")
        // On the screen: the panel, its keys, and the header saying what to do.
        var state = StudioState(panel: .articles(list))
        state.canListArticles = true
        let frame = StudioRenderer.render(state, width: 80, height: 24)
        #expect(frame.text.contains("▸ Harbour plans"))
        #expect(frame.lines[1].map(\.text).joined().hasPrefix(" Choose an article to go back to, or start a new one."))
        #expect(frame.lines[22].map(\.text).joined().hasPrefix(" ↑↓ choose  Enter open  n new article  Esc back"))
        #expect(frame.lines.allSatisfy { $0.map(\.text).joined().terminalColumns == 80 })
    }

    @Test("at 40×14 the paragraph to read gets its heading and at least three lines, ready or recording, and the selected chunk stays")
    func smallScreenReading() throws {
        var ready = Self.recordingParagraph3
        ready.activity = .ready
        ready.meter = nil
        ready.reading = Self.reading(3, standing: .next)
        ready.notice = .init("Saved chunk 2 (38.0 s).")
        for state in [ready, Self.recordingParagraph3] {
            let lines = StudioRenderer.render(state, width: 40, height: 14).lines.map { $0.map(\.text).joined() }
            let heading = try #require(lines.firstIndex { $0.hasPrefix(" Paragraph 3 of 9") })
            #expect(lines[(heading + 1)...(heading + 3)].allSatisfy { $0.hasPrefix("   ") && $0.trimmingCharacters(in: .whitespaces).count > 20 })
            #expect(lines.contains { $0.hasPrefix("▸    2  00:00:38.0") })
        }
        try expectSnapshot("reading-ready-40x14", ready, width: 40, height: 14)
    }

    // MARK: Proposed cuts

    static let cutTake = ChunkID("k3v9x2m7q1a0")

    static var withCuts: StudioState {
        var state = Self.article
        state.cuts = [
            .init(
                take: cutTake, chunk: ChunkIndex(2), paragraph: 2, number: 0,
                sentence: "at 4.2 s: “the council adopted next year's” read twice: cut 4.20–6.05 s", start: 4.2, end: 6.05),
            .init(
                take: cutTake, chunk: ChunkIndex(2), paragraph: 2, number: 2,
                sentence: "at 12.4 s: “by 27” broken off and begun again (“sorry” between): cut 12.40–14.10 s", start: 12.4, end: 14.1),
        ]
        state.chunks[1].cuts = 2
        state.chunks[1].recovered = false
        state.selection = 1
        state.notice = nil
        return state
    }

    @Test("a take with restarts to cut is marked ✂ in its row, and its cuts show under its paragraph")
    func cutsMarked() throws {
        var state = Self.withCuts
        state.reading = Self.reading(2, isRead: true, standing: .chosen)
        state.reading?.cuts = state.cuts
        try expectSnapshot("cuts-marked", state)
        let lines = StudioRenderer.render(state, width: 80, height: 24).lines.map { $0.map(\.text).joined() }
        // Each a line, cut after a whole word; the list of cuts (t) has them in full.
        #expect(lines[7].hasPrefix("   ✂ chunk 2: at 4.2 s: “the council adopted next year's” read twice: cut…  "))
        #expect(lines[8].hasPrefix("   ✂ chunk 2: at 12.4 s: “by 27” broken off and begun again (“sorry” between):… "))
        #expect(lines[7...8].allSatisfy { $0.hasPrefix("   ✂") } && lines[9].hasPrefix("   The city council adopted"))
        let row = try #require(lines.first { $0.hasPrefix("▸    2") })
        #expect(row.trimmingCharacters(in: .whitespaces).hasSuffix("✂ 2 to cut"))
        #expect(lines[22] == " r record/stop  p n paragraph  a read again  t cuts  ? all keys".padding(toLength: 80, withPad: " ", startingAt: 0))
        var noText = Self.withCuts
        noText.reading = nil
        let footer = StudioRenderer.render(noText, width: 80, height: 24).lines[22].map(\.text).joined()
        #expect(footer == " r record/stop  space play/pause  ↑↓ select  t cuts  ? all keys".padding(toLength: 80, withPad: " ", startingAt: 0))
    }

    @Test("t: the cuts, the chosen one marked and asked about in full, the keys to hear it as read or as cut, cut it or leave it")
    func cutsPanel() throws {
        var state = Self.withCuts
        state.panel = .cuts(selection: 1)
        try expectSnapshot("cuts", state)
        let lines = StudioRenderer.render(state, width: 80, height: 24).lines.map { $0.map(\.text).joined() }
        #expect(lines[6].hasPrefix(" Cuts: the take check found 2 restarts where words were read again"))
        #expect(lines[8].hasPrefix("  1. chunk 2 ¶2: at 4.2 s: “the council adopted next year's” read twice: cut…"))
        #expect(lines[9].hasPrefix("▸ 2. chunk 2 ¶2: at 12.4 s: “by 27” broken off and begun again (“sorry”…"))
        #expect(lines[11...12].map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            == "Chunk 2, paragraph 2, at 12.4 s: “by 27” broken off and begun again (“sorry” between): cut 12.40–14.10 s (1.70 s).")
        #expect(lines[13].hasPrefix("   l hear it as read  c as it would be cut  y cut it  n leave it"))
        #expect(lines[22].hasPrefix(" ↑↓ choose  l hear as read  c hear as cut  y cut it  n leave it"))
        #expect(lines[23].hasPrefix(" a cut all  u undo  Esc back"))
        try expectSnapshot("cuts-40x14", state, width: 40, height: 14)
        let small = StudioRenderer.render(state, width: 40, height: 14).lines.map { $0.map(\.text).joined() }
        #expect(small.contains { $0.hasPrefix("▸ 2. chunk 2 ¶2") }, "the chosen cut stays on the smallest screen")
        #expect(small.contains { $0.hasPrefix("   l hear it as read  c as it would be") }, "and the keys to hear it")
    }

    @Test("hearing a cut: the status says which and how, Esc stops")
    func listeningToCut() throws {
        var state = Self.withCuts
        state.panel = .cuts(selection: 0)
        state.activity = .listening(state.cuts[0], asCut: true)
        state.notice = .init("Hearing chunk 2 at 4.20 s as it would be cut: 2.50 s before and after. Esc stops.")
        try expectSnapshot("cuts-listening", state)
        let lines = StudioRenderer.render(state, width: 80, height: 24).lines.map { $0.map(\.text).joined() }
        #expect(lines[3].hasPrefix(" ▶ Hearing chunk 2 at 4.20 s as it would be cut · Esc stops"))
        #expect(lines[22].hasPrefix(" Esc stop  l hear as read  c hear as cut"))
        for width in [40, 57, 80, 133, 200] {
            for height in [14, 24, 60] {
                let frame = StudioRenderer.render(state, width: width, height: height)
                #expect(frame.lines.count == height)
                #expect(frame.lines.allSatisfy { $0.map(\.text).joined().terminalColumns == width })
            }
        }
    }

    @Test("help names t, the restarts to cut, and still fits 24 rows with its last line")
    func helpNamesCuts() {
        for reading in [nil, Self.reading(1)] {
            var state = Self.article
            state.reading = reading
            state.panel = .help
            let text = StudioRenderer.render(state, width: 80, height: 24).text
            #expect(text.contains("   t      restarts to cut ✂: hear each as read and as cut, then cut or leave it"))
            #expect(text.contains("   e i    re-record the selected chunk / record a new chunk before it"))
            #expect(text.contains("   Any key closes this help."))
        }
    }
}
