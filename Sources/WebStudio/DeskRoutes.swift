import Foundation
import Hummingbird
import Narration
import NarrationCore
import NarrationText
import NIOCore

/// The coordinator's desk in a reading service: the page `/desk` and its JSON routes, which
/// offer what `narrate desk` offers (list with filters, add, assign, leave open, change,
/// withdraw). Every route lets in coordinators and admins only (`manage-articles` on the desk),
/// then asks `DeskService` as the signed-in account, so the desk's own rules decide the rest.
/// Every number, day and length of a request is checked before use; a refusal is one sentence
/// and changes nothing. Service.md beside this file lists every route.
struct DeskRoutes: Sendable {
    let door: ServiceDoor
    let desk: DeskService
    /// Where the desk's new articles are made (`NarrationLibrary.makeDeskArticle`).
    let library: NarrationLibrary
    /// What is late is judged at this clock's time (the desk's own clock in tests).
    let clock: @Sendable () -> Date
    /// Told of an article given to another account, left open or withdrawn: its open studio
    /// pages check at once whether their accounts still may work on it (`StudioRooms.accessChanged`).
    var accessChanged: @Sendable (ArticleID) -> Void = { _ in }

    /// Articles per page of a listing: one request stays quick with twenty thousand on the desk.
    static let pageSize = 100
    /// The highest page number asked for (so that no arithmetic on it can overflow).
    static let pageLimit = 1_000_000
    /// The longest title and publication a new article may have.
    static let titleLength = 300
    static let publicationLength = 200
    /// The text files the page uploads as text in the JSON body (`text`).
    static let uploadFormats: [ScriptFormat] = [.plain, .markdown, .html]
    /// The documents the page uploads whole, as base64 (`file`), and the most bytes one may have
    /// (its base64 fits the 5 MB body).
    static let documentFormats: [ScriptFormat] = [.docx, .odt, .pdf]
    static let documentLimit = 3 * 1024 * 1024
    static let documentTooBig = "The file is bigger than 3 MB: the desk takes Word, OpenDocument and PDF files of at most 3 MB: paste its text instead."

    /// The changes after which an article may be someone else's (its open pages are told).
    static let changesWhoseItIs: Set<String> = ["assign", "open", "withdraw"]

    static let onlyCoordinators = "The desk is for coordinators and admins: ask the service's coordinator if you should have it."
    static let notAnID = "That is not an article id: ids are up to 32 of 0-9 and a-z without i, l, o, u, as the desk lists them."
    static let tooBig = "The text is too big: the desk takes texts of at most 2 MB; split a longer text in two, or ask the service's operator to add it from its file."

    /// Adds the page, its files and the JSON routes to `router`.
    func add(to router: Router<StudioRequestContext>) {
        addPage(to: router)
        addListing(to: router)
        addChanges(to: router)
    }

    // MARK: The page

    private func addPage(to router: Router<StudioRequestContext>) {
        let door = self.door
        WebStudioServer.addRolePage(
            "desk", html: PackageResources.desk_html, script: PackageResources.desk_js, style: PackageResources.desk_css, to: router
        ) { context in await door.refusal(context, .manageArticles, article: nil) != nil }
    }

    // MARK: Reading

    private func addListing(to router: Router<StudioRequestContext>) {
        let routes = self
        router.get("/api/desk") { request, context -> Response in
            guard let account = await routes.coordinator(context) else { return await routes.refusal(context) }
            let query: DeskQuery
            do throws(NarrationError) {
                query = try DeskQuery(request.uri.queryParameters)
            } catch {
                return WebStudioServer.refusal(400, error.message)
            }
            let desk = routes.desk
            let now = routes.clock()
            return await routes.answer { () throws(NarrationError) in
                // page ≤ pageLimit, so the offset cannot overflow.
                let found = try desk.page(
                    query.filter, late: query.late, offset: (query.page - 1) * Self.pageSize, limit: Self.pageSize, by: .account(account))
                return (200, DeskListing(found.entries, total: found.total, page: query.page, now: now))
            }
        }
        router.get("/api/desk/volunteers") { _, context -> Response in
            guard await routes.coordinator(context) != nil else { return await routes.refusal(context) }
            let accounts = routes.door.accounts
            return await routes.answer { () throws(NarrationError) in
                let assignable = try accounts.accounts()
                    .filter { Permissions.may($0, .record, .assignedToThem) }
                    .sorted { $0.name.rawValue < $1.name.rawValue }
                return (200, ["accounts": assignable.map { WebStudioServer.Me(account: $0.name.rawValue, role: $0.role.rawValue) }])
            }
        }
    }

    // MARK: Changing

