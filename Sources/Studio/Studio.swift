import Foundation
public import Narration
public import NarrationAudio
public import NarrationCore

/// The studio session: one article narrated from one screen. It routes what the keys ask to the
/// studio's parts and assembles `state`, the value the screen is drawn from:
/// - `StudioRecorder`: the take under way, punch-and-roll and its pre-roll, the microphone;
/// - `StudioPlayback`: the player, its volume and speed;
/// - `StudioReadingPlan`: the paragraph chosen, where the next take goes, the take check's hints
///   and the restarts it proposes to cut;
/// - `StudioCutListening`: a proposed cut heard as read or as cut before the volunteer decides;
/// - `StudioExport`: after each change, the export made ready and the take check;
/// - `StudioSending`: queue and submit, and the question about unread paragraphs;
/// - `StudioChunks`, `StudioArticles`: the open article's chunks, the form and the article list.
///
/// Not thread-safe: one loop calls `perform(_:)` and `tick()` and reads `state` (the terminal's
/// main thread; the web studio's session, run as blocking work). How the parts run beside it:
/// - audio on dedicated threads: a take's capture and writer (`Recording`), the player
///   (`QueuePlayer`); they publish what they did in lock-protected values;
/// - blocking work (a pre-roll, what follows a take, the export, the loudness check) through
///   `BlockingWork`, results handed back in a `Mutex` or awaited;
/// - queue and submit as one task on an executor of its own (`StudioWork`), the upload awaited;
/// - `tick()` polls them all, so nothing the session does waits on a semaphore; the waits left
///   are for a take's or the player's threads once they were told to stop, which they do within
///   one block, on the session's own thread, never in async code.
public final class Studio {
    public private(set) var state = StudioState()
    /// Where the next take comes from; a take under way keeps its own.
    public var microphone: Microphone {
        get { recorder.microphone }
        set { recorder.microphone = newValue }
    }
    /// While a take from the browser's microphone runs: where its audio goes.
    public var streamedInput: StreamedCapture? { recorder.streamedInput }
    /// The article being narrated, if one is open.
    public var openArticle: Article? { article }
    /// The open article's chunks in order: a front end that plays them itself (the web studio)
    /// knows from it when what it plays is out of date.
    public var chunkIDs: [ChunkID] { chunks.ids }
    /// True once the volunteer has left and everything running has stopped and been kept.
    public private(set) var isFinished = false

    private let library: NarrationLibrary
    private let options: Options
    private let clock: () -> Double
    private var article: Article?
    private var chunks = StudioChunks()
    private var reading = StudioReadingPlan()
    private let recorder: StudioRecorder
    /// Takes of the open article that pages upload, set aside until their page comes back.
    /// Each with the frames its partial file holds, read once when the list is read (a take set
    /// aside does not grow until its page resumes it).
    private var setAsideUploads: [(record: TakeUploadRecord, frames: FrameCount)] = []
    private let playback: StudioPlayback
    private let export: StudioExport
    private let sending: StudioSending
    private let devices: StudioDevices
    /// The proposed cut being heard, and which.
    private var listening: (cut: StudioState.Cut, asCut: Bool, preview: StudioCutListening)?
    private var leaveWhenDone = false

    /// Opens the studio on `article`, or on the new-article form when it is nil.
    /// - Parameter devices: where takes come from and playback goes (the front ends pass
    ///   `.alsa(options)`; tests pass in-memory ones).
    public init(
        library: NarrationLibrary, options: Options, devices: StudioDevices, article: Article?, clock: @escaping () -> Double = MonotonicClock.now
    ) {
        self.library = library
        self.options = options
        self.clock = clock
        self.devices = devices
        recorder = StudioRecorder(devices: devices)
        playback = StudioPlayback(devices: devices)
        export = StudioExport(library: library, profile: options.profile, language: options.language, checkQueue: options.checkQueue)
        sending = StudioSending(library: library, options: options)
        state.confirmsEverySend = options.confirmsEverySend
        if let article {
            open(article)
        } else {
            showNewArticleForm()
            if state.canListArticles { showArticles() }
        }
        if !library.notices.isEmpty { state.notice = .init(library.notices.joined(separator: " ")) }
    }

    /// Whether a take, or queue/submit, runs: the chunks are not changed then.
    private var isBusy: Bool { recorder.isRecording || sending.isWorking }

    // MARK: Actions

