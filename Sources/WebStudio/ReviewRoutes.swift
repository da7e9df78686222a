import Foundation
import Hummingbird
import Narration
import NarrationCore
import NIOCore
import Studio

/// The proof-listener's review page in a reading service: `/review` and its JSON routes, which
/// offer what `narrate review` offers (the articles ready for review, one article's paragraphs
/// with their times and its notes, pinning a note, sending back, approving), show the take
/// check's open cuts and flags of each paragraph and let the proof-listener hear a cut and cut it
/// or leave it (as the studio does), and count the audio the page reports heard to the
/// proof-listener's hours. Each route asks `Permissions.may` with
/// the article's relation from the desk, then takes the same steps as the command line
/// (`ReviewDesk`), so the audit log records the same. Every number and text of a request is
/// checked before use; a refusal is one sentence and changes nothing. Service.md beside this
/// file lists every route.
struct ReviewRoutes: Sendable {
    let door: ServiceDoor
    let engine: ReviewDesk
    /// Where heard audio is counted to the hours; nil counts none.
    let activity: AccountActivity?
    /// Where an approved article is delivered, and how; nil when no destination is set.
    let sending: DeskDelivery.Sending?
    /// What is late is judged at this clock's time.
    let clock: @Sendable () -> Date
    /// The host's hands on the catalog's queue of work, which delivers an approved article (the
    /// route does the job itself, and another host does it should this one die); nil for a runner
    /// of each approval's own.
    let runner: WorkRunner?
    /// The service's recordings store, which holds the chunks other hosts recorded.
    let recordings: RecordingStore?

    init(
        door: ServiceDoor, desk: DeskService, library: NarrationLibrary, activity: AccountActivity?, options: Studio.Options,
        runner: WorkRunner? = nil, recordings: RecordingStore? = nil, clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.runner = runner
        self.recordings = recordings
        self.door = door
        self.engine = ReviewDesk(library: library, desk: desk, clock: clock)
        self.activity = activity
        self.sending = options.destination.map {
            DeskDelivery.Sending(destination: $0, profile: nil, fallback: options.profile, language: options.language, retry: options.retry)
        }
        self.clock = clock
    }

    static let onlyReviewers = "Review is for proof-listeners (coordinators and admins may look): ask the service's coordinator if you should have it."
    static let onlyProofListeners = "Only proof-listeners pin notes, cut takes, send articles back and approve them: coordinators and admins may look."
    static let notReady = "This article is not ready for review now (it may have been sent back or approved meanwhile): reload the list of articles."
    static let noDestination = "No destination is set to deliver approved articles to: ask the service's operator to set one."
    static let noteForms = "A note is \"said\" with \"should be\", or a \"text\": give one of the two."
    static let tooBig = "The request is too big: a review note is a few words, at most 16 KiB."
    static let notACut = "That is not a cut of this article: a cut is named by its take's id and its number from 0, as the article's page lists them. Reload the article."
    static let listenAs = "Say how to listen to the cut: as=read (the take as it was read) or as=cut (as it would be cut)."
    static let busyCutting = "Someone is recording into this article or changing its takes right now: nothing was cut. Try again in a moment."
    /// Said after a delivery that failed once the article was approved.
    static let triedAgain = "The article stays approved, and the service tries its delivery again by itself."

    /// Adds the page, its files and the JSON routes to `router`.
    func add(to router: Router<StudioRequestContext>) {
        addPage(to: router)
        addReading(to: router)
        addChanges(to: router)
        addCuts(to: router)
    }

    // MARK: The page

    private func addPage(to router: Router<StudioRequestContext>) {
        WebStudioServer.addRolePage(
            "review", html: PackageResources.review_html, script: PackageResources.review_js, style: PackageResources.review_css, to: router
        ) { context in !Self.mayLook(context.signedIn?.account) }
    }

    // MARK: Reading

    private func addReading(to router: Router<StudioRequestContext>) {
        let routes = self
        router.get("/api/review") { _, context -> Response in
            guard let account = context.signedIn?.account else { return WebStudioServer.refusal(401, ServiceDoor.signInFirst) }
            guard Self.mayLook(account) else { return WebStudioServer.refusal(403, Self.onlyReviewers) }
            let (desk, store, now) = (routes.engine.desk, routes.engine.review.store, routes.clock())
            return await Self.answer { () throws(NarrationError) in
                let entries = try desk.list(DeskFilter(state: .readyForReview), by: .account(account))
                let rows = try entries.map { (entry) throws(NarrationError) in
                    ListedArticle(entry, returned: try store.latestSendBack(of: entry.article) != nil, now: now)
                }
                return (200, ["articles": rows])
            }
        }
        router.get("/api/review/:id") { _, context -> Response in
            let found = await routes.article(context, .view)
            guard case .found(let account, let article) = found else { return found.refusal }
            let engine = routes.engine
            return await Self.answer { () throws(NarrationError) in
                let review = try engine.context(article, account: account, actor: .account(account))
                return (200, try ReviewedPage(review, paragraphs: try engine.library.records(of: article).paragraphs(), findings: try engine.findings(review)))
            }
        }
    }

