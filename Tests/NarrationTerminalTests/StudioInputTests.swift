import Foundation
import Glibc
import NarrationCore
import NarrationTerminal
import Studio
import Testing

@Suite("Studio keys, form and input warnings")
struct StudioInputTests {
    static var ready: StudioState {
        var state = StudioState(header: .init(title: "T", publication: "P", narrator: "N", state: .open, duration: 3, chunkCount: 2))
        state.chunks = [.init(index: ChunkIndex(1), duration: 1, peak: Decibels(-6)), .init(index: ChunkIndex(2), duration: 2, peak: Decibels(-6))]
        return state
    }

    @Test("on the chunk list, each key of the footer means its action", arguments: [
        (KeyPress.character("r"), StudioAction.toggleRecording), (.character(" "), .playOrPause), (.enter, .playSelected),
        (.up, .select(by: -1)), (.down, .select(by: 1)), (.pageDown, .select(by: 10)), (.home, .selectFirst), (.end, .selectLast),
        (.character("x"), .askDelete), (.character("e"), .rerecordSelected), (.character("i"), .insertBeforeSelected),
        (.character("q"), .askSend(submitting: false)), (.character("s"), .askSend(submitting: true)), (.character("?"), .toggleHelp), (.escape, .leave), (.interrupt, .leave),
    ])
    func chunkListKeys(key: KeyPress, action: StudioAction) {
        #expect(Self.ready.action(for: key) == action)
    }

    @Test("q and s always ask in the terminal; with labelled buttons only when paragraphs are unread; on the question only y sends")
    func sendingAsks() throws {
        var state = Self.ready
        state.confirmsEverySend = false
        #expect(state.action(for: .character("q")) == .queue)
        #expect(state.action(for: .character("s")) == .submit)
        state.unread = try #require(UnreadParagraphs(numbers: [2, 3, 4, 7], total: 10))
        #expect(state.action(for: .character("s")) == .askSend(submitting: true))
        state.panel = .confirmSend(SendQuestion(submitting: true, title: "T", unread: state.unread))
        #expect(state.action(for: .character("y")) == .confirmSend)
        for key in [KeyPress.enter, .character("n"), .character("q"), .character("s"), .escape] {
            #expect(state.action(for: key) == .cancel, "\(key) is No")
        }
        let screen = StudioRenderer.render(state, width: 80, height: 24).lines.map { String($0.map(\.text).joined().reversed().drop { $0 == " " }.reversed()) }
        #expect(screen.contains(" Send \"T\" now?"), "\(screen)")
        #expect(screen.contains("   Paragraphs 2–4 and 7 of 10 are not read: it goes out without them."), "\(screen)")
        #expect(screen.contains("   y yes, send it   any other key no (the default)"), "\(screen)")
    }

    @Test("while recording only r stops; other keys say why they wait, and Esc and Ctrl-C still leave")
    func recordingKeys() {
        var state = Self.ready
        state.activity = .recording(seconds: 1, placement: .append)
        #expect(state.action(for: .character("r")) == .toggleRecording)
        #expect(state.action(for: .character("x")) == .explain("Recording: press r to stop, then press x."))
        #expect(state.action(for: .character(" ")) == .explain("Recording: press r to stop first."))
        #expect(state.action(for: .escape) == .leave)
        #expect(state.action(for: .interrupt) == .leave)
        #expect(state.action(for: .up) == .select(by: -1))
    }

    @Test("with no chunks, x e i explain instead of acting; ← → seek only while playing")
    func emptyAndPlaying() {
        var state = Self.ready
        #expect(state.action(for: .left) == nil)
        state.activity = .playing(chunk: ChunkIndex(1), of: 2, position: 0, total: 3, paused: false)
        #expect(state.action(for: .left) == .seek(seconds: -1))
        #expect(state.action(for: .right) == .seek(seconds: 1))
        #expect(state.action(for: .pageUp) == .seek(seconds: -5))
        #expect(state.action(for: .pageDown) == .seek(seconds: 5))
        #expect(state.action(for: .character(" ")) == .playOrPause)
        state.chunks = []
        state.activity = .ready
        #expect(state.action(for: .character("x")) == .explain("There are no chunks to delete yet."))
        #expect(state.action(for: .character("e")) == .explain("There is no chunk to re-record yet; press r to record one."))
    }

    @Test("with a text, p and n move the reading pane and a reads the shown paragraph again; without one they say why not")
    func paragraphKeys() {
        var state = Self.ready
        #expect(state.action(for: .character("p")) == .explain("This article has no text, so there are no paragraphs to move through."))
        #expect(state.action(for: .character("a")) == .explain("This article has no text, so there is no paragraph to read again; press r to record."))
        state.reading = .init(number: 2, count: 3, kind: .paragraph, text: "Two.", isRead: false, standing: .next, next: "Three.")
        #expect(state.action(for: .character("p")) == .moveReading(by: -1))
        #expect(state.action(for: .character("n")) == .moveReading(by: 1))
        #expect(state.action(for: .character("N")) == .moveReading(by: 1))
        #expect(state.action(for: .character("a")) == .readAgain)
        #expect(state.action(for: .character("r")) == .toggleRecording)
        state.reading?.standing = .allRead
        #expect(state.action(for: .character("r")) == .explain("Every paragraph is read. Press p or n to move to one, then a to read it again."))
        state.reading?.standing = .reading
        state.activity = .recording(seconds: 1, placement: .append)
        #expect(state.action(for: .character("r")) == .toggleRecording)
        #expect(state.action(for: .character("n")) == .explain("Recording: press r to stop, then press n."))
        #expect(state.action(for: .character("a")) == .explain("Recording: press r to stop, then press a."))
    }