    /// Does what a key asked.
    public func perform(_ action: StudioAction) {
        switch action {
        case .toggleRecording:
            if recorder.isRecording { stopRecording() } else { startRecording(.append, reading: reading.chosen.map { .reread($0) }) }
        case .moveReading(let delta):
            moveReading(by: delta)
        case .readAgain:
            if let number = state.reading?.number { startRecording(.append, reading: .reread(number)) }
        case .rerecordSelected:
            if let index = state.selectedIndex { startRecording(.replace(index)) }
        case .insertBeforeSelected:
            if let index = state.selectedIndex { startRecording(.insert(before: index)) }
        case .playOrPause:
            if playback.isPlaying { playback.togglePause() } else { play(from: state.selectedIndex) }
        case .playSelected:
            stopPlaying()
            play(from: state.selectedIndex)
        case .seek(let seconds):
            playback.seek(by: seconds)
        case .punchIn:
            punchIn()
        case .undo:
            undo()
        case .changeVolume(let steps):
            state.notice = playback.changeVolume(by: steps)
        case .changeSpeed(let steps):
            state.notice = playback.changeSpeed(by: steps)
        case .select(let delta):
            if case .articles(let list) = state.panel { return state.panel = .articles(list.moved(by: delta)) }
            if case .cuts(let chosen) = state.panel { return chooseCut(chosen + delta) }
            select(state.selection + delta)
        case .selectFirst:
            if case .articles(let list) = state.panel { return state.panel = .articles(list.moved(by: -list.rows.count)) }
            if case .cuts = state.panel { return chooseCut(0) }
            select(0)
        case .selectLast:
            if case .articles(let list) = state.panel { return state.panel = .articles(list.moved(by: list.rows.count)) }
            if case .cuts = state.panel { return chooseCut(state.cuts.count - 1) }
            select(state.chunks.count - 1)
        case .askDelete:
            if let index = state.selectedIndex {
                stopPlaying()
                state.panel = .confirmDelete(index)
            }
        case .confirmDelete:
            deleteSelected()
        case .cancel:
            if case .confirmDelete = state.panel { state.notice = .init("Nothing was deleted.") }
            if case .confirmSend(let question) = state.panel { state.notice = .init(question.submitting ? "Nothing was sent." : "Nothing was queued.") }
            if case .cuts = state.panel { stopPlaying() }
            state.panel = .chunks
        case .toggleHelp:
            state.panel = state.panel == .help ? .chunks : .help
        case .queue:
            startSending(submitting: false)
        case .submit:
            startSending(submitting: true)
        case .askSend(let submitting):
            askSend(submitting: submitting)
        case .confirmSend:
            guard case .confirmSend(let question) = state.panel else { return }
            state.panel = .chunks
            startSending(submitting: question.submitting, sendingUnread: true)
        case .toggleSkip:
            toggleSkip()
        case .moveTakeToSuggested:
            moveTakeToSuggested()
        case .leave:
            leave()
        case .edit(let key):
            if case .newArticle(var form) = state.panel {
                form.edit(key)
                state.panel = .newArticle(form)
            }
        case .createArticle:
            createArticle()
        case .dismissResult:
            showNewArticleForm()
        case .showArticles:
            showArticles()
        case .openListedArticle(let id):
            openListed(id)
        case .showNewArticleForm:
            guard !isBusy else { return }
            stopPlaying()
            showNewArticleForm()
        case .closeArticles:
            if article != nil {
                state.panel = .chunks
                state.notice = nil
            } else {
                leave()
            }
        case .cancelFix:
            cancelFix()
        case .dismissHints:
            dismissSelectedHints()
        case .showCuts:
            showCuts()
        case .listenToCut(let take, let number, let asCut):
            listen(to: take, number, asCut: asCut)
        case .acceptCut(let take, let number):
            acceptCut(take, number)
        case .dismissCut(let take, let number):
            dismissCut(take, number)
        case .acceptAllCuts:
            acceptAllCuts()
        case .stopListening:
            stopPlaying()
        case .explain(let sentence):
            state.notice = .init(sentence)
        }
    }

    /// Collects what the recorder, the player and background work did since the last call:
    /// levels for the meter, positions, finished takes and results. Call 20 times a second.
    public func tick() {
        let now = clock()
        if let heard = recorder.poll(at: now) { show(heard, at: now) }
        showLiveUpload()
        if let heard = playback.poll() { show(heard, at: now) }
        pollListening()
        if let (stage, fraction, outcome) = sending.poll() {
            state.activity = .working(stage: stage, fraction: fraction)
            if let outcome { finishSending(outcome) }
        }
        if !recorder.isRecording { measureLevels(around: state.selection, limit: 4) }  // no file reading beside a take
        let exportReady = export.isReady(for: chunks.ids)
        if state.header != nil { state.header?.exportReady = !recorder.isRecording && exportReady }
        if let checks = export.takeFindings() {
            if !checks.isEmpty, !recorder.isRecording { reload() }  // the new hints mark their chunks
            // Hints never interrupt a take: while recording they wait.
            if let notice = reading.notice(for: checks, chunks: chunks) { state.notice = notice }
        }
        if let preRoll = recorder.expiredFrontEndPreRoll(at: now, grace: Self.preRollGrace) {
            state.activity = .ready
            showReading()
            state.notice = .init("The fix of chunk \(preRoll.chunk) was cancelled: its take did not start. The chunk is as it was.", isProblem: true)
        }
    }