    // MARK: Changing

    private func addChanges(to router: Router<StudioRequestContext>) {
        let routes = self
        router.post("/api/review/:id/notes") { request, context -> Response in
            let found = await routes.article(context, .review)
            guard case .found(let account, let article) = found else { return found.refusal }
            guard let body = await Self.body(request) else { return WebStudioServer.refusal(413, Self.tooBig) }
            let form: NoteForm
            let content: ReviewNote.Content
            do throws(NarrationError) {
                form = try DeskRoutes.decoded(NoteForm.self, body)
                content = try form.content()
            } catch {
                return WebStudioServer.refusal(400, error.message)
            }
            let engine = routes.engine
            return await Self.answer { () throws(NarrationError) in
                let review = try engine.context(article, account: account, actor: .account(account))
                let note = try review.service.pin(
                    content, paragraph: form.paragraph, seconds: form.at, on: review.reviewed, by: account, relation: review.relation)
                return (201, Note(note, reviewed: review.reviewed))
            }
        }
        router.post("/api/review/:id/heard") { request, context -> Response in
            let found = await routes.article(context, .review)
            guard case .found(let account, let article) = found else { return found.refusal }
            guard let body = await Self.body(request) else { return WebStudioServer.refusal(413, Self.tooBig) }
            let form: HeardForm
            do throws(NarrationError) {
                form = try DeskRoutes.decoded(HeardForm.self, body)
            } catch {
                return WebStudioServer.refusal(400, error.message)
            }
            let (engine, activity) = (routes.engine, routes.activity)
            return await Self.answer { () throws(NarrationError) in
                let review = try engine.context(article, account: account, actor: .account(account))
                guard let activity else { return (200, Heard(article: article.id.rawValue, seconds: form.seconds, counted: false)) }
                try ReviewDesk.heard(form.seconds, in: review, activity: activity)
                return (200, Heard(article: article.id.rawValue, seconds: form.seconds, counted: true))
            }
        }
        router.post("/api/review/:id/send-back") { request, context -> Response in
            let found = await routes.article(context, .approve)
            guard case .found(let account, let article) = found else { return found.refusal }
            guard await Self.body(request) != nil else { return WebStudioServer.refusal(413, Self.tooBig) }
            let engine = routes.engine
            return await Self.answer { () throws(NarrationError) in
                let sent = try ReviewDesk.sendBack(try engine.context(article, account: account, actor: .account(account)))
                return (200, SentBack(article: article.id.rawValue, state: DeskState.pickupsRequested.rawValue, pickups: sent.pickups.count))
            }
        }
        router.post("/api/review/:id/approve") { request, context -> Response in
            let found = await routes.article(context, .approve)
            guard case .found(let account, let article) = found else { return found.refusal }
            guard await Self.body(request) != nil else { return WebStudioServer.refusal(413, Self.tooBig) }
            guard let sending = routes.sending else { return WebStudioServer.refusal(409, Self.noDestination) }
            do throws(NarrationError) {
                guard let done = try await routes.engine.approve(article, by: .account(account), sending: sending, runner: routes.runner, recordings: routes.recordings) else {
                    // Approved; another host of the service was already delivering it.
                    return WebStudioServer.json(202, ["article": article.id.rawValue, "state": DeskState.approved.rawValue])
                }
                return WebStudioServer.json(
                    200, ["article": article.id.rawValue, "state": done.entry.state.rawValue, "delivered": done.job.remotePath ?? sending.destination.description])
            } catch {
                // Refused before anything was exported: the desk's status; anything else failed
                // after the approval (the export or the delivery), and the article stays Approved.
                switch error.kind {
                case .notPermitted, .accountRefused: return WebStudioServer.refusal(403, error.message)
                case .unknownArticle: return WebStudioServer.refusal(404, error.message)
                case .deskRefused: return WebStudioServer.refusal(409, error.message)
                default: return WebStudioServer.refusal(502, error.message + " " + Self.triedAgain)
                }
            }
        }
    }

