import Foundation
public import Narration
public import NarrationAudio
public import NarrationCore

/// The studio session: one article narrated from one screen. It carries out what the keys ask
/// (record, play, delete, queue, submit, start the next article) with the engine's parts, and
/// keeps `state`, the value the screen is drawn from.
///
/// Not thread-safe: one loop calls `perform(_:)` and `tick()` and reads `state`. The recorder,
/// the player and queue/submit run on threads of their own; `tick()` collects what they did.
public final class Studio {
    /// What the studio works with, from the command line and config.toml.
    public struct Options: Sendable {
        public var captureDevice: String
        public var playbackDevice: String
        public var profile: DeliveryProfile
        /// Where submit sends the file; nil when none is configured.
        public var destination: Destination?
        public var retry: RetrySchedule
        /// Prefilled in the new-article form.
        public var publication: String
        public var narrator: String
        public var format: AudioFormat
        public var definitions: ALSADefinitions?
        /// The articles' language, for the take check (see `Settings.language`).
        public var language: String
        /// Whether each take of an article with a text is checked after it is committed.
        public var checksTakes: Bool
        /// Whether q and s always ask before sending (see `StudioState.confirmsEverySend`).
        public var confirmsEverySend = true

        public init(
            captureDevice: String, playbackDevice: String, profile: DeliveryProfile, destination: Destination?,
            retry: RetrySchedule, publication: String, narrator: String, format: AudioFormat, definitions: ALSADefinitions? = nil,
            language: String = "en", checksTakes: Bool = true
        ) {
            self.captureDevice = captureDevice
            self.playbackDevice = playbackDevice
            self.profile = profile
            self.destination = destination
            self.retry = retry
            self.publication = publication
            self.narrator = narrator
            self.format = format
            self.definitions = definitions
            self.language = language
            self.checksTakes = checksTakes
        }
    }

    /// Where takes come from: the studio's ALSA device, or a browser's microphone whose audio
    /// a front end hands to `streamedInput` while a take runs (the web studio).
    public enum Microphone: String, Sendable, Equatable {
        case device, browser
    }

    public private(set) var state = StudioState()
    /// Where the next take comes from; a take under way keeps its own.
    public var microphone = Microphone.device
    /// While a take from the browser's microphone runs: where its audio goes.
    public private(set) var streamedInput: StreamedCapture?
    /// The article being narrated, if one is open.
    public var openArticle: Article? { article }
    /// The open article's chunks in order: a front end that plays them itself (the web studio)
    /// knows from it when what it plays is out of date.
    public var chunkIDs: [ChunkID] { entries.map(\.chunk.id) }
    /// True once the volunteer has left and everything running has stopped and been kept.
    public private(set) var isFinished = false

    private let library: NarrationLibrary
    private let options: Options
    private var article: Article?
    private var entries: [NarrationLibrary.ChunkEntry] = []
    private var levels: [ChunkID: [Decibels]] = [:]
    /// Chunks with a readable file whose level profile has not been read yet.
    private var unmeasured = 0
    private var recording: (take: Recording, placement: ChunkPlacement)?
    /// The pre-roll of a punch-and-roll take, until the take starts.
    private var punch: StudioPunch?
    /// The volume and speed of playback, kept from one play to the next in the session.
    private var playbackVolume = PlaybackControls.loudest
    private var playbackSpeed = 1.0
    /// The article's paragraphs and which chunks read them, as of the last reload.
    private var plan = ReadingPlan(paragraphs: [], chunks: [])
    /// The paragraph the volunteer moved the reading pane to (p, n); nil while it follows the text.
    private var chosenParagraph: Int?
    private var player: QueuePlayer?
    private var work: StudioWork?
    /// The take check started after the last take, until its findings are shown.
    private var takeCheck: StudioTakeCheck?
    /// The article's export kept nearly made between takes, for a profile that has one: queue
    /// then encodes only what the last take changed.
    private var ready: ReadyExport?
    /// The chunks the export was last made ready for (shown as "ready to queue" while they are
    /// the article's chunks), and those the export being made now is for.
    private var readyFor: [ChunkID]?
    private var preparingFor: [ChunkID] = []
    private var leaveWhenDone = false
    /// The take check's hints not dismissed yet, by chunk, as of the last reload.
    private var hints: [ChunkID: [String]] = [:]
    /// The reports of the article's checked takes, for the words a punch-and-roll reads on from.
    private var reports: [ChunkID: TakeCheckReport] = [:]
    /// A pre-roll a front end plays itself (the web studio's page), and when it began: the
    /// punch that follows it is the only take that can start meanwhile.
    private var frontEndPreRoll: (preRoll: StudioState.PreRoll, since: Double)?
    /// Whether the player was paused at the last tick: pausing and resuming change the notice.
    private var wasPaused = false
    private var watch = InputWatch()
    private let clock: () -> Double

    /// Opens the studio on `article`, or on the new-article form when it is nil.
    public init(library: NarrationLibrary, options: Options, article: Article?, clock: @escaping () -> Double = MonotonicClock.now) {
        self.library = library
        self.options = options
        self.clock = clock
        state.confirmsEverySend = options.confirmsEverySend
        if let article {
            open(article)
        } else {
            showNewArticleForm()
            if state.canListArticles { showArticles() }
        }
        if !library.notices.isEmpty { state.notice = .init(library.notices.joined(separator: " ")) }
    }

