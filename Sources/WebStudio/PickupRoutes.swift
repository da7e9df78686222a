import Foundation
import Hummingbird
import Narration
import NarrationCore
import NIOCore

/// The volunteer's pickups in a reading service: the list their article's studio shows
/// (`GET /api/pickups/ID`) and a pickup marked done with an edit (`POST /api/pickups/ID/NOTE/done`).
/// The volunteer whose article it is may both (`record` on it); coordinators and admins may
/// look. Each route asks `PickupCompletion` as the signed-in account, which asks
/// `Permissions.may`; every id, number and body is checked first, and a refusal is one sentence
/// that changes nothing. Service.md beside this file lists them.
struct PickupRoutes: Sendable {
    let door: ServiceDoor
    let pickups: PickupCompletion
    /// Where the article is read from (`NarrationLibrary.reviewedArticle`).
    let library: NarrationLibrary

    static let notYours = "These pickups are not yours to see: open your articles from your home page."
    static let notANote = "That is not a pickup's number: pickups are numbered from 1, as the article's pickups list them."
    static let notAnEdit = "That is not an edit: give its number from the article's history (from 1), or leave it out for the latest."
    static let tooBig = "The request is too big: marking a pickup done takes an edit's number, at most 16 KiB."

    /// Adds the routes to `router`.
    func add(to router: Router<StudioRequestContext>) {
        let routes = self
        router.get("/api/pickups/:id") { _, context -> Response in
            guard let account = context.signedIn?.account else { return WebStudioServer.refusal(401, ServiceDoor.signInFirst) }
            guard let id = context.parameters.get("id"), Identifier.isWellFormed(id) else { return WebStudioServer.refusal(400, DeskRoutes.notAnID) }
            return await routes.answer { () throws(NarrationError) in
                let (entry, reviewed) = try routes.article(ArticleID(id))
                let list = try routes.pickups.pickups(of: reviewed, for: account, relation: Self.readingRelation(entry, account.name))
                return (200, PickupList(article: entry.article.rawValue, state: entry.state.rawValue, pickups: list.map(PickupJSON.init)))
            }
        }
        router.post("/api/pickups/:id/:note/done") { request, context -> Response in
            guard let account = context.signedIn?.account else { return WebStudioServer.refusal(401, ServiceDoor.signInFirst) }
            guard let id = context.parameters.get("id"), Identifier.isWellFormed(id) else { return WebStudioServer.refusal(400, DeskRoutes.notAnID) }
            guard let note = Self.number(context.parameters.get("note")) else { return WebStudioServer.refusal(400, Self.notANote) }
            var request = request
            guard let body = try? await request.collectBody(upTo: WebStudioServer.accountRequestLimit) else {
                return WebStudioServer.refusal(413, Self.tooBig)
            }
            let edit: Int?
            switch Self.edit(in: body) {
            case .some(let given): edit = given
            case .none: return WebStudioServer.refusal(400, Self.notAnEdit)
            }
            return await routes.answer { () throws(NarrationError) in
                let (entry, reviewed) = try routes.article(ArticleID(id))
                let relation = entry.relation(to: account.name)
                guard Permissions.may(account, .record, relation) else { throw .reviewNotAllowed }
                guard entry.state == .pickupsRequested else {
                    throw NarrationError(.deskRefused, "“\(entry.title)” is \(entry.state.title), not Pickups requested: it has no pickups to do.")
                }
                let open = try routes.pickups.pickups(of: reviewed, for: account, relation: relation)
                guard let pickup = open.first(where: { $0.note.id == note }) else {
                    throw NarrationError(.unknownArticle, "There is no pickup \(note) of “\(entry.title)”: reload its studio to see its pickups.")
                }
                guard pickup.note.isOpen else { throw NarrationError(.deskRefused, "Pickup \(note) is done already.") }
                let outcome = try routes.pickups.markDone(
                    note, of: reviewed, edit: edit ?? reviewed.lastEdit, by: account, relation: relation, actor: .account(account))
                let state = try routes.pickups.desk.store.entry(entry.article)?.state ?? entry.state
                guard let done = outcome.done.first else { throw .noOpenPickup(note) }
                return (200, DoneAnswer(note: PickupJSON(ReviewPickup(note: done, target: pickup.target)), allDone: outcome.allDone, state: state.rawValue))
            }
        }
    }

    // MARK: Checking

    /// How the article stands to `account` for reading its pickups: as the desk says, except
    /// that its volunteer still reads them once the last one sent it back to review (the studio
    /// page then says all are done), though it is the proof-listener's then.
    static func readingRelation(_ entry: DeskEntry, _ account: AccountName) -> ArticleRelation {
        guard entry.state == .readyForReview, entry.assignee == account else { return entry.relation(to: account) }
        return entry.taking == .claimed ? .claimedByThem : .assignedToThem
    }