    // MARK: The take check's cuts

    /// Listening to a cut (`view`: coordinators and admins may listen too), and cutting it or
    /// leaving the take as it is (`review`: the proof-listener's), each as the studio does it
    /// (`ReviewDesk.acceptCut`, `leaveCut`, `cutPreview`). The take's chunks are brought home
    /// first on a host that lacks them.
    private func addCuts(to router: Router<StudioRequestContext>) {
        let routes = self
        router.get("/api/review/:id/cuts/:chunk/:number/audio") { request, context -> Response in
            let found = await routes.article(context, .view)
            guard case .found(let account, let article) = found else { return found.refusal }
            guard let (chunk, number) = Self.cut(context) else { return WebStudioServer.refusal(400, Self.notACut) }
            let asCut: Bool
            switch request.uri.queryParameters.get("as") {
            case "read": asCut = false
            case "cut": asCut = true
            default: return WebStudioServer.refusal(400, Self.listenAs)
            }
            await routes.bringHome(article)
            let engine = routes.engine
            let wave: [UInt8]
            do throws(NarrationError) {
                wave = try await BlockingWork.run(named: "narrate-web-review") { () throws(NarrationError) in
                    let review = try engine.context(article, account: account, actor: .account(account))
                    return try engine.cutPreview(number, ofChunk: chunk, in: review).preview.wav(asCut: asCut)
                }
            } catch {
                return WebStudioServer.refusal(Self.status(of: error), error.message)
            }
            return Self.wave(wave, range: request.headers[.range])
        }
        router.post("/api/review/:id/cuts/:chunk/:number/accept") { request, context -> Response in
            let found = await routes.article(context, .review)
            guard case .found(let account, let article) = found else { return found.refusal }
            guard let (chunk, number) = Self.cut(context) else { return WebStudioServer.refusal(400, Self.notACut) }
            guard await Self.body(request) != nil else { return WebStudioServer.refusal(413, Self.tooBig) }
            await routes.bringHome(article)
            let engine = routes.engine
            do throws(NarrationError) {
                let accepted = try await BlockingWork.run(named: "narrate-web-review") { () throws(NarrationError) in
                    let review = try engine.context(article, account: account, actor: .account(account))
                    let (cut, result) = try engine.acceptCut(number, ofChunk: chunk, in: review)
                    return CutAccepted(
                        article: article.id.rawValue, chunk: result.chunk.id.rawValue, take: result.index.number, paragraph: NullWhenAbsent(cut.paragraph),
                        framesCut: result.framesCut, secondsCut: Cut.milliseconds(article.format.seconds(result.framesCut)))
                }
                return WebStudioServer.json(200, accepted)
            } catch where error.kind == .articleBusy {
                return WebStudioServer.refusal(409, Self.busyCutting)
            } catch {
                return WebStudioServer.refusal(Self.status(of: error), error.message)
            }
        }
        router.post("/api/review/:id/cuts/:chunk/:number/dismiss") { request, context -> Response in
            let found = await routes.article(context, .review)
            guard case .found(let account, let article) = found else { return found.refusal }
            guard let (chunk, number) = Self.cut(context) else { return WebStudioServer.refusal(400, Self.notACut) }
            guard await Self.body(request) != nil else { return WebStudioServer.refusal(413, Self.tooBig) }
            let engine = routes.engine
            return await Self.answer { () throws(NarrationError) in
                let review = try engine.context(article, account: account, actor: .account(account))
                let cut = try engine.leaveCut(number, ofChunk: chunk, in: review)
                return (200, CutLeft(article: article.id.rawValue, chunk: chunk.rawValue, take: cut.index.number, paragraph: NullWhenAbsent(cut.paragraph), number: number))
            }
        }
    }

    /// The cut a route names: its take's id and its number in the take's check (0 to 99,999);
    /// nil for anything else.
    static func cut(_ context: StudioRequestContext) -> (ChunkID, Int)? {
        guard let chunk = context.parameters.get("chunk"), Identifier.isWellFormed(chunk),
            let text = context.parameters.get("number"), (1...5).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(text)
        else { return nil }
        return (ChunkID(chunk), number)
    }