    /// A studio dropped without leaving (its screen failed, or its owner threw) still stops and
    /// keeps a take being recorded, and stops playback, as leaving does; nobody sees its state
    /// any more, so the list is not reloaded and the take's sparkline is not read.
    deinit {
        punch?.cancel()
        if let (take, _) = recording {
            take.requestStop()
            _ = take.finish()
        }
        if let player {
            player.stop()
            _ = player.wait()
        }
    }

    // MARK: Actions

    /// Does what a key asked.
    public func perform(_ action: StudioAction) {
        switch action {
        case .toggleRecording:
            if recording != nil { stopRecording() } else { startRecording(.append, reading: chosenParagraph.map { .reread($0) }) }
        case .moveReading(let delta):
            moveReading(by: delta)
        case .readAgain:
            if let number = state.reading?.number { startRecording(.append, reading: .reread(number)) }
        case .rerecordSelected:
            if let index = state.selectedIndex { startRecording(.replace(index)) }
        case .insertBeforeSelected:
            if let index = state.selectedIndex { startRecording(.insert(before: index)) }
        case .playOrPause:
            if let player { player.togglePause() } else { play(from: state.selectedIndex) }
        case .playSelected:
            stopPlaying()
            play(from: state.selectedIndex)
        case .seek(let seconds):
            player?.seek(by: seconds)
        case .punchIn:
            punchIn()
        case .undo:
            undo()
        case .changeVolume(let steps):
            let volume = Decibels(min(PlaybackControls.loudest.value, max(PlaybackControls.quietest.value, playbackVolume.value + Double(steps) * PlaybackControls.volumeStep)))
            guard volume != playbackVolume else {
                state.notice = .init(steps > 0 ? "The volume is at its highest: the recording as it is (0 dB)." : "The volume is at its lowest (−30 dB).")
                return
            }
            playbackVolume = volume
            player?.setVolume(PlaybackControls.linear(volume))
            state.notice = .init("Volume \(volume.value == 0 ? "0" : volume.formatted) dB.")
        case .changeSpeed(let steps):
            let speeds = PlaybackControls.speeds
            let position = speeds.firstIndex(of: playbackSpeed) ?? speeds.firstIndex(of: 1)!
            let speed = speeds[min(speeds.count - 1, max(0, position + steps))]
            guard speed != playbackSpeed else {
                state.notice = .init(steps > 0 ? "The speed is at its fastest (2×)." : "The speed is at its slowest (0.5×).")
                return
            }
            playbackSpeed = speed
            player?.setSpeed(speed)
            state.notice = .init("Speed \(Self.speedText(speed)), the pitch kept.")
        case .select(let delta):
            if case .articles(let list) = state.panel { return state.panel = .articles(list.moved(by: delta)) }
            select(state.selection + delta)
        case .selectFirst:
            if case .articles(let list) = state.panel { return state.panel = .articles(list.moved(by: -list.rows.count)) }
            select(0)
        case .selectLast:
            if case .articles(let list) = state.panel { return state.panel = .articles(list.moved(by: list.rows.count)) }
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
            state.panel = .chunks
        case .toggleHelp:
            state.panel = state.panel == .help ? .chunks : .help
        case .queue:
            startWork(submitting: false)
        case .submit:
            startWork(submitting: true)
        case .askSend(let submitting):
            askSend(submitting: submitting)
        case .confirmSend:
            guard case .confirmSend(let question) = state.panel else { return }
            state.panel = .chunks
            startWork(submitting: question.submitting, sendingUnread: true)
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
            guard recording == nil, work == nil else { return }
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
        case .explain(let sentence):
            state.notice = .init(sentence)
        }
    }

    /// Collects what the recorder, the player and background work did since the last call:
    /// levels for the meter, positions, finished takes and results. Call 20 times a second.
    public func tick() {
        let now = clock()
        if let (take, placement) = recording {
            let status = take.status
            if let levels = take.takeMeterLevels() {
                let peak = levels.map(\.peak).max() ?? .silence
                meterUpdate(levels, peak: peak, at: now)
                watch.update(peak: peak, at: now)
            }
            state.warning = status.firstFrameTime == nil ? nil : watch.warning(at: now)
            if let punch, punch.isListening, case .preRoll = state.activity {
                // the pre-roll still plays: the status says so, not "REC 00:00:00"
            } else {
                let wasPreRolling = state.isPreRolling
                state.activity = .recording(seconds: take.article.format.seconds(status.frames), placement: placement)
                if wasPreRolling { showReading() }
            }
            if status.stopReason != nil || punch?.error != nil { stopRecording() }  // the device failed or the disk filled
            else if let punch, !punch.isListening, state.notice?.text.hasPrefix("Playing the") == true {
                state.notice = .init("Recording from there. Press r to stop; the take is kept whatever happens.")
            }
        }
        if let player {
            let status = player.status
            if let levels = player.takeMeterLevels() {
                meterUpdate(levels, peak: levels.map(\.peak).max() ?? .silence, at: now)
            } else if status.state == .paused {
                meterUpdate([.silent], peak: .silence, at: now)  // nothing is heard: the meter falls
            }
            if status.state.isOver {
                finishPlaying(player.wait())
            } else {
                // Times are the article's, as chunk numbers are: where this chunk starts in the
                // article plus how far into it, out of the whole article.
                let before = entries.prefix { $0.index < status.chunk }.reduce(0) { $0 + $1.chunk.frames }
                let paused = status.state == .paused
                let inChunk = player.format.seconds(status.positionInChunk)
                state.activity = .playing(
                    chunk: status.chunk, of: entries.count, position: player.format.seconds(before + status.positionInChunk),
                    total: player.format.seconds(entries.reduce(0) { $0 + $1.chunk.frames }), paused: paused, inChunk: inChunk)
                if let position = entries.firstIndex(where: { $0.index == status.chunk }) { state.selection = position }
                if paused != wasPaused {
                    state.notice = .init(
                        paused
                            ? "Paused. ← → move 1 s, PgUp PgDn 5 s; c fixes a slip from there; space plays on."
                            : "Playing. Space pauses, Enter plays the selected chunk.")
                    wasPaused = paused
                }
            }
        }
        if let work {
            let stage = work.stage
            state.activity = .working(stage: stage.name, fraction: stage.fraction)
            if let outcome = work.outcome { finishWork(outcome) }
        }
        if recording == nil { measureLevels(around: state.selection, limit: 4) }  // no file reading beside a take
        if takeCheck?.exportReady == true { readyFor = preparingFor }
        if state.header != nil { state.header?.exportReady = recording == nil && readyFor == entries.map(\.chunk.id) }
        if let checks = takeCheck?.checks {
            takeCheck = nil
            if !checks.isEmpty, recording == nil { reload() }  // the new hints mark their chunks
            showHints(checks)
        }
        if let (preRoll, since) = frontEndPreRoll, now - since > preRoll.lead + Self.preRollGrace {
            frontEndPreRoll = nil
            state.activity = .ready
            showReading()
            state.notice = .init("The fix of chunk \(preRoll.chunk) was cancelled: its take did not start. The chunk is as it was.", isProblem: true)
        }
    }