    /// How long after its seconds have played a front end's pre-roll may wait for its take.
    static let preRollGrace = 10.0

    private func show(_ heard: StudioRecorder.Heard, at now: Double) {
        if let levels = heard.levels { meterUpdate(levels, peak: levels.map(\.peak).max() ?? .silence, at: now) }
        state.warning = heard.hasAudio ? recorder.warning(at: now) : nil
        if heard.preRolling, case .preRoll = state.activity {
            // the pre-roll still plays: the status says so, not "REC 00:00:00"
        } else {
            let wasPreRolling = state.isPreRolling
            state.activity = .recording(seconds: heard.seconds, placement: heard.placement)
            if wasPreRolling { showReading() }
        }
        if heard.mustStop {
            stopRecording()  // the device failed or the disk filled
        } else if heard.punched, state.notice?.text.hasPrefix("Playing the") == true {
            state.notice = .init("Recording from there. Press r to stop; the take is kept whatever happens.")
        }
    }

    private func show(_ heard: StudioPlayback.Heard, at now: Double) {
        let status = heard.status
        if let levels = heard.levels {
            meterUpdate(levels, peak: levels.map(\.peak).max() ?? .silence, at: now)
        } else if status.state == .paused {
            meterUpdate([.silent], peak: .silence, at: now)  // nothing is heard: the meter falls
        }
        if let ended = heard.ended { return showStopped(ended) }
        // Times are the article's, as chunk numbers are: where this chunk starts in the article
        // plus how far into it, out of the whole article.
        let format = heard.format
        state.activity = .playing(
            chunk: status.chunk, of: chunks.count, position: format.seconds(chunks.frames(before: status.chunk) + status.positionInChunk),
            total: format.seconds(chunks.totalFrames), paused: status.state == .paused, inChunk: format.seconds(status.positionInChunk))
        if let position = chunks.position(of: status.chunk) { state.selection = position }
        if let notice = heard.pauseChanged { state.notice = notice }
    }

    private func meterUpdate(_ levels: [ChannelLevel], peak: Decibels, at time: Double) {
        var meter = state.meter ?? MeterDisplay()
        meter.update(levels: levels, at: time)
        state.meter = meter
        state.peak = peak
    }

    // MARK: Article

    private func open(_ article: Article) {
        self.article = article
        reading.followText()
        export.open(article)
        reload()
        state.panel = .chunks
        state.selection = max(0, state.chunks.count - 1)
        measureLevels(around: state.selection, limit: 30)
        if !chunks.isEmpty { afterChange(checking: false) }
    }

    /// Starts what follows a change to the chunks in the background: measuring new chunks,
    /// making the export ready again, and (with `checking`) the take check.
    private func afterChange(checking: Bool) {
        guard let article else { return }
        export.afterChange(of: article, chunks: chunks.ids, checking: checking)
    }

    /// Reads the article's chunks again after anything changed them.
    private func reload() {
        guard let article else { return }
        do throws(NarrationError) {
            try chunks.load(article, library: library)
            try reading.load(article, library: library)
        } catch {
            state.notice = .init(error)
            showReading()
            return
        }
        let current = (try? library.article(article.id.rawValue)) ?? article
        state.header = .init(
            title: current.title, publication: current.publication, narrator: current.narrator, state: current.state,
            duration: article.format.seconds(chunks.totalFrames), chunkCount: chunks.count)
        state.chunks = chunks.rows(format: article.format, plan: reading)
        state.selection = min(max(0, state.selection), max(0, chunks.count - 1))
        state.cuts = reading.cuts(in: chunks)
        if case .cuts(let chosen) = state.panel {
            state.panel = state.cuts.isEmpty ? .chunks : .cuts(selection: min(chosen, state.cuts.count - 1))
        }
        state.unread = reading.unread
        setAsideUploads = ((try? library.uploads(into: article.id)) ?? []).filter { $0.key != recorder.upload?.key }.map {
            ($0, library.uploadedFrames($0, format: article.format))
        }
        showLiveUpload()
        showReading()
    }

    /// Fills the reading pane from the plan.
    private func showReading() {
        let fixing: Paragraph? = if case .preRoll(let preRoll) = state.activity { reading.paragraph(of: preRoll.chunk, chunks: chunks) } else { nil }
        state.reading = reading.reading(fixing: fixing, take: recorder.take, chunks: chunks)
    }

