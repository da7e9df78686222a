import NarrationCore
public import Studio

/// Draws a `StudioState` as a screen of text: pure, so that what a volunteer sees can be tested
/// without a terminal.
///
/// ```
///  Budget vote in the city council
///  Daily Post · read by Ann Reader · open · 00:03:12 · 3 chunks
/// ──────────────────────────────────────────────────────────────
///  ● REC 00:01:23   recording chunk 4
///    level ████████····|·······  peak -12.3 dBFS
///  (warning)
///  Paragraph 3 of 9 · reading now                       (the reading pane, in an article with a text)
///    The council voted on Tuesday evening to adopt the budget after a debate
///    that lasted most of the day …
///    Next: The mayor said the vote was a relief for the city's schools, which…
///     #  length      peak      level
/// ▸   1  00:00:41.2  -6.0 dB   ▁▂▅▇▆▄▂▁▃▅▇▆▅▃▂▁
/// ──────────────────────────────────────────────────────────────
///  (what just happened)
///  r record/stop  space play/pause  Enter play selected  ↑↓ select  ? all keys
///  x delete  e re-record  i insert before  q queue  s submit  Esc leave
/// ```
public enum StudioRenderer {
    /// The smallest screen the layout fits.
    public static let minimumWidth = 40
    public static let minimumHeight = 14

    /// Rows above the chunk list (header, rule, status, meter, warning, column heads) and below
    /// it (rule, notice, two footer lines).
    static let rowsAbove = 7
    static let rowsBelow = 4
    /// Screens shorter than this leave out empty meter and warning lines and a footer line.
    static let compactHeight = 20

    public static func render(_ state: StudioState, width: Int, height: Int) -> StudioFrame {
        guard width >= minimumWidth, height >= minimumHeight else {
            let message = "Make the terminal at least \(minimumWidth)×\(minimumHeight) (it is \(width)×\(height))."
            return StudioFrame(width: max(width, 0), height: max(height, 0), lines: message.wrapped(to: max(1, width)).map { [StyledText($0, .problem)] })
        }
        // On a short screen the header keeps its title, the meter and warning lines are left out
        // while empty and the footer keeps one line: the rows go to the paragraph to read.
        let compact = height < compactHeight
        var lines: [[StyledText]] = []
        lines += compact && state.header != nil ? Array(header(state).prefix(1)) : header(state)
        lines.append([StyledText(rule(width), .dim)])
        lines.append(status(state))
        let meter = meter(state)
        if !compact || !meter.isEmpty { lines.append(meter) }
        let warning = state.warning.map { [StyledText(" ⚠ \(shown($0))", .problem)] } ?? []
        if !compact || !warning.isEmpty { lines.append(warning) }
        let notice = notice(state, width: width)
        let footer = compact ? Array(footer(state).prefix(1)) : footer(state)
        // A notice longer than a line (an error and its fix) takes rows from the list above it.
        let listRows = height - (lines.count + 1) - (2 + footer.count) - (notice.count - 1)
        var middle = middle(state, width: width, height: height, rows: listRows + 1).prefix(listRows + 1)
        while middle.count < listRows + 1 { middle.append([]) }
        lines += middle
        lines.append([StyledText(rule(width), .dim)])
        lines += notice
        lines += footer
        // Text is escaped where it enters (below); this pass makes sure no control character
        // reaches the terminal through a part that forgot.
        let safe = lines.map { line in line.map { StyledText(shown($0.text), $0.style) } }
        return StudioFrame(width: width, height: height, lines: safe)
    }

    /// Text from the volunteer, a file or a server as the screen shows it: every control
    /// character (ESC, BEL, CR, C1 …) written as `\u{1B}` and the like (`TerminalText`), so a
    /// title cannot clear the screen, move the cursor or rename the window.
    static func shown(_ text: String) -> String { TerminalText.escaped(text) }

    // MARK: Parts

    private static func rule(_ width: Int) -> String { String(repeating: "─", count: width) }