    /// A number from 1 to 10^15 written in at most 16 digits; nil for anything else.
    static func number(_ text: String?) -> Int64? {
        guard let text, (1...16).contains(text.utf8.count), text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let value = Int64(text),
            (1...1_000_000_000_000_000).contains(value)
        else { return nil }
        return value
    }

    /// The body's edit: `.some(nil)` when the body is empty, `{}` or `{"edit": null}` (the
    /// latest edit), `.some(N)` for a whole number N from 1 to 2^31 - 1; nil for anything else.
    static func edit(in body: ByteBuffer) -> Int?? {
        if body.readableBytes == 0 { return .some(nil) }
        struct Form: Decodable { var edit: Double? }
        guard let form = try? JSONDecoder().decode(Form.self, from: Data(buffer: body)) else { return nil }
        guard let value = form.edit else { return .some(nil) }
        guard value.isFinite, value >= 1, value <= Double(Int32.max), value == value.rounded() else { return nil }
        return .some(Int(value))
    }

    // MARK: Answers

    /// The article's desk record and what review knows of it.
    /// - Throws: `notOnDesk` (404) for an id that names no article on the desk.
    private func article(_ id: ArticleID) throws(NarrationError) -> (DeskEntry, ReviewedArticle) {
        guard let entry = try pickups.desk.store.entry(id) else {
            throw NarrationError(.unknownArticle, "There is no article \(id) on the desk: open your articles from your home page.")
        }
        return (entry, try library.reviewedArticle(try library.article(id.rawValue)))
    }

    /// Runs `work` as blocking work and answers with its status and value, or with the
    /// refusal's status and sentence.
    private func answer(_ work: @escaping @Sendable () throws(NarrationError) -> (Int, any Encodable & Sendable)) async -> Response {
        do throws(NarrationError) {
            let (status, value) = try await BlockingWork.run(named: "narrate-web-pickups", work)
            return WebStudioServer.json(status, value)
        } catch {
            return WebStudioServer.refusal(Self.status(of: error), error.kind == .accountRefused || error.kind == .notPermitted ? Self.notYours : error.message)
        }
    }

    /// The HTTP status of a refusal.
    static func status(of error: NarrationError) -> Int {
        switch error.kind {
        case .usage: 400
        case .accountRefused, .notPermitted: 403
        case .unknownArticle: 404
        case .deskRefused: 409
        default: 500
        }
    }

    // MARK: JSON

    struct PickupList: Encodable, Sendable {
        let article: String
        let state: String
        let pickups: [PickupJSON]
    }

    struct DoneAnswer: Encodable, Sendable {
        let note: PickupJSON
        let allDone: Bool
        let state: String
    }

    /// A pickup as the contract's NOTE, with its target and, once done, the edit that did it.
    struct PickupJSON: Encodable, Sendable {
        let pickup: ReviewPickup

        init(_ pickup: ReviewPickup) { self.pickup = pickup }

        enum Keys: String, CodingKey {
            case id, paragraph, at, kind, said, shouldBe, text, author, createdAt, done, edit, pickup, target
        }

        enum TargetKeys: String, CodingKey { case chunk, seconds, paragraph }

        func encode(to encoder: any Encoder) throws {
            let note = pickup.note
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(note.id, forKey: .id)
            try container.encode(note.paragraph, forKey: .paragraph)
            try container.encode(note.seconds, forKey: .at)
            switch note.content {
            case .saidShouldBe(let said, let shouldBe):
                try container.encode("said-should-be", forKey: .kind)
                try container.encode(said.rawValue, forKey: .said)
                try container.encode(shouldBe.rawValue, forKey: .shouldBe)
                try container.encodeNil(forKey: .text)
            case .remark(let text):
                try container.encode("remark", forKey: .kind)
                try container.encodeNil(forKey: .said)
                try container.encodeNil(forKey: .shouldBe)
                try container.encode(text.rawValue, forKey: .text)
            }
            try container.encode(note.author.rawValue, forKey: .author)
            try container.encode(note.createdAt.formatted(.iso8601), forKey: .createdAt)
            switch note.pickup {
            case .open:
                try container.encode(false, forKey: .done)
                try container.encodeNil(forKey: .edit)
            case .done(let edit, _, _):
                try container.encode(true, forKey: .done)
                try container.encode(edit, forKey: .edit)
            }
            try container.encode(pickup.target.sentence, forKey: .pickup)
            var target = container.nestedContainer(keyedBy: TargetKeys.self, forKey: .target)
            switch pickup.target {
            case .punch(let chunk, let seconds):
                try target.encode(chunk, forKey: .chunk)
                try target.encode((seconds * 1000).rounded() / 1000, forKey: .seconds)
            case .reread(let paragraph):
                try target.encode(paragraph, forKey: .paragraph)
            }
        }
    }
}

extension WebStudioServer {
    /// The pickups of the service's articles, as its pages and studios mark them done.
    static func pickupCompletion(_ library: NarrationLibrary, _ desk: DeskService) -> PickupCompletion {
        PickupCompletion(review: ReviewService(store: library.reviewStore), desk: desk)
    }
}