    private func moveReading(by delta: Int) {
        guard let current = state.reading, !recorder.isRecording else { return }
        if let notice = reading.move(from: current, by: delta) { return state.notice = notice }
        showReading()
        state.notice = nil
    }

    private func select(_ position: Int) {
        guard !state.chunks.isEmpty else { return }
        state.selection = min(max(0, position), state.chunks.count - 1)
    }

    /// Reads the level profiles of up to `limit` chunks near `position` that have none yet.
    private func measureLevels(around position: Int, limit: Int) {
        for (position, levels) in chunks.measure(around: position, limit: limit) where state.chunks.indices.contains(position) {
            state.chunks[position].levels = levels
        }
    }

    private func showNewArticleForm() {
        article = nil
        export.open(nil)
        chunks.clear()
        reading.clear()
        state = StudioState(panel: .newArticle(StudioArticles.form(options, library: library)))
        state.canListArticles = StudioArticles.any(in: library)
        state.confirmsEverySend = options.confirmsEverySend
    }

    /// Shows the articles, the open one selected (else the first), to go back to one.
    private func showArticles() {
        guard !isBusy else {
            state.notice = .init("Stop the take or wait for the work to finish first, then press o for the articles.")
            return
        }
        do throws(NarrationError) {
            let list = try StudioArticles.list(library, open: article)
            stopPlaying()
            state.panel = .articles(list)
            state.notice = list.rows.isEmpty ? .init("No articles yet: press n to start one.") : nil
        } catch {
            state.notice = .init(error)
        }
    }

    /// Opens the article chosen in the list (the open one: back to it as it was).
    private func openListed(_ id: ArticleID) {
        guard !isBusy else { return }
        if let article, article.id == id {
            state.panel = .chunks
            state.notice = nil
            return
        }
        do throws(NarrationError) {
            let (chosen, notice) = try StudioArticles.choose(id, in: library)
            open(chosen)
            state.notice = notice
        } catch {
            state.notice = .init(error)
        }
    }

    private func createArticle() {
        guard case .newArticle(var form) = state.panel else { return }
        if let problem = NewArticleForm.problem(publication: form.publication, narrator: form.narrator) {
            form.problem = problem
            form.focus = form.firstEmptyCredit ?? form.focus
            state.panel = .newArticle(form)
            return
        }
        do throws(NarrationError) {
            let article = try library.newArticle(title: form.title, publication: form.publication, narrator: form.narrator, format: options.format)
            open(article)
            state.notice = .init("Started \"\(article.title)\". Press r to record the first chunk.")
        } catch {
            form.problem = error.message
            state.panel = .newArticle(form)
        }
    }

    // MARK: Recording

    /// Starts a take; in an article with a text, `choice` says which paragraph it reads (nil:
    /// the next one for a new chunk, the chunk's own for a re-recorded or inserted one).
    private func startRecording(_ placement: ChunkPlacement, reading choice: ReadingPlan.Choice? = nil) {
        guard let article, !isBusy else { return }
        guard recorder.frontEndPreRoll == nil else {
            state.notice = .init("A slip is being fixed: its take starts by itself after the seconds before it. Esc cancels the fix.", isProblem: true)
            return
        }
        stopPlaying()
        export.pauseForTake()
        beginTake(
            in: article, placement: placement, reading: choice,
            shown: placement == .append ? reading.whereTakeGoes(choice ?? .next, title: article.title, chunks: chunks) : placement,
            notice: "Recording. Press r to stop; the take is kept whatever happens.")
    }

    /// Starts a take from the studio's microphone and shows it as going to `shown`.
    /// - Returns: whether it started (else the notice says why).
    @discardableResult
    private func beginTake(
        in article: Article, placement: ChunkPlacement, reading choice: ReadingPlan.Choice? = nil, punch: PunchRequest? = nil,
        shown: ChunkPlacement, notice: String
    ) -> Bool {
        do throws(NarrationError) {
            try recorder.begin(in: article, placement: placement, reading: choice, punch: punch, shown: shown, library: library)
        } catch {
            state.notice = .init(error)
            return false
        }
        showReading()
        state.meter = MeterDisplay()
        state.peak = nil
        state.activity = .recording(seconds: 0, placement: shown)
        state.notice = .init(notice)
        return true
    }

