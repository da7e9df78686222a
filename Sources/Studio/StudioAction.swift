public import NarrationCore

/// What a key asks the studio to do. `StudioState.action(for:)` decides, from what the screen
/// shows, which action a key means; the session, `Studio`, carries it out.
public enum StudioAction: Sendable, Equatable {
    /// `r`: start a new chunk at the end (in an article with a text, reading the paragraph the
    /// pane shows), or stop the take being recorded.
    case toggleRecording
    /// `p` `n`: move the reading pane to the previous or next paragraph of the text.
    case moveReading(by: Int)
    /// `a`: read the paragraph the pane shows again (its takes go to the trash); one never read
    /// is simply read.
    case readAgain
    /// `e`: re-record the selected chunk.
    case rerecordSelected
    /// `i`: record a new chunk before the selected one.
    case insertBeforeSelected
    /// Space: play from the selected chunk, or pause / resume what is playing.
    case playOrPause
    /// Enter: play from the selected chunk, from its start.
    case playSelected
    /// While playing or paused, ← → move the playing position by 1 s, PgUp PgDn by 5 s.
    case seek(seconds: Double)
    /// ↑ ↓ PgUp PgDn: move the selection by this many chunks.
    case select(by: Int)
    case selectFirst, selectLast
    /// `c` while playing or paused: punch-and-roll at the playing position (hear the seconds
    /// before it, then record over the chunk from there).
    case punchIn
    /// `u`: take back the article's last edit.
    case undo
    /// `+` `-` while playing: the volume up or down a step (3 dB, never above the recording).
    case changeVolume(by: Int)
    /// `]` `[` while playing: the speed up or down a step (0.5…2, the pitch kept).
    case changeSpeed(by: Int)
    /// `x`: ask whether to delete the selected chunk.
    case askDelete
    /// `y` after `x`.
    case confirmDelete
    /// Anything else after `x`, or closing help.
    case cancel
    case queue
    case submit
    /// `q` `s`: ask before queueing or sending (always in the terminal, where q reads as
    /// "quit"; elsewhere when paragraphs are unread), naming what is unread.
    case askSend(submitting: Bool)
    /// `y` on the question: queue or send as it is, unread paragraphs and all.
    case confirmSend
    /// `k`: skip the paragraph the reading pane shows (it is not read), or read it after all.
    case toggleSkip
    /// `m`: put the selected take on the paragraph the take check says it sounds like.
    case moveTakeToSuggested
    case toggleHelp
    /// Esc or Ctrl-C: stop what runs (a take is kept) and leave.
    case leave
    /// A key typed into the new-article form.
    case edit(KeyPress)
    /// Enter on the form's last field.
    case createArticle
    /// Any key after a queue or submit result: on to the next article.
    case dismissResult
    /// `o`: the list of articles, to go back to one (Esc in the new-article form too).
    case showArticles
    /// Enter on a row of the article list: open that article.
    case openListedArticle(ArticleID)
    /// `n` in the article list: the new-article form.
    case showNewArticleForm
    /// Esc in the article list: back to the article that was open, or leave when none was.
    case closeArticles
    /// Esc during a punch-and-roll's pre-roll: no take starts, the chunk stays as it was.
    case cancelFix
    /// `d`: the selected take's check hints are heard and fine: they are dismissed for good.
    case dismissHints
    /// `t`: the restarts the take check proposes to cut, to hear and decide one by one.
    case showCuts
    /// `l` (as read) and `c` (as cut) on the cuts: the seconds around a proposed cut play
    /// through the studio's speaker. `take` and `number` name the cut (`StudioState.Cut`).
    case listenToCut(take: ChunkID, number: Int, asCut: Bool)
    /// `y` on the cuts: cut it (one edit, which undo takes back).
    case acceptCut(take: ChunkID, number: Int)
    /// `n` on the cuts: the take is right there: leave it as it is, for good.
    case dismissCut(take: ChunkID, number: Int)
    /// `a` on the cuts: cut every restart proposed, one edit per take.
    case acceptAllCuts
    /// Esc while a cut's surroundings play: they stop.
    case stopListening
    /// A key that does nothing now; the sentence says why.
    case explain(String)
}