    @Test("a delete waits for y; every other key keeps the chunk")
    func confirmation() {
        var state = Self.ready
        state.panel = .confirmDelete(ChunkIndex(2))
        #expect(state.action(for: .character("y")) == .confirmDelete)
        for key in [KeyPress.character("n"), .enter, .escape, .character("x")] {
            #expect(state.action(for: key) == .cancel)
        }
        #expect(state.action(for: .interrupt) == .leave)
    }

    @Test("a resize is never taken as a key: the result and help stay up")
    func resizeIsNotAKey() {
        var state = Self.ready
        for panel in [StudioState.Panel.result(heading: "Queued", lines: [], remedy: nil), .help, .confirmDelete(ChunkIndex(1)), .chunks] {
            state.panel = panel
            #expect(state.action(for: .resize) == nil)
        }
    }

    @Test("the form: typing edits the focused field, Enter moves on and on the last field creates the article")
    func form() {
        var form = NewArticleForm(publication: "Daily Post", narrator: "Ann")
        for character in "Café 港" { form.edit(.character(character)) }
        form.edit(.backspace)
        #expect(form.title == "Café ")
        form.edit(.enter)
        #expect(form.focus == .publication)
        form.edit(.backspace)
        #expect(form.publication == "Daily Pos")
        form.edit(.tab)
        #expect(form.onLastField)
        let state = StudioState(panel: .newArticle(form))
        #expect(state.action(for: .enter) == .createArticle)
        #expect(state.action(for: .character("q")) == .edit(.character("q")), "q types a q in the form, it does not queue")
        #expect(state.action(for: .escape) == .leave)
        form.edit(.up)
        #expect(form.focus == .publication)
        form.edit(.character("\u{7}"))
        #expect(form.publication == "Daily Pos", "control characters are not typed")
    }

    @Test("input warnings: a clip shows for 3 s; below -50 dBFS for 3 s asks whether the microphone is on")
    func inputWatch() {
        var watch = InputWatch()
        watch.update(peak: Decibels(-0.05), at: 10)
        #expect(watch.warning(at: 10) == "The input clipped: move back from the microphone or turn its gain down.")
        watch.update(peak: Decibels(-12), at: 12)
        #expect(watch.warning(at: 13) != nil)
        #expect(watch.warning(at: 13.1) == nil)
        for tenth in 0...29 { watch.update(peak: Decibels(-55), at: 20 + Double(tenth) / 10) }
        #expect(watch.warning(at: 22.9) == nil)
        #expect(watch.warning(at: 23.0) == "The input has stayed below -50.0 dBFS for 3 s: is the microphone on?")
        watch.update(peak: Decibels(-49), at: 23.1)
        #expect(watch.warning(at: 23.1) == nil)
    }

    @Test("sparklines: -60 dBFS and below is the lowest block, 0 dBFS the highest, merged and stretched to the width")
    func sparkline() {
        #expect(Sparkline.render([Decibels(-90), Decibels(-30), Decibels(0)], width: 3) == "▁▅█")
        #expect(Sparkline.render([Decibels(-60), Decibels(0)], width: 4) == "▁▁██")
        #expect(Sparkline.render([Decibels(-60), Decibels(-6), Decibels(-60), Decibels(-60)], width: 2) == "█▁")
        #expect(Sparkline.render([], width: 3) == "   ")
    }