    private func stopRecording() {
        guard let ended = recorder.stop() else { return }
        let outcome = ended.outcome
        if outcome.chunk != nil { reading.followText() }  // the pane follows on to the next paragraph
        state.activity = .ready
        state.meter = nil
        state.warning = nil
        reload()
        if outcome.chunk != nil { afterChange(checking: options.checksTakes && outcome.paragraph != nil) }
        let report = TakeReport(outcome, detail: .brief)
        if let index = outcome.index, let chunk = outcome.chunk {
            state.selection = index.position
            let levels = chunks.measureTake(chunk.id, file: outcome.file)
            state.chunks[index.position].levels = levels
        }
        if let saved = report.saved {
            let note = outcome.withdrawn.map { " " + WithdrawnExport.sentence($0, title: article?.title ?? "") } ?? ""
            state.notice = .init(saved + note)
        }
        if let stopped = report.stopped {
            state.notice = .init(stopped, isProblem: true)
        } else if let empty = report.empty {
            state.notice = .init(empty)
        }
        if let deferred = outcome.deferredBecause {
            state.notice = .init("\(deferred.message) The take is safe and will be added the next time narrate opens the article.", isProblem: true)
        }
        if let punchFailure = ended.punchFailure { state.notice = .init(punchFailure) }
    }

    /// Punch-and-roll at the playing position: playing stops, the seconds before it play again,
    /// and the take records over the chunk from there.
    private func punchIn() {
        guard let article, let (chunk, seconds) = playback.position, !isBusy else { return }
        stopPlaying()
        do throws(NarrationError) {
            let lead = try recorder.beginAfterPreRoll(in: article, chunk, at: seconds, library: library)
            state.selection = chunk.position
            state.meter = MeterDisplay()
            state.peak = nil
            let preRoll = StudioState.PreRoll(chunk: chunk, at: seconds, lead: lead, words: reading.wordsToReadOn(chunk, at: seconds, chunks: chunks))
            state.activity = .preRoll(preRoll)
            showReading()
            state.notice = .init(preRoll.sentence + " Esc cancels the fix.")
        } catch {
            state.notice = .init(error)
        }
    }

    /// Cancels a punch-and-roll during its pre-roll: no take starts, the chunk stays as it was.
    private func cancelFix() {
        guard case .preRoll(let preRoll) = state.activity else { return }
        if recorder.frontEndPreRoll != nil {
            recorder.endFrontEndPreRoll()
            state.activity = .ready
            showReading()
        } else {
            stopRecording()  // the take has not started: nothing is kept
        }
        state.notice = .init("The fix is cancelled: chunk \(preRoll.chunk) is as it was.")
    }

    // MARK: Playing

    private func play(from index: ChunkIndex?) {
        guard let article, !isBusy else { return }
        if listening != nil { stopPlaying() }  // one thing plays at a time
        let notice = playback.play(article, from: index, library: library)
        if playback.isPlaying {
            state.meter = MeterDisplay()
            state.peak = nil
        }
        state.notice = notice
    }

    private func stopPlaying() {
        if let stopped = playback.stop() { showStopped(stopped) }
        if let (cut, _, preview) = listening {
            preview.stop()
            listening = nil
            state.activity = .ready
            state.notice = .init("Stopped hearing chunk \(cut.chunk) at \(StudioEdits.seconds(cut.start)).")
        }
    }

    private func showStopped(_ notice: StudioState.Notice) {
        state.activity = .ready
        state.meter = nil
        state.notice = notice
    }

    // MARK: Editing

    /// Reads the article again after an edit and shows what it did.
    private func show(_ done: StudioEdits.Done) {
        if done.followsText { reading.followText() }
        reload()
        if let position = done.select { select(position) }
        if let checking = done.afterChange { afterChange(checking: checking) }
        state.notice = done.notice
    }

    /// Takes back the article's last edit and says which.
    private func undo() {
        guard let article, !isBusy else { return }
        stopPlaying()
        do throws(NarrationError) {
            show(try StudioEdits.undo(article, library: library))
        } catch {
            state.notice = .init(error)
        }
    }

    private func deleteSelected() {
        guard let article, case .confirmDelete(let index) = state.panel else { return }
        state.panel = .chunks
        do throws(NarrationError) {
            let (done, chunk) = try StudioEdits.delete(index, shown: chunks.entry(at: index.position)?.chunk.id, of: article, library: library)
            chunks.forget(chunk)
            show(done)
        } catch {
            reload()  // the list as it is now, when another command changed it
            state.notice = .init(error)
        }
    }

    /// Skips the paragraph the reading pane shows, or unskips it when it is skipped. A skipped
    /// paragraph the pane followed the text to gives way to the next.
    private func toggleSkip() {
        guard let article, let shown = state.reading, !recorder.isRecording else { return }
        do throws(NarrationError) {
            show(try StudioEdits.skip(shown.number, skipping: !shown.isSkipped, of: article, library: library))
        } catch {
            state.notice = .init(error)
        }
    }