    private static func header(_ state: StudioState) -> [[StyledText]] {
        guard let header = state.header else {
            let hint = switch state.panel {
            case .result: " Done. Any key starts the next article."
            case .articles: " Choose an article to go back to, or start a new one."
            case _ where state.canListArticles: " No article open: fill in the form, or Esc for your articles."
            default: " No article yet: fill in the form to start one."
            }
            return [[StyledText(" narrate studio", .heading)], [StyledText(hint, .dim)]]
        }
        let chunks = header.chunkCount == 1 ? "1 chunk" : "\(header.chunkCount) chunks"
        let publication = header.publication.isEmpty ? "no publication" : shown(header.publication)
        let narrator = header.narrator.isEmpty ? "no narrator" : "read by \(shown(header.narrator))"
        return [
            [StyledText(" \(shown(header.title))", .heading)],
            [StyledText(" \(publication) · \(narrator) · \(header.state.rawValue) · \(Timecode.clock(header.duration)) · \(chunks)"
                + (header.exportReady ? " · ready to queue" : ""))],
        ]
    }

    private static func status(_ state: StudioState) -> [StyledText] {
        switch state.activity {
        case .ready:
            guard state.header != nil else { return [] }
            return [StyledText(" ■ ready", .heading)]
        case .recording(let seconds, let placement):
            let target = switch placement {
            case .append: "recording chunk \(state.chunks.count + 1)"
            case .insert(let before): "recording a new chunk before chunk \(before)"
            case .replace(let index): "re-recording chunk \(index)"
            }
            return [StyledText(" ● REC \(Timecode.clock(seconds))", .recording), StyledText("   \(target)")]
        case .playing(let chunk, let count, let position, let total, let paused, let inChunk):
            if paused {
                return [StyledText(" ⏸ Paused at chunk \(chunk), \(Timecode.tenths(inChunk)): c fixes a slip from here", .playing)]
            }
            return [
                StyledText(" ▶ chunk \(chunk)/\(count) \(Timecode.tenths(inChunk))", .playing),
                StyledText(" · article \(Timecode.clock(position)) / \(Timecode.clock(total))", .dim),
            ]
        case .preRoll(let preRoll):
            return [StyledText(" ▶ Pre-roll: fixing chunk \(preRoll.chunk) from \(Timecode.tenths(preRoll.at))", .recording), StyledText(" · Esc cancels")]
        case .listening(let cut, let asCut):
            return [
                StyledText(" ▶ Hearing chunk \(cut.chunk) at \(seconds(cut.start)) \(asCut ? "as it would be cut" : "as read")", .playing),
                StyledText(" · Esc stops"),
            ]
        case .working(let stage, let fraction):
            let clamped = min(1, max(0, fraction))
            let filled = Int((clamped * 30).rounded(.down))
            return [
                StyledText(" \(shown(stage)) ", .heading),
                StyledText(String(repeating: "█", count: filled) + String(repeating: "░", count: 30 - filled)),
                StyledText(" \(Int((clamped * 100).rounded(.down))) %"),
            ]
        }
    }

    private static func meter(_ state: StudioState) -> [StyledText] {
        guard let meter = state.meter, state.isRecording || state.isPlaying || state.isPreRolling else { return [] }
        var spans = [StyledText("   level ")]
        for (index, glyph) in meter.render(colour: false).enumerated() {
            let style: StudioStyle = switch MeterDisplay.band(ofSegment: index) {
            case .green: .meterGreen
            case .yellow: .meterYellow
            case .red: .meterRed
            }
            spans.append(StyledText(String(glyph), glyph == "·" ? .dim : style))
        }
        if let peak = state.peak { spans.append(StyledText("  peak \(peak.formatted) dBFS")) }
        return spans
    }

    private static func middle(_ state: StudioState, width: Int, height: Int, rows: Int) -> [[StyledText]] {
        switch state.panel {
        case .chunks, .confirmDelete:
            let pane = readingPane(state, width: width, height: height, rows: rows)
            return pane + chunkList(state, width: width, rows: rows - pane.count)
        case .help:
            return state.reading == nil ? help : helpWithText
        case .result(let heading, let lines, let remedy):
            let lines = lines + (remedy.map { [$0.commandLine.text] } ?? [])
            return [[StyledText(" \(shown(heading))", .heading)], []] + lines.flatMap { shown($0).wrapped(to: width - 4).map { [StyledText("   \($0)")] } }
        case .newArticle(let form):
            return newArticle(form, canListArticles: state.canListArticles)
        case .articles(let list):
            return ArticleListRenderer.lines(list, width: width, rows: rows)
        case .confirmSend(let question):
            return sendQuestion(question, width: width)
        case .cuts(let selection):
            return cutList(state.cuts, selection: selection, width: width, rows: rows)
        }
    }