    @Test("column widths agree with glibc's wcwidth for the scripts volunteers type")
    func columnsMatchWcwidth() {
        setlocale(LC_CTYPE, "C.UTF-8")
        // Glibc's module map leaves wcwidth out (it needs _XOPEN_SOURCE): look it up by name.
        typealias WidthFunction = @convention(c) (Int32) -> Int32
        let wcwidth = unsafeBitCast(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "wcwidth"), to: WidthFunction.self)
        let samples = "aé漢字港口日本語ひらがなカタカナ한국어ＡＢ！，。ñüß●■▶⏸▁█·─▸↺✗⚠→" + "\u{301}\u{200B}"
        for scalar in samples.unicodeScalars {
            let expected = Int(wcwidth(Int32(scalar.value)))
            #expect(Character(scalar).terminalColumns == max(0, expected), "U+\(String(scalar.value, radix: 16, uppercase: true))")
        }
        #expect("e\u{301}".terminalColumns == 1, "a combining accent adds no column")
        #expect("港口 café".fitted(to: 6) == "港口 …")
        #expect("港口港口".fitted(to: 5) == "港口…")
        #expect("港口".fitted(to: 6) == "港口  ")
    }

    @Test("the key decoder reads UTF-8, arrow and editing sequences, and a lone Escape on flush")
    func keyDecoder() {
        func decode(_ bytes: [UInt8]) -> [KeyPress] {
            var decoder = KeyDecoder()
            var keys = bytes.compactMap { decoder.feed($0) }
            if let last = decoder.flush() { keys.append(last) }
            return keys
        }
        #expect(decode(Array("港a".utf8)) == [.character("港"), .character("a")])
        #expect(decode([0x1B, 0x5B, 0x41, 0x1B, 0x4F, 0x42]) == [.up, .down])
        #expect(decode(Array("\u{1B}[5~\u{1B}[6~\u{1B}[3~\u{1B}[H".utf8)) == [.pageUp, .pageDown, .delete, .home])
        #expect(decode([0x1B]) == [.escape])
        #expect(decode([3, 127, 9, 13]) == [.interrupt, .backspace, .tab, .enter])
        #expect(decode([0xE6, 0x41]) == [], "a broken UTF-8 sequence is dropped")
    }

    @Test("during a fix's pre-roll only Esc does something (it cancels the fix): r, e, i, a, space and the rest explain, Ctrl-C still leaves")
    func preRollKeys() {
        var state = Self.ready
        state.activity = .preRoll(.init(chunk: ChunkIndex(2), at: 1.25, lead: 1.25))
        #expect(state.isPreRolling && !state.isRecording)
        #expect(state.action(for: .escape) == .cancelFix)
        let wait = StudioAction.explain("Listen: the take starts by itself after the seconds before the slip. Esc cancels the fix.")
        for key in [KeyPress.character("r"), .character("e"), .character("i"), .character("a"), .character(" "), .enter, .character("c"), .up] {
            #expect(state.action(for: key) == wait, "\(key)")
        }
        #expect(state.action(for: .interrupt) == .leave)
        #expect(state.activity == .preRoll(.init(chunk: ChunkIndex(2), at: 1.25, lead: 1.25)))
    }

    @Test("the pre-roll's sentence names the seconds, the chunk, and the words to read on from (or the time when no check heard them)")
    func preRollSentence() {
        #expect(StudioState.PreRoll(chunk: ChunkIndex(4), at: 12.34, lead: 3, words: "the mayor said the vote…").sentence
            == "Playing the 3 s before the slip in chunk 4, then read on from “the mayor said the vote…”.")
        #expect(StudioState.PreRoll(chunk: ChunkIndex(1), at: 1.25, lead: 1.2).sentence
            == "Playing the 1.2 s before the slip in chunk 1, then read on from 00:00:01.2 into chunk 1.")
    }

    @Test("o opens the article list; in it ↑ ↓ choose, Enter opens, n starts a new article, Esc goes back; a pruned article explains")
    func articleListKeys() {
        #expect(Self.ready.action(for: .character("o")) == .showArticles)
        let date = Date(timeIntervalSince1970: 1_800_000_000)
        let rows = [
            ArticleList.Row(id: ArticleID("aaaa"), title: "Open one", publication: "P", state: .open, paragraphs: 9, paragraphsRead: 3, chunkCount: 3, seconds: 40, lastChange: date),
            ArticleList.Row(id: ArticleID("bbbb"), title: "Gone", publication: "P", state: .pruned, paragraphs: 0, paragraphsRead: 0, chunkCount: 0, seconds: 0, lastChange: date),
        ]
        var state = StudioState(panel: .articles(ArticleList(rows: rows)))
        #expect(state.action(for: .enter) == .openListedArticle(ArticleID("aaaa")))
        #expect(state.action(for: .down) == .select(by: 1))
        #expect(state.action(for: .character("n")) == .showNewArticleForm)
        #expect(state.action(for: .escape) == .closeArticles)
        #expect(state.action(for: .character("r")) == .explain("↑ ↓ choose an article, Enter opens it, n starts a new one, Esc goes back."))
        state.panel = .articles(ArticleList(rows: rows, selection: 1))
        #expect(state.action(for: .enter) == .explain("“Gone” is pruned: its recordings were removed, so it cannot be opened."))
        #expect(ArticleList(rows: rows).moved(by: 5).selection == 1 && ArticleList(rows: rows).moved(by: -5).selection == 0)
        #expect(rows[0].progress == "3 of 9 paragraphs read" && rows[1].progress == "no text")
        // The new-article form's Esc shows the list when there are articles, and leaves when there are none.
        var form = StudioState(panel: .newArticle(NewArticleForm(publication: "P", narrator: "N")))
        #expect(form.action(for: .escape) == .leave)
        form.canListArticles = true
        #expect(form.action(for: .escape) == .showArticles)
    }

    @Test("d dismisses the selected take's hints; on a chunk without one it says how flagged chunks look")
    func dismissKey() {
        var state = Self.ready
        #expect(state.action(for: .character("d")) == .explain("The selected chunk has no hint to dismiss; a flagged chunk is marked ⚑."))
        state.chunks[0].hints = ["at 1.2 s: not heard: “the council”"]
        state.selection = 0
        #expect(state.action(for: .character("d")) == .dismissHints)
    }
}