    /// Puts the selected take on the paragraph the take check says it sounds like.
    private func moveTakeToSuggested() {
        guard let article, !isBusy, state.chunks.indices.contains(state.selection),
            let paragraph = state.chunks[state.selection].suggestedParagraph
        else { return }
        stopPlaying()
        do throws(NarrationError) {
            show(try StudioEdits.move(state.chunks[state.selection].index, toParagraph: paragraph, of: article, library: library))
        } catch {
            state.notice = .init(error)
        }
    }

    // MARK: Proposed cuts

    /// Shows the restarts the take check proposes to cut, the first of the selected chunk's
    /// chosen (else the first of all).
    private func showCuts() {
        guard !state.cuts.isEmpty, !isBusy else { return }
        stopPlaying()
        let selected = state.selectedIndex
        state.panel = .cuts(selection: state.cuts.firstIndex { $0.chunk == selected } ?? 0)
        state.notice = nil
    }

    private func chooseCut(_ position: Int) {
        guard !state.cuts.isEmpty else { return }
        let chosen = min(max(0, position), state.cuts.count - 1)
        state.panel = .cuts(selection: chosen)
        if let position = chunks.position(of: state.cuts[chosen].chunk) { state.selection = position }
    }

    /// The open cut `number` of the take `take`, as the state shows it; nil (and the notice says
    /// why) when it was made or left meanwhile, here or elsewhere.
    private func openCut(_ take: ChunkID, _ number: Int) -> StudioState.Cut? {
        guard let cut = state.cuts.first(where: { $0.take == take && $0.number == number }) else {
            state.notice = .init("That cut was made or left already, or its chunk changed: the list shows the cuts as they are now.", isProblem: true)
            return nil
        }
        return cut
    }

    /// Plays the seconds around a proposed cut through the studio's speaker, as read or as cut.
    private func listen(to take: ChunkID, _ number: Int, asCut: Bool) {
        guard let article, !isBusy, let cut = openCut(take, number) else { return }
        stopPlaying()
        let preview = StudioCutListening(library: library, article: article, take: take, number: number, asCut: asCut, output: devices.playback)
        listening = (cut, asCut, preview)
        state.activity = .listening(cut, asCut: asCut)
        let around = StudioEdits.seconds(StudioCutListening.context)
        state.notice = .init(
            asCut
                ? "Hearing chunk \(cut.chunk) at \(StudioEdits.seconds(cut.start)) as it would be cut: \(around) before and after. Esc stops."
                : "Hearing chunk \(cut.chunk) at \(StudioEdits.seconds(cut.start)) as read: \(around) before the restart, the restart, \(around) after. Esc stops.")
    }

    /// Collects how the cut being heard ended.
    private func pollListening() {
        guard let (cut, asCut, preview) = listening, preview.isOver else { return }
        listening = nil
        state.activity = .ready
        if let error = preview.error {
            state.notice = .init(error)
        } else {
            state.notice = .init(
                "Heard chunk \(cut.chunk) at \(StudioEdits.seconds(cut.start)) \(asCut ? "as cut" : "as read"). y cuts it, n leaves it as it is.")
        }
    }

    private func acceptCut(_ take: ChunkID, _ number: Int) {
        guard let article, !isBusy, openCut(take, number) != nil else { return }
        stopPlaying()
        do throws(NarrationError) {
            show(try StudioEdits.acceptCut(number, of: take, in: article, library: library))
        } catch {
            reload()  // the cuts as they are now, when another command changed them
            state.notice = .init(error)
        }
    }

    private func acceptAllCuts() {
        guard let article, !isBusy, !state.cuts.isEmpty else { return }
        stopPlaying()
        do throws(NarrationError) {
            show(try StudioEdits.acceptAllCuts(of: article, library: library))
        } catch {
            reload()
            state.notice = .init(error)
        }
    }

    private func dismissCut(_ take: ChunkID, _ number: Int) {
        guard article != nil, let cut = openCut(take, number) else { return }
        if listening?.cut == cut { stopPlaying() }
        do throws(NarrationError) {
            show(try StudioEdits.dismissCut(cut, library: library))
        } catch {
            state.notice = .init(error)
        }
    }

    private func dismissSelectedHints() {
        guard article != nil, let entry = chunks.entry(at: state.selection) else { return }
        do throws(NarrationError) {
            show(try StudioEdits.dismissHints(of: entry, library: library))
        } catch {
            state.notice = .init(error)
        }
    }

    // MARK: Queue and submit

    /// Asks before queueing or sending, naming the paragraphs that would go out unread. An
    /// article without chunks, or submit without a destination, is said at once instead.
    private func askSend(submitting: Bool) {
        guard let article, !isBusy else { return }
        guard let question = sending.question(about: article, hasChunks: !chunks.isEmpty, unread: reading.unread, submitting: submitting) else {
            return startSending(submitting: submitting)
        }
        stopPlaying()
        state.panel = .confirmSend(question)
    }