    /// "1.00 s": a time in a take as the cuts say it.
    static func seconds(_ value: Double) -> String {
        guard value.isFinite else { return "0.00 s" }
        let hundredths = Int((max(0, value) * 100).rounded())
        return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100) s"
    }

    /// The restarts the take check proposes to cut, one a line, scrolled to keep the chosen one
    /// in view; under them the chosen one in full, asked about.
    private static func cutList(_ cuts: [StudioState.Cut], selection: Int, width: Int, rows: Int) -> [[StyledText]] {
        let count = cuts.count == 1 ? "1 restart" : "\(cuts.count) restarts"
        var lines: [[StyledText]] = [[StyledText(" Cuts: the take check found \(count) where words were read again", .heading)]]
        guard cuts.indices.contains(selection) else { return lines }
        let chosen = cuts[selection]
        let where_ = chosen.paragraph.map { "Chunk \(chosen.chunk), paragraph \($0), " } ?? "Chunk \(chosen.chunk), "
        // The heading, the chosen cut's row and the keys always show; then the question, in full
        // when there is room; the list gets the rest. Short screens leave out the blank lines.
        let blanks = rows >= 10 ? 2 : 0
        var question = shown("\(where_)\(chosen.sentence) (\(seconds(chosen.seconds))).").wrapped(to: width - 4)
        let questionRoom = max(0, rows - 3 - blanks)
        if question.count > questionRoom {
            question = Array(question.prefix(questionRoom))
            if let last = question.indices.last { question[last] = question[last].clipped(to: width - 6) + " …" }
        }
        let visible = max(1, rows - 2 - blanks - question.count)
        let top = max(0, min(selection - visible / 2, cuts.count - visible))
        if blanks > 0 { lines.append([]) }
        for (offset, cut) in cuts[top..<min(cuts.count, top + visible)].enumerated() {
            let selected = top + offset == selection
            let paragraph = cut.paragraph.map { " ¶\($0)" } ?? ""
            let line = "\(selected ? "▸" : " ") \(top + offset + 1). chunk \(cut.chunk)\(paragraph): \(shown(cut.sentence))"
            lines.append([StyledText(firstWords(line, fitting: width - 1), selected ? .selected : .plain)])
        }
        if blanks > 0 { lines.append([]) }
        lines += question.map { [StyledText("   \($0)")] }
        lines.append([
            StyledText("   l", .key), StyledText(" hear it as read  "), StyledText("c", .key), StyledText(" as it would be cut  "),
            StyledText("y", .key), StyledText(" cut it  "), StyledText("n", .key), StyledText(" leave it"),
        ])
        return lines
    }

    /// The question before queue or submit: what happens, what is not read, and that only y sends.
    private static func sendQuestion(_ question: SendQuestion, width: Int) -> [[StyledText]] {
        var lines: [[StyledText]] = [[StyledText(" \(shown(question.question))", .heading)], []]
        if let warning = question.warning {
            lines += shown(warning).wrapped(to: width - 4).map { [StyledText("   \($0)", .problem)] }
            lines += "Read them first, or skip them with k, if nobody should hear them.".wrapped(to: width - 4).map { [StyledText("   \($0)")] }
        }
        lines.append([])
        lines.append([StyledText("   y", .key), StyledText(question.submitting ? " yes, send it" : " yes, queue it"), StyledText("   any other key", .key), StyledText(" no (the default)")])
        return lines
    }

    /// The most lines of a paragraph's text the pane shows on a screen `height` rows tall: 6 on
    /// 24 rows, 9 on 30, more on taller screens.
    static func readingLines(height: Int) -> Int { max(3, (height - 12) / 2) }

    /// The reading pane over the chunk list, in `rows` shared with the list: "Paragraph 3 of 9"
    /// and what r does with it, its text wrapped to the width (cut with "…" when longer than the
    /// screen allows), then the next paragraph's first words, dimmed. The list keeps its column
    /// heads and three rows (one on the smallest screens); the pane gives up its text first.
    private static func readingPane(_ state: StudioState, width: Int, height: Int, rows: Int) -> [[StyledText]] {
        guard let reading = state.reading else { return [] }
        // The list keeps its heads and three rows, one on short screens, where the paragraph
        // keeps its heading and three lines first.
        let room = rows >= 10 ? rows - 4 : rows >= 6 ? rows - 2 : rows >= 5 ? rows - 1 : rows
        guard room > 0 else { return [] }
        let name = reading.kind == .heading ? "Heading" : "Paragraph"
        var lines: [[StyledText]] = [[StyledText(" \(name) \(reading.number) of \(reading.count)", .heading)] + remark(reading, state)]
        let columns = width - 4
        // Flagged takes of the paragraph, with the hint's words and time, while room is left
        // for three lines of its text.
        for flag in reading.flags.prefix(max(0, room - 4)) {
            lines.append([StyledText(Self.firstWords("   ⚑ chunk \(flag.chunk): \(shown(flag.hint))", fitting: width - 1), .problem)])
        }
        // Restarts proposed to cut from its takes, while room is left for three lines of its text.
        for cut in reading.cuts.prefix(max(0, room - 3 - lines.count)) {
            lines.append([StyledText(Self.firstWords("   ✂ chunk \(cut.chunk): \(shown(cut.sentence))", fitting: width - 1), .key)])
        }
        let textRoom = room - lines.count
        let limit = min(readingLines(height: height), textRoom >= 4 ? textRoom - 1 : textRoom)
        if limit > 0 {
            var text = shown(reading.text).wrapped(to: columns)
            if text.count > limit {
                text = Array(text.prefix(limit))
                let last = text[limit - 1]
                text[limit - 1] = last.terminalColumns + 2 <= columns ? last + " …" : last.clipped(to: columns - 2) + " …"
            }
            lines += text.map { [StyledText("   \($0)")] }
        }
        if room - lines.count >= 1 {
            let next = reading.next.map { firstWords("Next: " + shown($0), fitting: columns) } ?? "End of the text."
            lines.append([StyledText("   " + next, .dim)])
        }
        return lines
    }

    /// As much of `text` as fits in `columns`, cut after a whole word with "…" when it is longer.
    static func firstWords(_ text: String, fitting columns: Int) -> String {
        guard text.terminalColumns > columns else { return text }
        var words = text.clipped(to: columns - 1)
        if text.dropFirst(words.count).first != " ", let space = words.lastIndex(of: " ") {
            words = String(words[..<space])  // the last word would be cut: leave it out
        }
        while words.last == " " { words.removeLast() }
        return words + "…"
    }

    /// What the shown paragraph is to the volunteer, after its number.
    private static func remark(_ reading: StudioState.Reading, _ state: StudioState) -> [StyledText] {
        switch reading.standing {
        case .reading:
            return [StyledText(reading.isRead ? " · reading it again" : " · reading now", .recording)]
        case _ where state.isRecording:
            return []
        case .next:
            return [StyledText(" · r reads it")]
        case .chosen:
            return [StyledText(reading.isRead ? " · read already; r or a reads it again" : " · not read yet; r reads it")]
        case _ where reading.isSkipped:
            return [StyledText(" · skipped: not read; k reads it after all", .dim)]
        case .allRead:
            return [StyledText(" · every paragraph is read; p n move, a reads one again")]
        case .fixing:
            return [StyledText(" · fixing a slip in it", .recording)]
        }
    }

    /// The column heads and the rows that fit, scrolled so that the selection is in view.
    private static func chunkList(_ state: StudioState, width: Int, rows: Int) -> [[StyledText]] {
        guard rows >= 1 else { return [] }  // a short screen gives the paragraph the rows
        if rows == 1, state.chunks.indices.contains(state.selection) {  // the selected chunk alone, without the heads
            return [chunkRow(state.chunks[state.selection], selected: true, width: width)]
        }
        let visible = rows - 1
        guard !state.chunks.isEmpty else {
            return [[], [StyledText("   No chunks yet. Press r to record the first one.", .dim)]]
        }
        let top = max(0, min(state.selection - visible / 2, state.chunks.count - visible))
        let shown = state.chunks[top..<min(state.chunks.count, top + visible)]
        let range = shown.count < state.chunks.count ? "  \(top + 1)–\(top + shown.count) of \(state.chunks.count)" : ""
        var lines: [[StyledText]] = [[StyledText("     #  length      peak      level\(range)", .dim)]]
        for (offset, row) in shown.enumerated() {
            lines.append(chunkRow(row, selected: top + offset == state.selection, width: width))
        }
        return lines
    }

    static func chunkRow(_ row: StudioState.ChunkRow, selected: Bool, width: Int) -> [StyledText] {
        let number = "\(row.index)"
        let peak = row.missing ? "" : "\(row.peak.formatted) dB"
        let lead = "\(selected ? "▸" : " ") \(String(repeating: " ", count: max(0, 4 - number.count)))\(number)  \(Timecode.tenths(row.duration))  \(String(repeating: " ", count: max(0, 8 - peak.count)))\(peak)  "
        let mark = row.missing ? " ✗ missing" : row.recovered ? " ↺ recovered" : row.suggestedParagraph.map { " → ¶\($0)? m" }
            ?? (row.cuts > 0 ? " ✂ \(row.cuts) to cut" : "")
        let sparkWidth = max(0, width - lead.terminalColumns - 12)
        let style: StudioStyle = selected ? .selected : .plain
        if let hint = row.hints.first, !row.missing {
            // A flagged take shows its hint, with its words and time, where its levels were.
            let more = row.hints.count > 1 ? " (+\(row.hints.count - 1))" : ""
            let flag = Self.firstWords("⚑ \(shown(hint))\(more)", fitting: max(2, width - lead.terminalColumns - 1))
            return [StyledText(lead, style), StyledText(flag, selected ? .selected : .problem)]
        }
        let spark = row.missing ? String(repeating: " ", count: sparkWidth) : Sparkline.render(row.levels, width: sparkWidth)
        return [StyledText(lead, style), StyledText(spark, selected ? .selected : .meterGreen), StyledText(mark, selected ? .selected : .problem)]
    }

    /// The keys for the chunk list, the same with a text and without.
    private static let chunkKeys: [[StyledText]] = [
        [StyledText("   e i    ", .key), StyledText("re-record the selected chunk / record a new chunk before it")],
        [StyledText("   space  ", .key), StyledText("play from the selected chunk; pause and resume; + - volume, [ ] speed")],
        [StyledText("   Enter  ", .key), StyledText("play the selected chunk from its start, then on")],
        [StyledText("   ↑ ↓    ", .key), StyledText("select a chunk (PgUp PgDn Home End jump); playing: ← → ±1 s, PgUp PgDn ±5 s")],
        [StyledText("   x d    ", .key), StyledText("delete the selected chunk (asks first) / dismiss its ⚑ hint")],
        [StyledText("   c u    ", .key), StyledText("paused: fix a slip from there (hear 3 s, read on) / undo an edit")],
        [StyledText("   t      ", .key), StyledText("restarts to cut ✂: hear each as read and as cut, then cut or leave it")],
    ]

    private static let leaveKey: [StyledText] = [StyledText("   Esc    ", .key), StyledText("leave (Ctrl-C too); a take being recorded is kept")]
    private static let closesHelp: [StyledText] = [StyledText("   Any key closes this help.", .dim)]

    private static let help: [[StyledText]] =
        [[StyledText(" Keys", .heading)], [StyledText("   r      ", .key), StyledText("record a new chunk at the end; r again stops and keeps it")]]
        + chunkKeys + [
            [StyledText("   q s o  ", .key), StyledText("queue / submit (then the next article) / your articles, to open one")],
            leaveKey, [], closesHelp,
        ]

    /// The keys in an article with a text: the paragraph keys join them, the rest say as much
    /// in fewer lines.
    private static let helpWithText: [[StyledText]] = [
        [StyledText(" Keys", .heading)],
        [StyledText("   r      ", .key), StyledText("record the paragraph shown above; r again stops and keeps it")],
        [StyledText("   p n k  ", .key), StyledText("previous / next paragraph; k skips the shown one (k again: read it)")],
        [StyledText("   a      ", .key), StyledText("read the shown paragraph again (its old takes go to the trash)")],
    ] + chunkKeys + [
        [StyledText("   q s o  ", .key), StyledText("queue / submit (then the next article) / your articles, to open one")],
        leaveKey, closesHelp,
    ]

    private static func newArticle(_ form: NewArticleForm, canListArticles: Bool) -> [[StyledText]] {
        var lines: [[StyledText]] = [[StyledText(" New article", .heading)], []]
        for field in NewArticleForm.Field.allCases {
            let focused = form.focus == field
            lines.append([
                StyledText("\(focused ? " ▸ " : "   ")\(field.label.fitted(to: 13))", focused ? .key : .plain),
                StyledText(shown(form[field]) + (focused ? "▏" : ""), focused ? .selected : .plain),
            ])
        }
        lines.append([])
        lines.append([StyledText("   Tab or ↓ next field · Enter on Narrator starts the article · Esc \(canListArticles ? "your articles" : "leave")", .dim)])
        if let problem = form.problem { lines.append([StyledText("   \(shown(problem))", .problem)]) }
        return lines
    }

    /// The most lines a notice wraps to; the smallest screen still shows the selected chunk then.
    static let noticeLines = 3

    /// What just happened, wrapped to at most `noticeLines` lines (an error names its fix at the
    /// end, so it must not be cut), or the delete question.
    private static func notice(_ state: StudioState, width: Int, limit noticeLines: Int = noticeLines) -> [[StyledText]] {
        if case .confirmDelete(let index) = state.panel {
            let length = state.chunks.first { $0.index == index }.map { " (\(Timecode.tenths($0.duration)))" } ?? ""
            return [[StyledText(" Delete chunk \(index)\(length)? It goes to the trash. ", .problem),
                     StyledText("y", .key), StyledText(" yes, any other key no")]]
        }
        guard let notice = state.notice else { return [[]] }
        let style: StudioStyle = notice.isProblem ? .problem : .plain
        var lines = shown(notice.remedy.said(after: notice.text)).wrapped(to: width - 2)
        if lines.count > noticeLines {  // the rest goes on the last line, which the frame cuts with "…"
            lines = lines.prefix(noticeLines - 1) + [lines[(noticeLines - 1)...].joined(separator: " ")]
        }
        return lines.map { [StyledText(" \($0)", style)] }
    }

    private static func footer(_ state: StudioState) -> [[StyledText]] {
        func keys(_ pairs: [(String, String)]) -> [StyledText] {
            pairs.flatMap { [StyledText(" \($0.0)", .key), StyledText(" \($0.1) ")] }
        }
        // While restarts are proposed to cut, the key to them is on the first line.
        let cutsKey = state.cuts.isEmpty ? [] : [("t", "cuts")]
        switch state.panel {
        case .newArticle:
            return [keys([("Enter", "next field / start"), ("Tab", "next field"), ("Esc", state.canListArticles ? "articles" : "leave")]), []]
        case .articles(let list):
            return [
                keys([("↑↓", "choose"), ("Enter", "open"), ("n", "new article"), ("Esc", list.openArticle == nil ? "leave" : "back")]),
                [],
            ]
        case .chunks where state.isPreRolling:
            return [keys([("Esc", "cancel the fix"), ("?", "all keys")]), keys([("Ctrl-C", "leave")])]
        case .result:
            return [keys([("any key", "next article"), ("Esc", "leave")]), []]
        case .help:
            return [keys([("any key", "back")]), []]
        case .confirmSend:
            return [keys([("y", "yes"), ("any other key", "no")]), []]
        case .cuts where state.isListening:
            return [keys([("Esc", "stop"), ("l", "hear as read"), ("c", "hear as cut")]), keys([("y", "cut it"), ("n", "leave it"), ("a", "cut all")])]
        case .cuts:
            return [
                keys([("↑↓", "choose"), ("l", "hear as read"), ("c", "hear as cut"), ("y", "cut it"), ("n", "leave it")]),
                keys([("a", "cut all"), ("u", "undo"), ("Esc", "back")]),
            ]
        case .chunks where state.isPlaying:
            return [
                keys([("space", "pause/resume"), ("← →", "1 s"), ("PgUp PgDn", "5 s"), ("c", "correct from here"), ("?", "all keys")]),
                keys([("+ -", "volume"), ("[ ]", "speed"), ("Enter", "play selected"), ("u", "undo"), ("Esc", "leave")]),
            ]
        case .chunks where state.reading != nil, .confirmDelete where state.reading != nil:
            return [
                // With cuts proposed their key takes the place of space's (help lists it).
                keys([("r", "record/stop"), ("p n", "paragraph"), ("a", "read again")] + (cutsKey.isEmpty ? [("space", "play/pause")] : cutsKey) + [("?", "all keys")]),
                keys([("↑↓", "select"), ("x", "delete"), ("e", "re-record"), ("q", "queue"), ("s", "submit"), ("o", "articles"), ("Esc", "leave")]),
            ]
        case .chunks, .confirmDelete:
            return [
                keys([("r", "record/stop"), ("space", "play/pause")] + (cutsKey.isEmpty ? [("Enter", "play selected")] : []) + [("↑↓", "select")] + cutsKey + [("?", "all keys")]),
                keys([("x", "delete"), ("e", "re-record"), ("i", "insert"), ("q", "queue"), ("s", "submit"), ("o", "articles"), ("Esc", "leave")]),
            ]
        }
    }
}