extension StudioState {
    /// What `key` means on the screen as it is; nil for keys that mean nothing here.
    public func action(for key: KeyPress) -> StudioAction? {
        if key == .interrupt { return .leave }
        if key == .resize { return nil }  // the screen redraws at its new size by itself
        switch panel {
        case .newArticle(let form):
            switch key {
            case .escape: return canListArticles ? .showArticles : .leave
            case .enter where form.onLastField: return .createArticle
            default: return .edit(key)
            }
        case .confirmDelete:
            return key == .character("y") || key == .character("Y") ? .confirmDelete : .cancel
        case .confirmSend:
            return key == .character("y") || key == .character("Y") ? .confirmSend : .cancel
        case .help:
            return .cancel
        case .result:
            return key == .escape ? .leave : .dismissResult
        case .articles(let list):
            return articleListAction(for: key, list)
        case .cuts:
            return cutsAction(for: key)
        case .chunks:
            if isPreRolling { return preRollAction(for: key) }
            return chunkListAction(for: key)
        }
    }

    /// The keys of the article list.
    private func articleListAction(for key: KeyPress, _ list: ArticleList) -> StudioAction? {
        switch key {
        case .escape: return .closeArticles
        case .up: return .select(by: -1)
        case .down: return .select(by: 1)
        case .pageUp: return .select(by: -10)
        case .pageDown: return .select(by: 10)
        case .home: return .selectFirst
        case .end: return .selectLast
        case .character("n"), .character("N"): return .showNewArticleForm
        case .enter:
            guard let row = list.selected else { return .showNewArticleForm }
            guard row.canOpen else { return .explain("“\(row.title)” is pruned: its recordings were removed, so it cannot be opened.") }
            return .openListedArticle(row.id)
        default: return .explain("↑ ↓ choose an article, Enter opens it, n starts a new one, Esc goes back.")
        }
    }

    /// The keys of the cuts: choose one, hear it as read or as cut, cut it or leave it.
    private func cutsAction(for key: KeyPress) -> StudioAction? {
        switch key {
        case .escape: return isListening ? .stopListening : .cancel
        case .up: return .select(by: -1)
        case .down: return .select(by: 1)
        case .pageUp: return .select(by: -10)
        case .pageDown: return .select(by: 10)
        case .home: return .selectFirst
        case .end: return .selectLast
        case .character("u"), .character("U"): return .undo
        case .character("a"), .character("A"): return cuts.isEmpty ? .cancel : .acceptAllCuts
        default: break
        }
        guard let cut = chosenCut else { return .cancel }
        switch key {
        case .character("l"), .character("L"), .enter: return .listenToCut(take: cut.take, number: cut.number, asCut: false)
        case .character("c"), .character("C"): return .listenToCut(take: cut.take, number: cut.number, asCut: true)
        case .character("y"), .character("Y"): return .acceptCut(take: cut.take, number: cut.number)
        case .character("n"), .character("N"), .character("d"), .character("D"): return .dismissCut(take: cut.take, number: cut.number)
        default:
            return .explain("↑ ↓ choose a cut; l hears it as read, c as cut; y cuts it, n leaves it; a cuts them all; Esc goes back.")
        }
    }

    /// During a pre-roll only Esc (cancel the fix) does something: the take starts by itself.
    private func preRollAction(for key: KeyPress) -> StudioAction? {
        switch key {
        case .escape: return .cancelFix
        case .character("?"): return .toggleHelp
        default: return .explain("Listen: the take starts by itself after the seconds before the slip. Esc cancels the fix.")
        }
    }