    private func addChanges(to router: Router<StudioRequestContext>) {
        let routes = self
        router.post("/api/desk") { request, context -> Response in
            guard let account = await routes.coordinator(context) else { return await routes.refusal(context) }
            var request = request
            let body: ByteBuffer
            do {
                body = try await request.collectBody(upTo: WebStudioServer.articleRequestLimit)
            } catch {
                return WebStudioServer.refusal(413, Self.tooBig)
            }
            guard let form = try? JSONDecoder().decode(DeskArticleForm.self, from: Data(buffer: body)) else { return WebStudioServer.unreadable }
            let checked: (new: DeskService.NewArticle, text: (bytes: [UInt8], format: ScriptFormat, name: String)?)
            do throws(DeskRefusalAnswer) {
                checked = try form.checked()
            } catch {
                return WebStudioServer.refusal(error.status, error.sentence)
            }
            let (desk, library) = (routes.desk, routes.library)
            let now = routes.clock()
            return await routes.answer { () throws(NarrationError) in
                // The text is read before anything is made: a text that cannot be read adds nothing.
                let paragraphs = try checked.text.map { text throws(NarrationError) in
                    (try ScriptReader.read(text.bytes, format: text.format, name: text.name), text.name)
                }
                let entry = try desk.add(checked.new, by: .account(account)) { (new) throws(NarrationError) in
                    let article = try library.makeDeskArticle(new, text: nil)
                    if let paragraphs { _ = try library.attachText(paragraphs.0, to: article, file: paragraphs.1) }
                    return article
                }
                return (201, DeskDocument.row(entry, now: now))
            }
        }
        route(router, "assign") { desk, id, account, body throws(NarrationError) in
            let form = try Self.decoded(AssignForm.self, body)
            let volunteer = try routes.door.accounts.account(try AccountName(form.account))
            return try desk.assign(id, to: volunteer, by: .account(account))
        }
        route(router, "open") { desk, id, account, _ throws(NarrationError) in try desk.leaveOpen(id, by: .account(account)) }
        route(router, "withdraw") { desk, id, account, _ throws(NarrationError) in try desk.withdraw(id, by: .account(account)) }
        route(router, "change") { desk, id, account, body throws(NarrationError) in
            let change = try Self.decoded(ChangeForm.self, body).checked()
            return try desk.change(id, change, by: .account(account))
        }
    }

    /// `POST /api/desk/ID/<verb>`: checks the account and the id, reads a small JSON body, and
    /// answers 200 with the article's record after `act`.
    private func route(
        _ router: Router<StudioRequestContext>, _ verb: String,
        _ act: @escaping @Sendable (DeskService, ArticleID, Account, ByteBuffer) throws(NarrationError) -> DeskEntry
    ) {
        let routes = self
        router.post("/api/desk/:id/\(verb)") { request, context -> Response in
            guard let account = await routes.coordinator(context) else { return await routes.refusal(context) }
            guard let id = context.parameters.get("id"), Identifier.isWellFormed(id) else { return WebStudioServer.refusal(400, Self.notAnID) }
            var request = request
            guard let body = try? await request.collectBody(upTo: WebStudioServer.accountRequestLimit) else {
                return WebStudioServer.refusal(413, "The request is too big: a change of the desk is a few words, at most 16 KiB.")
            }
            let (desk, now) = (routes.desk, routes.clock())
            let answer = await routes.answer { () throws(NarrationError) in
                (200, DeskDocument.row(try act(desk, ArticleID(id), account, body), now: now))
            }
            if answer.status == .ok, Self.changesWhoseItIs.contains(verb) { routes.accessChanged(ArticleID(id)) }
            return answer
        }
    }

    // MARK: Answers

    /// The signed-in account when it is a coordinator's or an admin's; nil otherwise.
    private func coordinator(_ context: StudioRequestContext) async -> Account? {
        guard await door.refusal(context, .manageArticles, article: nil) == nil else { return nil }
        return context.signedIn?.account
    }

    /// 401 without a session; 403 for an account that may not use the desk.
    private func refusal(_ context: StudioRequestContext) async -> Response {
        guard context.signedIn != nil else { return WebStudioServer.refusal(401, ServiceDoor.signInFirst) }
        return WebStudioServer.refusal(403, Self.onlyCoordinators)
    }

    /// Runs `work` as blocking work and answers with its status and value, or with the
    /// refusal's status and sentence.
    private func answer(_ work: @escaping @Sendable () throws(NarrationError) -> (Int, any Encodable & Sendable)) async -> Response {
        do throws(NarrationError) {
            let (status, value) = try await BlockingWork.run(named: "narrate-web-desk", work)
            return WebStudioServer.json(status, value)
        } catch {
            return WebStudioServer.refusal(Self.status(of: error), error.message)
        }
    }

    /// The HTTP status of a desk refusal.
    static func status(of error: NarrationError) -> Int {
        switch error.kind {
        case .usage, .textUnreadable: 400
        case .notPermitted: 403
        case .unknownArticle, .unknownAccount: 404
        case .deskRefused: 409
        default: 500
        }
    }

    /// A small JSON body as `T`.
    /// - Throws: `usage` when it is not the JSON the route takes.
    static func decoded<T: Decodable>(_ type: T.Type, _ body: ByteBuffer) throws(NarrationError) -> T {
        guard let value = try? JSONDecoder().decode(T.self, from: Data(buffer: body)) else {
            throw .usage("The request could not be read: reload the page and try again.")
        }
        return value
    }
}