    /// Sends the open article to listeners through `deliver` instead of the studio's own submit
    /// (a reading service's delivery, which its desk judges): it runs in the background as submit
    /// does, the screen showing it at work, and ends on submit's result screen with `deliver`'s
    /// lines, or with a notice of why it was not sent (the article stays open).
    public func submit(through deliver: @escaping @Sendable () async -> Result<[String], NarrationError>) {
        guard let article, !isBusy else { return }
        stopPlaying()
        sending.start(article.title, through: deliver)
        state.activity = .working(stage: "Sending", fraction: 0)
        state.notice = nil
    }

    /// - Parameter sendingUnread: the volunteer said to send it with paragraphs unread.
    private func startSending(submitting: Bool, sendingUnread: Bool = false) {
        guard let article, !isBusy else { return }
        stopPlaying()
        if let refused = sending.start(article, hasChunks: !chunks.isEmpty, submitting: submitting, sendingUnread: sendingUnread, ready: export.forQueue) {
            state.notice = refused
            return
        }
        state.activity = .working(stage: "Exporting", fraction: 0)
        state.notice = nil
    }

    private func finishSending(_ outcome: StudioWork.Outcome) {
        state.activity = .ready
        if leaveWhenDone {
            isFinished = true
            return
        }
        switch outcome {
        case .notQueued(let sentence):
            state.notice = .init(sentence, isProblem: true)
            return
        case .queued(let heading, let lines, let remedy):
            state.panel = .result(heading: heading, lines: lines, remedy: remedy)
        }
        state.header = nil
        state.chunks = []
        state.reading = nil
        reading.followText()
        article = nil
    }

    // MARK: Leaving

    private func leave() {
        endTakeForLeaving()
        stopPlaying()
        if sending.isWorking {
            leaveWhenDone = true
            state.notice = .init("Leaving as soon as the export or upload is done.")
            return
        }
        isFinished = true
    }

    // MARK: What front ends call

    /// The browser whose microphone a take records went away (its tab closed, its network
    /// dropped): the take stops with what reached the studio, and is kept.
    public func streamedInputWentAway() {
        recorder.streamedInputWentAway()
    }

    // MARK: Takes a page uploads

    /// The next take from the browser's microphone is uploaded by its page under `tag` (the
    /// page names it before it starts): call just before the key or punch that starts it.
    public func nameNextBrowserTake(_ tag: TakeUploadTag?) {
        recorder.nextUpload = tag
    }

    /// The key of the uploaded take recording now.
    public var browserTakeUpload: TakeUploadTag? { recorder.upload }

    /// The page stopped the take it uploads at `frame` frames: the take ends, and is committed,
    /// once every frame up to there has come (or at what came, when that is more). False when
    /// another length was given before.
    public func endBrowserTake(atFrame frame: FrameCount) -> Bool {
        guard recorder.upload != nil, let stream = recorder.streamedInput else { return false }
        guard stream.end(atFrame: frame) else { return false }
        if recorder.isUnfinishedUpload {
            state.notice = .init("Stopped. The rest of the take is on its way from this page: nothing is lost.")
        }
        return true
    }

    /// The page uploading the take under way went away: the take is set aside with what
    /// arrived, for the page to finish when it comes back; the studio is free meanwhile.
    public func setAsideBrowserTake() {
        guard recorder.isUnfinishedUpload, let (_, frames) = recorder.setAside(), let article else { return }
        state.activity = .ready
        state.meter = nil
        state.warning = nil
        reload()
        state.notice = .init(
            "The page recording a take went away with \((article.format.seconds(frames) * 10).rounded() / 10) s of it on the server: the take is kept, and the page sends the rest when it comes back.")
    }

    /// A page came back with a take it uploads that was set aside: the take records on from
    /// what its file holds. Refused while another take or work runs (the page asks again).
    public func resumeBrowserTake(_ tag: TakeUploadTag) throws(NarrationError) {
        guard let article else { throw .usage("No article is open.") }
        guard !isBusy, recorder.frontEndPreRoll == nil else { throw .usage("Another take or work runs in this article: the page sends the rest of its take after it.") }
        stopPlaying()
        export.pauseForTake()
        try recorder.resume(tag, in: article, library: library)
        setAsideUploads.removeAll { $0.record.key == tag.key }
        showReading()
        state.meter = MeterDisplay()
        state.peak = nil
        state.activity = .recording(seconds: recorder.poll(at: clock())?.seconds ?? 0, placement: .append)
        state.notice = .init("The page is sending the rest of its take.")
    }