    private func chunkListAction(for key: KeyPress) -> StudioAction? {
        switch key {
        case .escape: return .leave
        case .up: return .select(by: -1)
        case .down: return .select(by: 1)
        case .pageUp where !isPlaying: return .select(by: -10)
        case .pageDown where !isPlaying: return .select(by: 10)
        case .home: return .selectFirst
        case .end: return .selectLast
        case .character("?"): return .toggleHelp
        default: break
        }
        if isWorking { return .explain("Wait a moment: the article is being exported or sent.") }
        if isRecording {
            switch key {
            case .character("r"), .character("R"): return .toggleRecording
            case .character(" "), .enter: return .explain("Recording: press r to stop first.")
            default: return .explain("Recording: press r to stop, then \(describe(key)).")
            }
        }
        switch key {
        case .character("r"), .character("R"):
            if reading?.standing == .allRead {
                return .explain("Every paragraph is read. Press p or n to move to one, then a to read it again.")
            }
            return .toggleRecording
        case .character("p"), .character("P"), .character("n"), .character("N"):
            guard reading != nil else { return .explain("This article has no text, so there are no paragraphs to move through.") }
            return .moveReading(by: key == .character("p") || key == .character("P") ? -1 : 1)
        case .character("a"), .character("A"):
            guard reading != nil else { return .explain("This article has no text, so there is no paragraph to read again; press r to record.") }
            return .readAgain
        case .character(" "): return .playOrPause
        case .enter: return .playSelected
        case .character("c"), .character("C"):
            guard isPlaying else {
                return .explain("To correct a slip: play the chunk and pause where it went wrong (← → move 1 s, PgUp PgDn 5 s), then press c to read on from there.")
            }
            return .punchIn
        case .character("u"), .character("U"): return .undo
        case .character("+"), .character("="), .character("-"):
            guard isPlaying else { return .explain("Volume and speed change while playing: press space to play.") }
            return .changeVolume(by: key == .character("-") ? -1 : 1)
        case .character("["), .character("]"):
            guard isPlaying else { return .explain("Volume and speed change while playing: press space to play.") }
            return .changeSpeed(by: key == .character("[") ? -1 : 1)
        case .left where isPlaying: return .seek(seconds: -1)
        case .right where isPlaying: return .seek(seconds: 1)
        case .pageUp where isPlaying: return .seek(seconds: -5)
        case .pageDown where isPlaying: return .seek(seconds: 5)
        case .character("o"), .character("O"): return .showArticles
        case .character("t"), .character("T"):
            guard !cuts.isEmpty else {
                return .explain("The take check proposes no cut: it found no place where words were read again.")
            }
            return .showCuts
        case .character("d"), .character("D"):
            guard let row = chunks.indices.contains(selection) ? chunks[selection] : nil, !row.hints.isEmpty else {
                return .explain("The selected chunk has no hint to dismiss; a flagged chunk is marked ⚑.")
            }
            return .dismissHints
        case .character("x"), .character("X"), .delete: return chunks.isEmpty ? .explain("There are no chunks to delete yet.") : .askDelete
        case .character("e"), .character("E"): return chunks.isEmpty ? .explain("There is no chunk to re-record yet; press r to record one.") : .rerecordSelected
        case .character("i"), .character("I"): return chunks.isEmpty ? .explain("There is no chunk to insert before; press r to record one.") : .insertBeforeSelected
        case .character("q"), .character("Q"): return confirmsEverySend || unread != nil ? .askSend(submitting: false) : .queue
        case .character("s"), .character("S"): return confirmsEverySend || unread != nil ? .askSend(submitting: true) : .submit
        case .character("k"), .character("K"):
            guard reading != nil else { return .explain("This article has no text, so there is no paragraph to skip.") }
            return .toggleSkip
        case .character("m"), .character("M"):
            guard chunks.indices.contains(selection), chunks[selection].suggestedParagraph != nil else {
                return .explain("The take check suggests no other paragraph for this chunk; m moves a take it says sounds like another.")
            }
            return .moveTakeToSuggested
        default: return nil
        }
    }

    private func describe(_ key: KeyPress) -> String {
        if case .character(let character) = key { return "press \(character)" }
        return "try again"
    }
}