    /// A WAV file in memory, whole or the byte range asked for.
    static func wave(_ bytes: [UInt8], range asked: String?) -> Response {
        var headers: HTTPFields = [.contentType: "audio/wav", .acceptRanges: "bytes", .cacheControl: "no-store"]
        let range: Range<Int>
        let status: HTTPResponse.Status
        switch ByteRange.parse(asked, size: bytes.count) {
        case .whole:
            (range, status) = (0..<bytes.count, .ok)
        case .part(let part):
            (range, status) = (part, .partialContent)
            headers[.contentRange] = "bytes \(part.lowerBound)-\(part.upperBound - 1)/\(bytes.count)"
        case .unsatisfiable:
            headers[.contentRange] = "bytes */\(bytes.count)"
            return Response(status: .rangeNotSatisfiable, headers: headers)
        }
        headers[.contentLength] = String(range.count)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes[range])))
    }

    /// Brings home from the recordings store the chunks of `article` this host lacks (another
    /// host recorded them), before a take of it is heard or cut here.
    func bringHome(_ article: Article) async {
        guard let recordings else { return }
        _ = try? await engine.library.bringChunksHome(of: article.id, from: recordings)
    }

    // MARK: Who may

    /// Whether `account` may look at articles in review at all: proof-listeners, coordinators
    /// and admins (`view` of an article ready for review), not volunteers.
    static func mayLook(_ account: Account?) -> Bool {
        guard let account else { return false }
        return Permissions.may(account, .view, .readyForReview)
    }

    /// The article a route names, or the refusal: 401 without a session; 403 for an account that
    /// may not do `action` to any article in review (asked before the id is looked at, so that
    /// no id can be probed); 400 a malformed id; 404 no such article on the desk; 409 an article
    /// that is not ready for review (coordinators may see every article, but review only these).
    enum Found {
        case found(Account, Article)
        case refused(Response)

        var refusal: Response {
            if case .refused(let response) = self { return response }
            return WebStudioServer.refusal(500, "The article could not be read.")
        }
    }

    func article(_ context: StudioRequestContext, _ action: ServiceAction) async -> Found {
        guard let account = context.signedIn?.account else { return .refused(WebStudioServer.refusal(401, ServiceDoor.signInFirst)) }
        guard Permissions.may(account, action, .readyForReview) else {
            return .refused(WebStudioServer.refusal(403, Self.mayLook(account) ? Self.onlyProofListeners : Self.onlyReviewers))
        }
        guard let id = context.parameters.get("id"), Identifier.isWellFormed(id) else {
            return .refused(WebStudioServer.refusal(400, DeskRoutes.notAnID))
        }
        let (desk, library) = (engine.desk, engine.library)
        let looked: (DeskEntry?, Article?)
        do throws(NarrationError) {
            looked = try await BlockingWork.run(named: "narrate-web-review") { () throws(NarrationError) in
                guard let entry = try desk.store.entry(ArticleID(id)) else { return (nil, nil) }
                return (entry, try library.article(id))
            }
        } catch {
            return .refused(WebStudioServer.refusal(Self.status(of: error), error.message))
        }
        guard let entry = looked.0, let article = looked.1 else {
            return .refused(WebStudioServer.refusal(404, "There is no article \(id) on the desk: reload the list of articles."))
        }
        guard entry.state == .readyForReview else { return .refused(WebStudioServer.refusal(409, Self.notReady)) }
        guard Permissions.may(account, action, entry.relation(to: account.name)) else {
            return .refused(WebStudioServer.refusal(403, ServiceDoor.notAllowedArticle))
        }
        return .found(account, article)
    }

    // MARK: Answers

    /// A small JSON body; nil when it is over 16 KiB.
    static func body(_ request: Request) async -> ByteBuffer? {
        var request = request
        return try? await request.collectBody(upTo: WebStudioServer.accountRequestLimit)
    }

    /// Runs `work` as blocking work and answers with its status and value, or with the
    /// refusal's status and sentence.
    static func answer(_ work: @escaping @Sendable () throws(NarrationError) -> (Int, any Encodable & Sendable)) async -> Response {
        do throws(NarrationError) {
            let (status, value) = try await BlockingWork.run(named: "narrate-web-review", work)
            return WebStudioServer.json(status, value)
        } catch {
            return WebStudioServer.refusal(status(of: error), error.message)
        }
    }

    /// The HTTP status of a review refusal.
    static func status(of error: NarrationError) -> Int {
        if error.message == NarrationError.noNotesToSendBack.message { return 409 }
        switch error.kind {
        case .usage: return 400
        case .notPermitted, .accountRefused: return 403
        case .unknownArticle, .chunkIndexOutOfRange: return 404
        case .deskRefused, .articleBusy: return 409
        default: return 500
        }
    }
}