    /// Sets aside a take still uploading instead of committing half of it; any other take is
    /// stopped and kept.
    private func endTakeForLeaving() {
        if recorder.isUnfinishedUpload { setAsideBrowserTake() } else { stopRecording() }
    }

    /// The uploads in the state: the live take's progress, then the takes set aside.
    private func showLiveUpload() {
        var uploads: [StudioState.Upload] = []
        if let article {
            let format = article.format
            if let tag = recorder.upload, let take = recorder.take, let stream = recorder.streamedInput {
                let received = stream.receivedFrames
                uploads.append(.init(key: tag.key, receivedFrames: received, durableFrames: take.status.durableFrames, seconds: format.seconds(received), isLive: true))
            }
            for (record, frames) in setAsideUploads {
                uploads.append(.init(key: record.key, receivedFrames: frames, durableFrames: frames, seconds: format.seconds(frames), isLive: false))
            }
        }
        if uploads != state.uploads { state.uploads = uploads }
    }

    /// Opens `article` (made by a front end, e.g. the web studio's form), leaving what was open:
    /// a take is stopped and kept, playback stops.
    public func openArticle(_ article: Article) {
        guard !sending.isWorking else {
            state.notice = .init("Wait a moment: the article is being exported or sent.", isProblem: true)
            return
        }
        endTakeForLeaving()
        stopPlaying()
        open(article)
    }

    /// Selects the chunk at `position` (0-based) in the list.
    public func select(position: Int) {
        select(position)
    }

    /// Reads the article again after another command changed the catalog (a chunk deleted from a
    /// terminal): the selection stays on the chunk it was on, and a delete waiting for its
    /// confirmation is called off, since the chunk it named may be another now. Nothing is read
    /// while a take or queue/submit runs; call again after it.
    /// - Returns: whether it was read (false: busy, call again later).
    @discardableResult
    public func reloadAfterOutsideChange() -> Bool {
        guard article != nil else { return true }
        guard !isBusy else { return false }
        let before = chunks.ids
        let selected = chunks.entry(at: state.selection)?.chunk.id
        reload()
        let after = chunks.ids
        guard after != before else { return true }
        stopPlaying()
        if let selected, let position = after.firstIndex(of: selected) { state.selection = position }
        if case .confirmDelete = state.panel {
            state.panel = .chunks
            state.notice = .init("Another narrate command changed the chunks, so nothing was deleted: look at the list again.", isProblem: true)
        } else {
            state.notice = .init("Another narrate command changed the chunks: the list shows them as they are now.")
        }
        afterChange(checking: false)
        return true
    }

    /// Punch-and-roll from a front end that played the seconds before the point itself (the web
    /// studio plays them in the browser): the take records over chunk `index` from `seconds` at once.
    public func punch(_ index: ChunkIndex, at seconds: Double) {
        guard let article, !isBusy else { return }
        if let (preRoll, _) = recorder.frontEndPreRoll, preRoll.chunk != index {
            state.notice = .init("A fix of chunk \(preRoll.chunk) is under way: finish or cancel it first.", isProblem: true)
            return
        }
        recorder.endFrontEndPreRoll()
        state.activity = .ready
        stopPlaying()
        export.pauseForTake()
        let started = beginTake(
            in: article, placement: .append, punch: PunchRequest(index: index, seconds: seconds), shown: .replace(index),
            notice: "Correcting chunk \(index) from \(Timecode.tenths(seconds)): read on. Press r to stop.")
        if started { state.selection = index.position }
    }

    /// A front end that plays a punch-and-roll's pre-roll itself (the web studio's page) starts
    /// it here: until `punch(_:at:)` or `cancelFix`, the studio shows the pre-roll and the
    /// paragraph being fixed, and no other take can start. One that never follows is cancelled
    /// `preRollGrace` seconds after its lead.
    public func beginPreRoll(_ index: ChunkIndex, at seconds: Double, lead: Double) {
        guard article != nil, !isBusy, recorder.frontEndPreRoll == nil else {
            state.notice = .init(recorder.isRecording ? "Stop the take first, then fix the slip." : "Wait for what runs to finish, then fix the slip.")
            return
        }
        guard chunks.entry(at: index.position) != nil else {
            state.notice = .init("There is no chunk \(index) to correct.", isProblem: true)
            return
        }
        stopPlaying()
        let preRoll = StudioState.PreRoll(chunk: index, at: seconds, lead: min(max(0, lead), 60), words: reading.wordsToReadOn(index, at: seconds, chunks: chunks))
        recorder.beginFrontEndPreRoll(preRoll, at: clock())
        state.activity = .preRoll(preRoll)
        state.selection = index.position
        showReading()
        state.notice = .init(preRoll.sentence)
    }
}
