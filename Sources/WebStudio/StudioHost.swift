import Foundation
import Narration
import NarrationCore
import NarrationText
import Studio
import Synchronization

/// The web studio's one studio session, run as blocking work (`BlockingWork`) on a thread of its own: every page's messages go into
/// one inbox, in the order they arrived, and this thread alone performs them on the `Studio`,
/// ticks it 20 times a second and sends each page the state when it changed. The terminal
/// studio's loop does the same with keys; the session code is the same, so they cannot disagree.
///
/// The audio of a browser-microphone take goes through the same inbox, so a page's "r" and the
/// audio it sends right after it arrive in order: the take has started before its first block.
final class StudioHost: Sendable {
    /// A page's connection.
    typealias PageID = Int

    /// What the page asks for when it makes a new article (the form, and its text file).
    struct NewArticle: Sendable {
        var title, publication, narrator: String
        var textName: String?
        var text: String?
    }

    /// A new article whose text has been read (off the session's thread), ready to be made.
    private struct ReadArticle: Sendable {
        var request: NewArticle
        var paragraphs: [ScriptParagraph]?
    }

    private enum Input: Sendable {
        case message(PageMessage, from: PageID)
        case audio([UInt8], from: PageID)
        case left(PageID)
        case create(ReadArticle, reply: @Sendable (Result<ArticleID, NarrationError>) -> Void)
        case outboxChanged
        case shutDown
    }

    /// What the HTTP side reads without going through the inbox.
    private struct Published {
        var stateMessage = ""
        var outboxMessage = ""
        var article: Article?
        var pages: [PageID: AsyncStream<String>.Continuation] = [:]
        /// The account of each page in a reading service.
        var accounts: [PageID: Account] = [:]
        var nextPage = 0
    }

    let library: NarrationLibrary
    let options: Studio.Options
    private let settingsMessage: String
    private let inbox = Mutex<[Input]>([])
    private let wake = DispatchSemaphore(value: 0)
    private let published = Mutex(Published())
    /// Finishes when the session's loop has returned; awaited by `shutDown()`.
    private let sessionEnded: AsyncStream<Void>
    /// In a reading service: the desk and the hours this studio tells.
    private let deskLink: StudioDeskLink?
    /// True for a reading service's studio of one article (`StudioRooms`): it never opens
    /// another, and takes come from the browser's microphone (the booth is the personal studio's).
    let isArticleStudio: Bool

    /// Starts the session on `article` (nil: the new-article form).
    /// - Parameters:
    ///   - deskLink: in a reading service, the desk and the hours to tell.
    ///   - isArticleStudio: the studio of `article` alone (a reading service's `StudioRooms`).
    init(
        library: NarrationLibrary, options: Studio.Options, article: Article?, settings: [(name: String, value: String)],
        deskLink: StudioDeskLink? = nil, isArticleStudio: Bool = false
    ) {
        self.library = library
        self.options = options
        self.deskLink = deskLink
        self.isArticleStudio = isArticleStudio
        settingsMessage = PageState.encode([
            "type": AnyEncodable("settings"),
            "settings": AnyEncodable(settings.map { ["name": $0.name, "value": $0.value] }),
        ])
        // The session's loop waits for the inbox and a take's end waits for its threads, for as
        // long as the server lives: a thread of its own, never a pool or cooperative thread.
        let (ended, end) = AsyncStream<Void>.makeStream()
        sessionEnded = ended
        DedicatedThread.start(named: "narrate-web-studio", because: .blocksIndefinitely) { [self] in
            let studio = Studio(library: library, options: options, devices: .alsa(options), article: article)
            if isArticleStudio { studio.microphone = .browser }
            run(studio)
            end.finish()
        }
    }

    // MARK: Pages