    /// How long after its seconds have played a front end's pre-roll may wait for its take.
    static let preRollGrace = 10.0

    /// Says what the take check found, when it found something: the chunk, the first hint, and
    /// what the volunteer can do. Hints never interrupt a take: while recording they wait.
    private func showHints(_ checks: [TakeCheck]) {
        guard let flagged = checks.first(where: { !$0.report.hints.isEmpty }), let hint = flagged.report.hints.first else { return }
        let chunk = entries.first { $0.chunk.id == flagged.chunk }
        let paragraph = chunk?.chunk.paragraphID.flatMap { id in plan.paragraphs.first { $0.id == id } }
        let which = [chunk.map { "Chunk \($0.index)" }, paragraph.map { "paragraph \($0.number)" }].compactMap { $0 }.joined(separator: ", ")
        let move = hint.kind == .wrongParagraph ? hint.paragraph.map { " Or select it and press m to put it on paragraph \($0 + 1)." } ?? "" : ""
        state.notice = .init("\(which.isEmpty ? "A take" : which) may need a listen: \(hint.description). It stays marked ⚑ until you dismiss it (d); to read it again, move to it with p or n and press a.\(move)")
    }

    // MARK: Article

    private func open(_ article: Article) {
        self.article = article
        chosenParagraph = nil
        ready?.clear()
        ready = ReadyExport.applies(to: options.profile, format: article.format)
            ? ReadyExport(scratchFolder: library.root.articleURL(article.id)) : nil
        readyFor = nil
        reload()
        state.panel = .chunks
        state.selection = max(0, state.chunks.count - 1)
        measureLevels(around: state.selection, limit: 30)
        if !entries.isEmpty { afterChange(checking: false) }
    }

    /// Starts what follows a change to the chunks on a thread of its own: measuring new chunks,
    /// making the export ready again, and (with `checking`) the take check.
    private func afterChange(checking: Bool) {
        guard let article else { return }
        preparingFor = entries.map(\.chunk.id)
        takeCheck = StudioTakeCheck(
            library: library, article: article, language: options.language, checking: checking, ready: ready.map { ($0, options.profile) })
    }

    private func showNewArticleForm() {
        article = nil
        ready?.clear()
        ready = nil
        readyFor = nil
        entries = []
        plan = ReadingPlan(paragraphs: [], chunks: [])
        chosenParagraph = nil
        hints = [:]
        reports = [:]
        // config.toml's publication and narrator, else the last article's: an empty field is rarely meant.
        let recent = library.recentCredits()
        state = StudioState(panel: .newArticle(NewArticleForm(
            publication: options.publication.isEmpty ? recent.publication : options.publication,
            narrator: options.narrator.isEmpty ? recent.narrator : options.narrator)))
        state.canListArticles = !((try? library.catalog.articles()) ?? []).isEmpty
        state.confirmsEverySend = options.confirmsEverySend
    }

    // MARK: Article list

    /// Shows the articles, the open one selected (else the first), to go back to one.
    private func showArticles() {
        guard recording == nil, work == nil else {
            state.notice = .init("Stop the take or wait for the work to finish first, then press o for the articles.")
            return
        }
        do throws(NarrationError) {
            let rows = try library.catalog.articleSummaries().map { summary in
                ArticleList.Row(
                    id: summary.article.id, title: summary.article.title, publication: summary.article.publication, state: summary.article.state,
                    paragraphs: summary.paragraphs, paragraphsRead: summary.paragraphsRead, chunkCount: summary.chunkCount,
                    seconds: summary.seconds, lastChange: summary.lastChange)
            }
            stopPlaying()
            let selection = article.flatMap { open in rows.firstIndex { $0.id == open.id } } ?? 0
            state.panel = .articles(ArticleList(rows: rows, selection: selection, openArticle: article?.id))
            state.notice = rows.isEmpty ? .init("No articles yet: press n to start one.") : nil
        } catch {
            state.notice = .init(error)
        }
    }

    /// Opens the article chosen in the list (the open one: back to it as it was).
    private func openListed(_ id: ArticleID) {
        guard recording == nil, work == nil else { return }
        if let article, article.id == id {
            state.panel = .chunks
            state.notice = nil
            return
        }
        do throws(NarrationError) {
            let chosen = try library.catalog.article(matching: id.rawValue)
            guard chosen.state != .pruned else {
                state.notice = .init("“\(chosen.title)” is pruned: its recordings were removed, so it cannot be opened.", isProblem: true)
                return
            }
            try? library.catalog.setCurrentArticle(chosen.id)  // later commands default to it, as after narrate use
            open(chosen)
            let more = chosen.state == .open ? "" : " It is \(chosen.state.rawValue): a change to its chunks makes it open again."
            state.notice = .init("Opened “\(chosen.title)”.\(more)")
        } catch {
            state.notice = .init(error)
        }
    }

    // MARK: Take check hints

    /// Dismisses the selected take's hints in the catalog: the chunk is no longer flagged, here
    /// or in any studio.
    private func dismissSelectedHints() {
        guard article != nil, entries.indices.contains(state.selection) else { return }
        let entry = entries[state.selection]
        do throws(NarrationError) {
            try library.dismissHints(ofChunk: entry.chunk.id)
            reload()
            state.notice = .init("Chunk \(entry.index)'s hint is dismissed: it is no longer marked.")
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

    /// Reads the article's chunks again after anything changed them.
    private func reload() {
        guard let article else { return }
        do {
            entries = try library.chunkEntries(of: article)
            plan = try library.catalog.readingPlan(of: article)
            let checks = plan.paragraphs.isEmpty ? [:] : try library.catalog.takeChecks(of: article.id)
            hints = checks.compactMapValues { $0.openHints.isEmpty ? nil : $0.openHints.map(\.description) }
            reports = checks.mapValues(\.report)
        } catch {
            state.notice = .init(error)
            showReading()
            return
        }
        let current = (try? library.catalog.article(matching: article.id.rawValue)) ?? article
        state.header = .init(
            title: current.title, publication: current.publication, narrator: current.narrator, state: current.state,
            duration: entries.reduce(0) { $0 + article.format.seconds($1.chunk.frames) }, chunkCount: entries.count)
        state.chunks = entries.map { entry in
            var row = StudioState.ChunkRow(
                index: entry.index, duration: article.format.seconds(entry.chunk.frames), peak: entry.chunk.peak,
                levels: levels[entry.chunk.id] ?? [], recovered: entry.chunk.recovered, missing: entry.fileMissing)
            row.hints = hints[entry.chunk.id] ?? []
            if let read = entry.chunk.paragraphID.flatMap({ id in plan.paragraphs.first { $0.id == id } }) {
                (row.paragraph, row.paragraphText) = (read.number, read.text)
            }
            return row
        }
        state.selection = min(max(0, state.selection), max(0, entries.count - 1))
        state.unread = plan.unread
        suggestParagraphs(article)
        unmeasured = entries.count { levels[$0.chunk.id] == nil && !$0.fileMissing }
        showReading()
    }

    // MARK: Reading pane

    /// Fills the reading pane from the plan: the paragraph being read while recording, else the
    /// one the volunteer moved to, else the one the next take reads, else (every paragraph read)
    /// the one read last.
    private func showReading() {
        guard !plan.paragraphs.isEmpty else {
            state.reading = nil
            chosenParagraph = nil
            return
        }
        if let number = chosenParagraph, !plan.paragraphs.indices.contains(number - 1) { chosenParagraph = nil }  // the text changed
        let read = Set(plan.chunks.compactMap(\.paragraph))
        let shown: Paragraph
        let standing: StudioState.Reading.Standing
        var next: Paragraph?
        if case .preRoll(let preRoll) = state.activity, let paragraph = paragraph(of: preRoll.chunk) {
            (shown, standing) = (paragraph, .fixing)
        } else if let (take, _) = recording, let paragraph = take.paragraph {
            (shown, standing, next) = (paragraph, .reading, take.upNext)
        } else if let number = chosenParagraph {
            (shown, standing) = (plan.paragraphs[number - 1], .chosen)
        } else if let paragraph = plan.next {
            (shown, standing) = (paragraph, .next)
        } else {
            (shown, standing) = (plan.lastRead ?? plan.paragraphs[plan.paragraphs.count - 1], .allRead)
        }
        if standing != .reading { next = plan.paragraph(after: shown) }
        state.reading = .init(
            number: shown.number, count: plan.paragraphs.count, kind: shown.kind, text: shown.text, isRead: read.contains(shown.id),
            standing: standing, next: next?.text)
        state.reading?.isSkipped = shown.isSkipped
        state.reading?.flags = entries.filter { $0.chunk.paragraphID == shown.id }.flatMap { entry in
            (hints[entry.chunk.id] ?? []).map { StudioState.Flag(chunk: entry.index, hint: $0) }
        }
    }

    /// The paragraph chunk `index` reads, if the article has a text and the chunk one.
    private func paragraph(of index: ChunkIndex) -> Paragraph? {
        guard entries.indices.contains(index.position), let id = entries[index.position].chunk.paragraphID else { return nil }
        return plan.paragraphs.first { $0.id == id }
    }

    /// The words a punch-and-roll at `seconds` into chunk `index` reads on from: the sentence
    /// the take check heard there, from about the word at that point; nil without a check.
    private func wordsToReadOn(_ index: ChunkIndex, at seconds: Double) -> String? {
        guard entries.indices.contains(index.position), let report = reports[entries[index.position].chunk.id],
              let paragraph = paragraph(of: index)
        else { return nil }
        return Self.words(at: seconds, cues: report.sentenceCues, sentences: paragraph.content.sentences.map(\.text))
    }

    /// Up to six words of the sentence heard at `seconds`, from the word its cue places there
    /// (the sentence's words spread evenly over the cue); the next sentence's start between two.
    static func words(at seconds: Double, cues: [SentenceCue], sentences: [String]) -> String? {
        guard let cue = cues.first(where: { seconds < $0.end }), sentences.indices.contains(cue.sentence) else { return nil }
        let words = sentences[cue.sentence].split(separator: " ")
        guard !words.isEmpty else { return nil }
        let share = cue.end > cue.start ? min(max(0, (seconds - cue.start) / (cue.end - cue.start)), 1) : 0
        let first = min(words.count - 1, Int((share * Double(words.count)).rounded(.down)))
        let taken = words[first...].prefix(6)
        return taken.joined(separator: " ") + (first + taken.count < words.count ? "…" : "")
    }

    /// Moves the pane by `delta` paragraphs; moving onto the paragraph the next take reads
    /// anyway goes back to following the text.
    private func moveReading(by delta: Int) {
        guard let reading = state.reading, recording == nil else { return }
        let number = min(max(1, reading.number + delta), reading.count)
        guard number != reading.number else {
            state.notice = .init(delta < 0 ? "This is the first paragraph of the text." : "This is the last paragraph of the text.")
            return
        }
        chosenParagraph = number == plan.next?.number ? nil : number
        showReading()
        state.notice = nil
    }

    private func select(_ position: Int) {
        guard !state.chunks.isEmpty else { return }
        state.selection = min(max(0, position), state.chunks.count - 1)
    }

    /// Reads the level profiles of up to `limit` chunks near `position` that have none yet.
    private func measureLevels(around position: Int, limit: Int) {
        guard unmeasured > 0 else { return }  // the common case, 20 times a second
        var measured = 0
        for distance in 0..<entries.count where measured < limit {
            for candidate in Set([position - distance, position + distance]) where entries.indices.contains(candidate) {
                let entry = entries[candidate]
                guard levels[entry.chunk.id] == nil, !entry.fileMissing else { continue }
                levels[entry.chunk.id] = ChunkLevels.profile(of: entry.file) ?? []
                state.chunks[candidate].levels = levels[entry.chunk.id] ?? []
                measured += 1
                unmeasured -= 1
            }
        }
    }

    private func meterUpdate(_ levels: [ChannelLevel], peak: Decibels, at time: Double) {
        var meter = state.meter ?? MeterDisplay()
        meter.update(levels: levels, at: time)
        state.meter = meter
        state.peak = peak
    }

    // MARK: Recording

    /// Starts a take; in an article with a text, `reading` says which paragraph it reads (nil:
    /// the next one for a new chunk, the chunk's own for a re-recorded or inserted one).
    private func startRecording(_ placement: ChunkPlacement, reading: ReadingPlan.Choice? = nil) {
        guard let article, work == nil, recording == nil else { return }
        guard frontEndPreRoll == nil else {
            state.notice = .init("A slip is being fixed: its take starts by itself after the seconds before it. Esc cancels the fix.", isProblem: true)
            return
        }
        stopPlaying()
        ready?.stop()  // the take gets the cores; the export is made ready again after it
        do throws(NarrationError) {
            try beginTake(
                in: article, placement: placement, reading: reading,
                shown: placement == .append ? whereTakeGoes(reading ?? .next, title: article.title) : placement,
                notice: "Recording. Press r to stop; the take is kept whatever happens.")
        } catch {
            state.notice = .init(error)
        }
    }

    /// Prepares and starts a take from the studio's microphone (a browser's: through a new
    /// `streamedInput`), and shows it as going to `shown`.
    private func beginTake(
        in article: Article, placement: ChunkPlacement, reading: ReadingPlan.Choice? = nil, punch: PunchRequest? = nil, shown: ChunkPlacement,
        notice: String
    ) throws(NarrationError) {
        let stream = microphone == .browser ? StreamedCapture(name: "the browser's microphone", format: article.format) : nil
        let input: NarrationLibrary.CaptureInput = stream.map { .streamed($0) } ?? .device(options.captureDevice, definitions: options.definitions)
        let take = try library.prepareRecording(into: article, placement: placement, reading: reading, punch: punch, input: input, duration: nil)
        do {
            try take.start()
        } catch {
            _ = take.finish()
            throw error
        }
        streamedInput = stream
        recording = (take, shown)
        showReading()
        watch = InputWatch()
        state.meter = MeterDisplay()
        state.peak = nil
        state.activity = .recording(seconds: 0, placement: shown)
        state.notice = .init(notice)
    }

    /// The browser whose microphone a take records went away (its tab closed, its network
    /// dropped): the take stops with what reached the studio, and is kept.
    public func streamedInputWentAway() {
        streamedInput?.fail(
            NarrationError(
                .deviceFailed, "The browser stopped sending audio (the page was closed or the network dropped).",
                subject: .device("the browser's microphone")))
    }

    /// Opens `article` (made by a front end, e.g. the web studio's form), leaving what was open:
    /// a take is stopped and kept, playback stops.
    public func openArticle(_ article: Article) {
        guard work == nil else {
            state.notice = .init("Wait a moment: the article is being exported or sent.", isProblem: true)
            return
        }
        stopRecording()
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
        guard recording == nil, work == nil else { return false }
        let before = entries.map(\.chunk.id)
        let selected = entries.indices.contains(state.selection) ? entries[state.selection].chunk.id : nil
        reload()
        let after = entries.map(\.chunk.id)
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
        guard let article, recording == nil, work == nil else { return }
        if let (preRoll, _) = frontEndPreRoll, preRoll.chunk != index {
            state.notice = .init("A fix of chunk \(preRoll.chunk) is under way: finish or cancel it first.", isProblem: true)
            return
        }
        frontEndPreRoll = nil
        state.activity = .ready
        stopPlaying()
        ready?.stop()
        do throws(NarrationError) {
            try beginTake(
                in: article, placement: .append, punch: PunchRequest(index: index, seconds: seconds), shown: .replace(index),
                notice: "Correcting chunk \(index) from \(Timecode.tenths(seconds)): read on. Press r to stop.")
            state.selection = index.position
        } catch {
            state.notice = .init(error)
        }
    }

    /// A front end that plays a punch-and-roll's pre-roll itself (the web studio's page) starts
    /// it here: until `punch(_:at:)` or `cancelFix`, the studio shows the pre-roll and the
    /// paragraph being fixed, and no other take can start. One that never follows is cancelled
    /// `preRollGrace` seconds after its lead.
    public func beginPreRoll(_ index: ChunkIndex, at seconds: Double, lead: Double) {
        guard article != nil, recording == nil, work == nil, frontEndPreRoll == nil else {
            state.notice = .init(recording != nil ? "Stop the take first, then fix the slip." : "Wait for what runs to finish, then fix the slip.")
            return
        }
        guard entries.indices.contains(index.position) else {
            state.notice = .init("There is no chunk \(index) to correct.", isProblem: true)
            return
        }
        stopPlaying()
        let preRoll = StudioState.PreRoll(chunk: index, at: seconds, lead: min(max(0, lead), 60), words: wordsToReadOn(index, at: seconds))
        frontEndPreRoll = (preRoll, clock())
        state.activity = .preRoll(preRoll)
        state.selection = index.position
        showReading()
        state.notice = .init(preRoll.sentence)
    }

    /// Cancels a punch-and-roll during its pre-roll: no take starts, the chunk stays as it was.
    private func cancelFix() {
        guard case .preRoll(let preRoll) = state.activity else { return }
        if frontEndPreRoll != nil {
            frontEndPreRoll = nil
            state.activity = .ready
            showReading()
        } else {
            stopRecording()  // the take has not started: nothing is kept
        }
        state.notice = .init("The fix is cancelled: chunk \(preRoll.chunk) is as it was.")
    }

    /// Where a new take reading `choice` goes among the chunks, as the status line says it: in an
    /// article with a text a paragraph read for the first time may go before later paragraphs'
    /// chunks, and one read again replaces its chunks.
    private func whereTakeGoes(_ choice: ReadingPlan.Choice, title: String) -> ChunkPlacement {
        guard !plan.paragraphs.isEmpty, let take = try? plan.take(choice, title: title) else { return .append }
        let index = { (id: ChunkID) in self.entries.firstIndex { $0.chunk.id == id }.map { ChunkIndex(position: $0) } }
        switch take.position {
        case .append:
            return .append
        case .before(let id):
            return index(id).map { .insert(before: $0) } ?? .append
        case .after(let id):
            guard let after = index(id), after.position + 1 < entries.count else { return .append }
            return .insert(before: ChunkIndex(position: after.position + 1))
        case .replacingParagraphFrom(let id):
            return index(id).map { .replace($0) } ?? .append
        }
    }

    /// Punch-and-roll at the playing position: playing stops, the seconds before it play again,
    /// and the take records over the chunk from there.
    private func punchIn() {
        guard let article, let player, recording == nil, work == nil else { return }
        let status = player.status
        let seconds = player.format.seconds(status.positionInChunk)
        stopPlaying()
        do throws(NarrationError) {
            let take = try library.prepareRecording(
                into: article, placement: .append, punch: PunchRequest(index: status.chunk, seconds: seconds),
                input: .device(options.captureDevice, definitions: options.definitions), duration: nil)
            punch = StudioPunch(take: take, device: options.playbackDevice, definitions: options.definitions)
            recording = (take, .replace(status.chunk))
            state.selection = status.chunk.position
            watch = InputWatch()
            state.meter = MeterDisplay()
            state.peak = nil
            let lead = take.preRoll.map { article.format.seconds($0.frames.count) } ?? 0
            let preRoll = StudioState.PreRoll(chunk: status.chunk, at: seconds, lead: lead, words: wordsToReadOn(status.chunk, at: seconds))
            state.activity = .preRoll(preRoll)
            showReading()
            state.notice = .init(preRoll.sentence + " Esc cancels the fix.")
        } catch {
            state.notice = .init(error)
        }
    }

    /// "1.25×": a speed as the notice says it.
    static func speedText(_ speed: Double) -> String {
        let text = String(speed)
        return (text.hasSuffix(".0") ? String(text.dropLast(2)) : text) + "×"
    }

    /// Takes back the article's last edit and says which.
    private func undo() {
        guard let article, recording == nil, work == nil else { return }
        stopPlaying()
        do throws(NarrationError) {
            let undone = try library.undo(.article(article.id))
            chosenParagraph = nil
            reload()
            afterChange(checking: false)
            let note = undone.withdrawn.map { " " + WithdrawnExport.sentence($0, title: article.title) } ?? ""
            state.notice = .init("Undone: \(undone.edit.summary) Press u again to go one edit further back.\(note)")
        } catch {
            state.notice = .init(error)
        }
    }

    private func stopRecording() {
        guard let (take, _) = recording else { return }
        punch?.cancel()
        let punchFailure = punch?.error
        punch = nil
        take.requestStop()
        let outcome = take.finish()
        recording = nil
        streamedInput = nil
        if outcome.chunk != nil { chosenParagraph = nil }  // the pane follows on to the next paragraph
        state.activity = .ready
        state.meter = nil
        state.warning = nil
        reload()
        if outcome.chunk != nil { afterChange(checking: options.checksTakes && outcome.paragraph != nil) }
        let report = TakeReport(outcome, detail: .brief)
        if let index = outcome.index, let chunk = outcome.chunk {
            state.selection = index.position
            levels[chunk.id] = ChunkLevels.profile(of: outcome.file) ?? []
            state.chunks[index.position].levels = levels[chunk.id] ?? []
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
        if let punchFailure { state.notice = .init(punchFailure) }
    }

    // MARK: Playing

    private func play(from index: ChunkIndex?) {
        guard let article, recording == nil, work == nil else { return }
        do {
            let plan = try library.playbackPlan(of: article, from: index, to: nil, skipMissing: true)
            let player = try library.preparePlayback(
                of: article, plan: plan, device: options.playbackDevice, speed: playbackSpeed, volume: PlaybackControls.linear(playbackVolume),
                definitions: options.definitions)
            player.play()
            self.player = player
            state.meter = MeterDisplay()
            state.peak = nil
            let skipped = plan.skipped.map { "chunk \($0.index)" }.joined(separator: ", ")
            state.notice = .init(skipped.isEmpty ? "Playing. Space pauses, Enter plays the selected chunk." : "Playing around \(skipped) (missing or damaged).")
        } catch {
            state.notice = .init(error)
        }
    }

    private func stopPlaying() {
        wasPaused = false
        guard let player else { return }
        player.stop()
        finishPlaying(player.wait())
    }

    private func finishPlaying(_ status: QueuePlayer.Status) {
        player = nil
        wasPaused = false
        state.activity = .ready
        state.meter = nil
        switch status.state {
        case .finished: state.notice = .init("Played to the end.")
        case .failed(let error): state.notice = .init("\(error.message) Playback stopped at chunk \(status.chunk).", isProblem: true)
        default: state.notice = .init("Stopped at chunk \(status.chunk).")
        }
    }

    // MARK: Editing

    private func deleteSelected() {
        guard let article, case .confirmDelete(let index) = state.panel else { return }
        state.panel = .chunks
        do throws(NarrationError) {
            // The chunk this screen showed, by its id: another command may have changed the list.
            let shown = entries.indices.contains(index.position) ? entries[index.position].chunk.id : nil
            let (chunk, withdrawn) = try library.deleteChunk(at: index, of: article, expected: shown)
            levels[chunk.id] = nil
            reload()
            afterChange(checking: false)
            let note = withdrawn.map { " " + WithdrawnExport.sentence($0, title: article.title) } ?? ""
            state.notice = .init("Chunk \(index) deleted (\(Timecode.tenths(chunk.format.seconds(chunk.frames)))); its file is in the article's trash.\(note)")
        } catch {
            reload()  // the list as it is now, when another command changed it
            state.notice = .init(error)
        }
    }

    // MARK: Skipping paragraphs and moving takes

    /// Asks before queueing or sending, naming the paragraphs that would go out unread. An
    /// article without chunks, or submit without a destination, is said at once instead.
    private func askSend(submitting: Bool) {
        guard let article, work == nil, recording == nil else { return }
        guard !entries.isEmpty, !submitting || options.destination != nil else { return startWork(submitting: submitting) }
        stopPlaying()
        state.panel = .confirmSend(SendQuestion(submitting: submitting, title: article.title, unread: plan.unread))
    }

    /// Skips the paragraph the reading pane shows, or unskips it when it is skipped: one edit
    /// that undo reverses. A skipped paragraph the pane followed the text to gives way to the next.
    private func toggleSkip() {
        guard let article, let reading = state.reading, recording == nil else { return }
        let skipping = !reading.isSkipped
        do throws(NarrationError) {
            _ = try library.skipParagraphs([reading.number], skipping: skipping, of: article)
            reload()
            state.notice = .init(
                skipping
                    ? "Paragraph \(reading.number) is skipped: it is not read, and in no chapter or transcript. Press k on it again to read it after all, or u to undo."
                    : "Paragraph \(reading.number) is to be read again.")
        } catch {
            state.notice = .init(error)
        }
    }

    /// Puts the selected take on the paragraph the take check says it sounds like, among that
    /// paragraph's chunks; undo puts it back.
    private func moveTakeToSuggested() {
        guard let article, recording == nil, work == nil, state.chunks.indices.contains(state.selection),
            let paragraph = state.chunks[state.selection].suggestedParagraph
        else { return }
        stopPlaying()
        do throws(NarrationError) {
            let moved = try library.rebindChunk(at: state.chunks[state.selection].index, toParagraph: paragraph, of: article)
            reload()
            select(moved.to.position)
            afterChange(checking: true)
            let place = moved.to == moved.from ? "" : " (it is chunk \(moved.to) now)"
            let note = moved.withdrawn.map { " " + WithdrawnExport.sentence($0, title: article.title) } ?? ""
            state.notice = .init("Chunk \(moved.from) now reads paragraph \(paragraph)\(place). Press u to undo.\(note)")
        } catch {
            state.notice = .init(error)
        }
    }

    /// Marks each chunk whose take check says it sounds like another paragraph (hints not
    /// dismissed) with that paragraph.
    private func suggestParagraphs(_ article: Article) {
        guard !plan.paragraphs.isEmpty, let checks = try? library.catalog.takeChecks(of: article.id) else { return }
        for (position, entry) in entries.enumerated() where position < state.chunks.count {
            let hint = checks[entry.chunk.id]?.openHints.first { $0.kind == .wrongParagraph && $0.paragraph != nil }
            let number = hint?.paragraph.map { $0 + 1 }
            state.chunks[position].suggestedParagraph = number == state.chunks[position].paragraph ? nil : number
        }
    }

    // MARK: Queue and submit

    /// - Parameter sendingUnread: the volunteer said to send it with paragraphs unread.
    private func startWork(submitting: Bool, sendingUnread: Bool = false) {
        guard let article, work == nil, recording == nil else { return }
        stopPlaying()
        guard !entries.isEmpty else {
            state.notice = .init(NarrationError.emptyArticle(article, nothingTo: submitting ? "submit" : "queue"))
            return
        }
        let destination: Destination?
        if submitting {
            guard let configured = options.destination else {
                state.notice = .init(
                    "No destination to submit to; press q to queue it and send it later.", isProblem: true, remedy: .setDestination)
                return
            }
            do {
                _ = try NarrationLibrary.prepare(configured)
            } catch {
                state.notice = .init(error)
                return
            }
            destination = configured
        } else {
            destination = nil
        }
        let work = StudioWork(stage: "Exporting")
        self.work = work
        state.activity = .working(stage: "Exporting", fraction: 0)
        state.notice = nil
        let library = self.library
        let options = self.options
        let ready = self.ready.map { ($0, takeCheck) }
        work.start {
            await Self.queueAndSubmit(
                article, to: destination, library: library, options: options, ready: ready, sendingUnread: sendingUnread, work: work)
        }
    }

    /// Exports into the outbox and checks the file, then (when `destination` is given) delivers.
    /// - Parameter ready: the export made ready between takes, and the work making it now (waited
    ///   for, so that queue reuses what it makes rather than encode it alongside).
    private static func queueAndSubmit(
        _ article: Article, to destination: Destination?, library: NarrationLibrary, options: Options,
        ready: (ReadyExport, StudioTakeCheck?)?, sendingUnread: Bool, work: StudioWork
    ) async {
        let queued: (job: OutboxJob, sidecar: Sidecar)
        do throws(NarrationError) {
            queued = try await BlockingWork.run(named: "narrate-studio-work") { () throws(NarrationError) in
                if let (ready, preparing) = ready {
                    preparing?.waitForExport()
                    ready.resume()
                }
                return try library.queue(
                    article, profile: options.profile, language: options.language, ready: ready?.0, sendingUnread: sendingUnread
                ) { work.update(done: $0, total: $1) }
            }
        } catch {
            work.finish(.notQueued("\(error.message) Nothing was queued; the chunks are as they were."))
            return
        }
        // The loudness check reads the whole file through libsndfile and libebur128: blocking work.
        var lines = await BlockingWork.run(named: "narrate-studio-work") {
            summary(of: queued.job, sidecar: queued.sidecar, profile: options.profile, ready: ready?.0)
        }
        guard let destination else {
            work.finish(.queued(heading: "Queued \"\(article.title)\"", lines: lines, remedy: .pushOutboxTo))
            return
        }
        work.update(stage: "Sending", done: 0, total: queued.job.bytes)
        do throws(NarrationError) {
            let delivered = try await library.deliver(
                queued.job, to: destination, retrying: options.retry, progress: { work.update(done: $0, total: $1) })
            lines.append("Sent to \(delivered.remotePath ?? destination.description) and checked.")
            work.finish(.queued(heading: "Submitted \"\(article.title)\"", lines: lines, remedy: nil))
        } catch {
            lines.append(error.message)
            work.finish(.queued(heading: "Queued \"\(article.title)\", but not sent", lines: lines, remedy: .sendOutboxLater))
        }
    }

    /// Where the file is, what it is, and how it measures against the profile (as the export's
    /// own check measured it, when the export was made ready between takes).
    private static func summary(of job: OutboxJob, sidecar: Sidecar, profile: DeliveryProfile, ready: ReadyExport?) -> [String] {
        var lines = [
            "\(Timecode.precise(sidecar.duration)), \(Counted.phrase(sidecar.chapters ?? 0, "chapter")), \(profile.name) profile (\(sidecar.format)), \(job.bytes) bytes",
            "In the outbox: \(job.file.path)",
        ]
        if let made = ready?.segments(of: job.file), made.reused > 0 {
            let parts = made.encoded + made.reused
            lines.append("Made ready between takes: \(made.encoded) of its \(parts) parts were encoded after the last change.")
        }
        do throws(NarrationError) {
            var measured = ready?.measurements(of: job.file)
            if measured == nil { measured = try Analyzer.measure(file: job.file) }
            if let measured { lines.append(profile.verdict(on: measured).sentence) }
        } catch {
            lines.append("The loudness check could not read the file: \(error.message)")
        }
        return lines
    }

    private func finishWork(_ outcome: StudioWork.Outcome) {
        work = nil
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
        chosenParagraph = nil
        article = nil
    }

    // MARK: Leaving

    private func leave() {
        stopRecording()
        stopPlaying()
        if work != nil {
            leaveWhenDone = true
            state.notice = .init("Leaving as soon as the export or upload is done.")
            return
        }
        isFinished = true
    }
}