    /// A page connected: the stream carries its messages, starting with the state, the outbox
    /// and the settings. In a reading service (`account` given) the settings, which name folders
    /// on the server, go only to coordinators and admins.
    func connect(account: Account? = nil) -> (PageID, AsyncStream<String>) {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(64))
        let id = published.withLock { published in
            defer { published.nextPage += 1 }
            published.pages[published.nextPage] = continuation
            if let account { published.accounts[published.nextPage] = account }
            for message in [published.stateMessage, published.outboxMessage] where !message.isEmpty { continuation.yield(message) }
            return published.nextPage
        }
        if account.map(Self.mayReadSettings) ?? true { continuation.yield(settingsMessage) }
        return (id, stream)
    }

    /// Whether `account` is shown the server's settings: coordinators and admins.
    static func mayReadSettings(_ account: Account) -> Bool { account.role == .coordinator || account.role == .admin }

    func receive(_ message: PageMessage, from page: PageID) { post(.message(message, from: page)) }
    func receiveAudio(_ bytes: [UInt8], from page: PageID) { post(.audio(bytes, from: page)) }

    /// The page's connection closed: a browser-microphone take it was sending stops and is kept.
    /// The page's account is forgotten in the run loop, after what the page sent before it left
    /// (a piece of its take may still wait in the inbox, and is the account's).
    func disconnect(_ page: PageID) {
        published.withLock { published in
            published.pages.removeValue(forKey: page)?.finish()
        }
        post(.left(page))
    }

    /// Ends every page's connection (the server is stopping); the session goes on until `shutDown()`.
    func closePages() {
        published.withLock { published in
            for page in published.pages.values { page.finish() }
            published.pages = [:]
            published.accounts = [:]
        }
    }

    /// Reads the text (if any) as blocking work, never on the session's thread (a text
    /// that is slow to read must not stop the studio, nor a stop by SIGINT), then makes the
    /// article and opens it in the session. A text that cannot be read makes no article.
    func create(_ request: NewArticle) async -> Result<ArticleID, NarrationError> {
        var paragraphs: [ScriptParagraph]?
        if let text = request.text {
            let name = request.textName ?? "text"
            do {
                paragraphs = try await BlockingWork.run(named: "narrate-text") {
                    let bytes = Array(text.utf8)
                    return try ScriptReader.read(bytes, format: ScriptFormat.from(fileName: name) ?? .from(content: bytes), name: name)
                }
            } catch let error as NarrationError {
                return .failure(error)
            } catch {
                return .failure(.usage("The server is stopping, so the text was not read."))
            }
        }
        let read = ReadArticle(request: request, paragraphs: paragraphs)
        return await withCheckedContinuation { continuation in
            post(.create(read, reply: { continuation.resume(returning: $0) }))
        }
    }

    /// The outbox changed outside the session (a retry): pages are told.
    func outboxChanged() { post(.outboxChanged) }

    /// The article open now, for the audio the page plays.
    var article: Article? { published.withLock { $0.article } }

    /// Leaves the session as Esc does (a take is stopped and kept, work under way finishes) and
    /// returns once it has; suspends, blocking no thread.
    func shutDown() async {
        post(.shutDown)
        for await _ in sessionEnded {}
        closePages()
    }

    private func post(_ input: Input) {
        inbox.withLock { $0.append(input) }
        wake.signal()
    }

    // MARK: The session's thread

    /// The takes pages upload, named, resumed and taken piece by piece on the session's thread.
    private var uploads: PageTakeUploads {
        PageTakeUploads(
            library: library, accountName: { [self] page in published.withLock { $0.accounts[page]?.name.rawValue } },
            tell: { [self] page, message in _ = published.withLock { $0.pages[page]?.yield(message) } })
    }

    private func run(_ studio: Studio) {
        var browserTakeOwner: PageID?
        var preRollOwner: PageID?
        var nextTick = MonotonicClock.now()
        var wasWorking = false
        var catalog = CatalogWatch(library: library)
        var lastActor: PageID?
        var take: (account: Account, chunksBefore: Set<ChunkID>)?
        publishOutbox()
        while !studio.isFinished {
            _ = wake.wait(timeout: .now() + max(0, nextTick - MonotonicClock.now()))
            let inputs = inbox.withLock { inbox in
                defer { inbox = [] }
                return inbox
            }
            // What another command changed is read before a page's message acts on the chunks,
            // and a few times a second besides, so the page shows it.
            let messages = inputs.contains { if case .message = $0 { true } else { false } }
            if catalog.changed(checkingNow: messages) {
                if studio.reloadAfterOutsideChange() { catalog.caughtUp() }
                publishOutbox()
            }
            for input in inputs {
                switch input {
                case .message(.uploading(let message, let key), let page):
                    lastActor = page
                    if uploads.begin(key, on: studio, from: page, starting: { perform(message, on: studio, from: page) }) { browserTakeOwner = page }
                case .message(.stopTake(let key, let frames), let page):
                    if studio.browserTakeUpload?.key == key { browserTakeOwner = page }
                    uploads.stop(key, frames: frames, on: studio, from: page)
                case .message(.resumeTake(let key, let frames), let page):
                    if uploads.resume(key, frames: frames, on: studio, from: page) { browserTakeOwner = page }
                case .message(.keepTake(let key), let page):
                    uploads.keep(key, on: studio, from: page)
                case .message(let message, let page):
                    let before = studio.streamedInput
                    let wasPreRolling = studio.state.isPreRolling
                    lastActor = page
                    perform(message, on: studio, from: page)
                    if studio.streamedInput != nil, studio.streamedInput !== before { browserTakeOwner = page }
                    if !wasPreRolling, studio.state.isPreRolling { preRollOwner = page }
                case .audio(let bytes, let page):
                    if TakePiece.isPiece(bytes) {
                        uploads.receive(bytes, on: studio, from: page)
                    } else if page == browserTakeOwner, studio.browserTakeUpload == nil {
                        studio.streamedInput?.append(bytes)
                    }
                case .left(let page):
                    if page == browserTakeOwner, studio.streamedInput != nil {
                        // A take the page uploads is set aside for the page to finish when it
                        // comes back; one streamed without pieces ends with what arrived.
                        if studio.browserTakeUpload != nil { studio.setAsideBrowserTake() } else { studio.streamedInputWentAway() }
                    }
                    // The page playing a pre-roll went away: its take will never start.
                    if page == preRollOwner, studio.state.isPreRolling { studio.perform(.cancelFix) }
                    _ = published.withLock { $0.accounts.removeValue(forKey: page) }
                case .create(let request, let reply):
                    reply(create(request, in: studio))
                case .outboxChanged:
                    publishOutbox()
                case .shutDown:
                    studio.perform(.leave)
                }
            }
            if studio.streamedInput == nil { browserTakeOwner = nil }
            if !studio.state.isPreRolling { preRollOwner = nil }
            if MonotonicClock.now() >= nextTick {
                studio.tick()
                nextTick = max(nextTick + 0.05, MonotonicClock.now() - 0.05)
            }
            if deskLink != nil { noticeTakes(&take, studio: studio, startedBy: browserTakeOwner ?? preRollOwner ?? lastActor) }
            if wasWorking, !studio.state.isWorking { publishOutbox() }
            wasWorking = studio.state.isWorking
            publish(studio)
        }
    }

    /// In a reading service: remembers who began a take and which chunks there were, and once
    /// it has ended tells the desk and the hours of the chunks it kept.
    private func noticeTakes(_ take: inout (account: Account, chunksBefore: Set<ChunkID>)?, studio: Studio, startedBy page: PageID?) {
        if studio.state.isRecording {
            guard take == nil, let page, let account = published.withLock({ $0.accounts[page] }) else { return }
            take = (account, Set(studio.chunkIDs))
            return
        }
        guard let began = take else { return }
        take = nil
        guard let deskLink, let article = studio.openArticle?.id else { return }
        let kept = studio.chunkIDs.indices.filter { !began.chunksBefore.contains(studio.chunkIDs[$0]) && $0 < studio.state.chunks.count }
        guard !kept.isEmpty else { return }
        let seconds = kept.reduce(0.0) { $0 + studio.state.chunks[$1].duration }
        let made = Set(kept.map { studio.chunkIDs[$0] })
        if let sentence = deskLink.takeKept(on: article, by: began.account, seconds: seconds, made: made) { studio.perform(.explain(sentence)) }
    }

    /// In a reading service, on a desk article: queue, submit and a confirmed send ask the desk
    /// first. With review on the article goes to review and nothing is queued or delivered;
    /// with review off it is delivered as `narrate desk send` delivers (`DeskDelivery`), in the
    /// background, and Published once its delivery is checked. Returns true when the desk has
    /// dealt with the action (the studio must not do it).
    private func sendsThroughDesk(_ action: StudioAction, on studio: Studio, from page: PageID) -> Bool {
        guard let deskLink, let article = studio.openArticle else { return false }
        switch action {
        case .queue, .submit: break
        case .confirmSend: guard case .confirmSend = studio.state.panel else { return false }
        default: return false
        }
        guard let account = published.withLock({ $0.accounts[page] }), deskLink.isOnDesk(article.id) else { return false }
        guard !Self.isBusy(studio) else {
            studio.perform(.explain(Self.busy))
            return true
        }
        guard !studio.chunkIDs.isEmpty else {
            studio.perform(.explain("Record a take first: “\(article.title)” has nothing to send yet."))
            return true
        }
        guard deskLink.reviewIsOn else {
            if case .confirmSend = studio.state.panel { studio.perform(.cancel) }
            deliver(article, by: account, through: deskLink, in: studio)
            return true
        }
        do throws(NarrationError) {
            try deskLink.send(article.id, by: account)
        } catch {
            studio.perform(.explain(error.message))
            return true
        }
        if case .confirmSend = studio.state.panel { studio.perform(.cancel) }
        studio.perform(.explain(StudioDeskLink.sentForReview(article.title)))
        return true
    }

    /// With review off: sends `article` as `account`'s send through the desk's delivery
    /// (`StudioDeskLink.sendAndDeliver`), in the background as the studio's submit runs, and
    /// ending on the same result screen.
    private func deliver(_ article: Article, by account: Account, through deskLink: StudioDeskLink, in studio: Studio) {
        guard let destination = options.destination else { return studio.perform(.explain(StudioDeskLink.noDestination(article.title))) }
        let sending = DeskDelivery.Sending(
            destination: destination, profile: nil, fallback: options.profile, language: options.language, retry: options.retry)
        let library = self.library
        studio.submit { await deskLink.sendAndDeliver(article, by: account, library: library, sending: sending) }
    }

    private func perform(_ message: PageMessage, on studio: Studio, from page: PageID) {
        if isArticleStudio, let refusal = Self.articleStudioRefusal(message) { return studio.perform(.explain(refusal)) }
        switch message {
        case .key(let key, let chunk):
            if let chunk, Self.actsOnChunk(key, studio.state.panel) {
                guard let position = studio.chunkIDs.firstIndex(of: chunk) else { return Self.refuseGone(studio) }
                if case .confirmDelete(let index) = studio.state.panel {
                    guard index.position == position else { return Self.refuseGone(studio) }
                } else if position != studio.state.selection {
                    studio.select(position: position)  // the chunk the page showed selected
                }
            }
            guard let action = studio.state.action(for: key) else { return }
            if sendsThroughDesk(action, on: studio, from: page) { return }
            switch action {
            case .playOrPause, .playSelected, .seek, .changeVolume, .changeSpeed, .punchIn, .listenToCut:
                // The page plays in the browser; the studio's own player is the terminal's.
                studio.perform(.explain("Use the player on the page to listen."))
            case .showCuts:
                studio.perform(.explain("The restarts to cut are listed under their chunks: listen to each, then cut it or leave it."))
            case .leave:
                studio.perform(.explain("Close the page to leave; narrate keeps running until it is stopped."))
            default:
                studio.perform(action)
            }
        case .select(let position):
            guard !studio.state.isPreRolling else { return studio.perform(.explain(Self.preRolling)) }
            if case .articles = studio.state.panel { return }  // the list has its own buttons
            studio.select(position: position)
        case .selectChunk(let chunk):
            guard let position = studio.chunkIDs.firstIndex(of: chunk) else { return Self.refuseGone(studio) }
            studio.select(position: position)
        case .microphone(let source):
            guard !studio.state.isPreRolling else { return studio.perform(.explain(Self.preRolling)) }
            guard !studio.state.isRecording else {
                studio.perform(.explain("Stop the take first, then choose the microphone."))
                return
            }
            studio.microphone = source
            studio.perform(.explain(source == .browser ? "Takes now come from this computer's microphone." : "Takes now come from the booth microphone (\(options.captureDevice))."))
        case .punch(let chunk, let seconds, let id):
            guard chunk >= 1, chunk <= studio.state.chunks.count else {
                studio.perform(.explain("There is no chunk \(chunk) to correct."))
                return
            }
            if let id, studio.chunkIDs[chunk - 1] != id { return Self.refuseGone(studio) }
            studio.punch(ChunkIndex(position: chunk - 1), at: seconds)
        case .preRoll(let chunk, let seconds, let lead):
            guard chunk >= 1, chunk <= studio.state.chunks.count else {
                studio.perform(.explain("There is no chunk \(chunk) to correct."))
                return
            }
            studio.beginPreRoll(ChunkIndex(position: chunk - 1), at: seconds, lead: lead)
        case .newArticle:
            guard !Self.isBusy(studio) else { return studio.perform(.explain(Self.busy)) }
            studio.perform(.dismissResult)
        case .uploading, .stopTake, .resumeTake, .keepTake:
            break  // the run loop gives them to `uploads`, which names the take before it starts
        case .cut(let chunk, let number, let accept):
            guard !Self.isBusy(studio) else { return studio.perform(.explain(Self.busy)) }
            guard studio.chunkIDs.contains(chunk) else { return Self.refuseGone(studio) }
            studio.perform(accept ? .acceptCut(take: chunk, number: number) : .dismissCut(take: chunk, number: number))
        case .cutAll:
            guard !Self.isBusy(studio) else { return studio.perform(.explain(Self.busy)) }
            studio.perform(.acceptAllCuts)
        case .open(let id):
            guard !Self.isBusy(studio) else { return studio.perform(.explain(Self.busy)) }
            do throws(NarrationError) {
                let article = try library.article(id)
                guard article.state != .pruned else {
                    studio.perform(.explain("“\(article.title)” is pruned: its recordings were removed, so it cannot be opened."))
                    return
                }
                studio.perform(.openListedArticle(article.id))
            } catch {
                studio.perform(.explain(PageState.sentence(error, canSend: options.destination != nil)))
            }
        }
    }

    /// What a reading service's studio of one article does not do, and why; nil for the rest.
    static func articleStudioRefusal(_ message: PageMessage) -> String? {
        switch message {
        case .open, .newArticle:
            return "This studio is for one article: open another from your home page."
        case .microphone(let source) where source != .browser:
            return "In the reading service takes come from this computer's microphone: the booth microphone is the personal studio's."
        default:
            return nil
        }
    }

    /// Whether `key` acts on the selected chunk (delete, re-record, insert before) or confirms a
    /// delete: then the chunk the page named must still be there.
    private static func actsOnChunk(_ key: KeyPress, _ panel: StudioState.Panel) -> Bool {
        if case .confirmDelete = panel { return key == .character("y") || key == .character("Y") }
        return [.character("x"), .character("X"), .delete, .character("e"), .character("E"), .character("i"), .character("I")].contains(key)
    }

    /// A message named a chunk that another command removed (or that is elsewhere now): nothing
    /// is done, a delete waiting for its confirmation is called off, and the page is told.
    private static func refuseGone(_ studio: Studio) {
        if case .confirmDelete = studio.state.panel { studio.perform(.cancel) }
        studio.perform(
            .explain("That chunk is no longer where the page showed it (another narrate command changed the article), so nothing was done: the list shows the chunks as they are now."))
    }

    /// Whether a take or queue/submit runs: then the open article is not changed under it.
    static func isBusy(_ studio: Studio) -> Bool { studio.state.isRecording || studio.state.isWorking || studio.state.isPreRolling }
    static let busy = "Stop the take or wait for the work to finish first."
    private static let preRolling = "A slip is being fixed: its take starts by itself after the seconds before it. Cancel the fix first."

    /// Makes the article of a request whose text was read already, and attaches the text.
    private func create(_ read: ReadArticle, in studio: Studio) -> Result<ArticleID, NarrationError> {
        guard !Self.isBusy(studio) else { return .failure(.usage(Self.busy)) }
        let request = read.request
        let paragraphs = read.paragraphs
        if let problem = NewArticleForm.problem(publication: request.publication, narrator: request.narrator) {
            return .failure(.usage(problem))
        }
        do throws(NarrationError) {
            let article = try library.newArticle(
                title: request.title, publication: request.publication, narrator: request.narrator, format: options.format)
            if let paragraphs { _ = try library.attachText(paragraphs, to: article, file: request.textName ?? "text") }
            studio.openArticle(try library.article(article.id.rawValue))
            let count = paragraphs.map { " Its text has \($0.count) paragraphs; the first is shown to read." } ?? ""
            studio.perform(.explain("Started \"\(article.title)\".\(count) Press Record when you are ready."))
            return .success(article.id)
        } catch {
            return .failure(error)
        }
    }

    private func publish(_ studio: Studio) {
        var hasher = Hasher()
        hasher.combine(studio.chunkIDs.map(\.rawValue))
        let page = PageState(
            studio.state, article: studio.openArticle?.id, chunkIDs: studio.chunkIDs, microphone: studio.microphone, deviceName: options.captureDevice,
            format: studio.openArticle?.format ?? options.format, audioVersion: String(UInt64(bitPattern: Int64(hasher.finalize())), radix: 36),
            canSend: options.destination != nil)
        let message = page.message()
        let article = studio.openArticle
        published.withLock { published in
            published.article = article
            guard message != published.stateMessage else { return }
            published.stateMessage = message
            for page in published.pages.values { page.yield(message) }
        }
    }

    private func publishOutbox() {
        let jobs = ((try? library.outboxJobs()) ?? []).filter { $0.state != .retired }.sorted { $0.queuedAt > $1.queuedAt }.prefix(20)
        let titles = Dictionary(((try? library.records.articles()) ?? []).map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first })
        let rows: [[String: AnyEncodable]] = jobs.map { job in
            [
                "id": AnyEncodable(job.id), "title": AnyEncodable(titles[job.articleID] ?? job.file.lastPathComponent),
                "state": AnyEncodable(job.state.rawValue), "destination": AnyEncodable(job.remotePath ?? ""),
                "bytes": AnyEncodable(job.bytes), "attempts": AnyEncodable(job.attempts), "problem": AnyEncodable(job.lastError),
            ]
        }
        let message = PageState.encode([
            "type": AnyEncodable("outbox"), "jobs": AnyEncodable(rows), "canRetry": AnyEncodable(options.destination != nil),
        ])
        published.withLock { published in
            published.outboxMessage = message
            for page in published.pages.values { page.yield(message) }
        }
    }
}
