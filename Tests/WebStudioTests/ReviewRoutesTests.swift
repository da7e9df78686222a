import Foundation
import Hummingbird
import HummingbirdTesting
import Narration
import NarrationCore
import NarrationTestSupport
import Studio
import Testing
@testable import WebStudio

/// The review page's routes in process, through Hummingbird's router (no sockets), over a real
/// library with real takes (the virtual microphone) and its catalog, and a folder destination:
/// who may use them, what they refuse and that a refusal changes nothing (notes, the desk, the
/// audit log, the hours), and what they answer.
@Suite("The review page's routes")
struct ReviewRoutesTests {
    typealias Answer = DeskRoutesTests.Answer
    static let onlyReviewers = #"{"error":"Review is for proof-listeners (coordinators and admins may look): ask the service's coordinator if you should have it."}"#

    let fixture: LibraryFixture
    let clock = HandClock()
    let accounts: AccountService
    let desk: DeskService
    let activity: AccountActivity
    let router = Router(context: StudioRequestContext.self)
    /// An article ready for review: two paragraphs, read by a take of 0.5 s and one of 1 s.
    let ready: ArticleID
    /// An article still Recording.
    let recording: ArticleID
    let outbox: URL

    init() throws {
        fixture = try LibraryFixture(sourceSeconds: 3)
        let library = fixture.library
        outbox = fixture.folder.url.appendingPathComponent("feed-folder")
        try FileManager.default.createDirectory(at: outbox, withIntermediateDirectories: true)
        accounts = AccountService(store: library.accountStore, clock: clock.function, hashing: .init(iterations: 1, memoryKiB: 64, lanes: 1))
        desk = DeskService(store: library.deskStore, clock: clock.function)
        activity = AccountActivity(store: library.activityStore, accounts: library.accountStore, clock: clock.function)
        let door = ServiceDoor(
            accounts: accounts, articleAccess: DeskArticleAccess(library: library, desk: library.deskStore), proxy: .none, hosts: .loopback,
            sessionPolicy: SessionPolicy(), sessionCheckInterval: .seconds(2))
        let options = Studio.Options(
            captureDevice: "vmic", playbackDevice: "vspeaker", profile: .archive, destination: .folder(outbox.path),
            retry: RetrySchedule(attempts: 1, first: 0, limit: 0), publication: "Gazette", narrator: "Ann", format: .speech, checksTakes: false)
        WebStudioServer.addService(to: router, door: door, scheme: "http")
        ReviewRoutes(door: door, desk: desk, library: library, activity: activity, options: options, clock: clock.function).add(to: router)
        for (name, role) in [("cora", Role.coordinator), ("ann", .volunteer), ("vic", .volunteer), ("pat", .proofListener)] {
            let invitation = try accounts.add(try AccountName(name), role: role, by: "test")
            try accounts.acceptInvitation(account: name, token: invitation.token, passphrase: DeskRoutesTests.passphrase)
        }
        ready = try Self.article("Harbour", takes: [0.5, 1], send: true, fixture: fixture, desk: desk, accounts: accounts)
        recording = try Self.article("Storm", takes: [0.5], send: false, fixture: fixture, desk: desk, accounts: accounts)
    }

    /// An article on the desk with two paragraphs, given to ann, with takes of `takes` seconds,
    /// sent for review when `send`.
    static func article(
        _ title: String, takes: [Double], send: Bool, fixture: LibraryFixture, desk: DeskService, accounts: AccountService
    ) throws -> ArticleID {
        let library = fixture.library
        let cora = try accounts.account(try AccountName("cora"))
        let ann = try accounts.account(try AccountName("ann"))
        let entry = try desk.add(.init(title: title, publication: "Gazette"), by: .account(cora)) { (new) throws(NarrationError) in
            let article = try library.makeDeskArticle(new, text: nil)
            _ = try library.attachText(
                [ScriptParagraph(kind: .heading, text: "The harbour stayed closed."), ScriptParagraph(kind: .paragraph, text: "The storm passed.")],
                to: article, file: "text.txt")
            return article
        }
        try desk.assign(entry.article, to: ann, by: .account(cora))
        let article = try library.article(entry.article.rawValue)
        for seconds in takes { try fixture.record(article, seconds: seconds) }
        try desk.recordedTake(entry.article, by: .account(ann))
        if send { try desk.send(entry.article, by: .account(ann)) }
        return entry.article
    }

    /// Everything a refusal must leave as it was: the notes and send-backs, the desk, the audit
    /// log, the hours and the destination folder.
    func snapshot() throws -> String {
        let library = fixture.library
        let notes = try [ready, recording].map { try library.reviewStore.notes(of: $0).count }
        let sendBacks = try [ready, recording].map { try library.reviewStore.latestSendBack(of: $0)?.id ?? 0 }
        let entries = try library.deskStore.entries(DeskFilter()).map { "\($0)" }
        let audit = try library.deskStore.auditLog(account: nil, since: nil).count
        let hours = try library.activityStore.activity(of: nil).count
        let delivered = FileManager.default.enumerator(atPath: outbox.path)?.allObjects.compactMap { $0 as? String } ?? []
        return "\(notes)|\(sendBacks)|\(entries)|\(audit)|\(hours)|\(delivered.sorted())"
    }

    static func routes(_ id: String) -> [(HTTPRequest.Method, String, String?)] {
        [
            (.get, "/api/review", nil), (.get, "/api/review/\(id)", nil),
            (.post, "/api/review/\(id)/notes", #"{"paragraph":1,"at":0.2,"text":"Too fast."}"#),
            (.post, "/api/review/\(id)/heard", #"{"seconds":1}"#), (.post, "/api/review/\(id)/send-back", "{}"),
            (.post, "/api/review/\(id)/approve", "{}"),
        ]
    }

    static func send(_ client: some TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, cookie: String?, json: String? = nil) async throws -> Answer {
        try await DeskRoutesTests.send(client, method, uri, cookie: cookie, json: json)
    }

    // MARK: Who may

    @Test("without a session every review route answers 401 and /review leads to the sign-in page; nothing changes")
    func noSession() async throws {
        let before = try snapshot()
        let id = ready.rawValue
        try await Application(router: router).test(.router) { client in
            for (method, uri, body) in Self.routes(id) {
                let answer = try await Self.send(client, method, uri, cookie: nil, json: body)
                #expect(answer.status == 401 && answer.body == #"{"error":"Sign in first: this page needs your account."}"#, "\(method) \(uri)")
            }
            let page = try await client.execute(uri: "/review", method: .get) { ($0.status.code, $0.headers[.location]) }
            #expect(page.0 == 303 && page.1 == "/signin")
        }
        #expect(try snapshot() == before)
    }

    @Test("a volunteer, even the article's own, is refused every review route with 403 and the sentence, before any id is looked at; nothing changes")
    func volunteers() async throws {
        let before = try snapshot()
        let (id, other) = (ready.rawValue, recording.rawValue)
        try await Application(router: router).test(.router) { client in
            for name in ["ann", "vic"] {
                let cookie = try await DeskRoutesTests.signIn(client, name)
                for id in [id, other, "zzzz2222", "not-an-id"] {
                    for (method, uri, body) in Self.routes(id) {
                        let answer = try await Self.send(client, method, uri, cookie: cookie, json: body)
                        #expect(answer.status == 403 && answer.body == Self.onlyReviewers, "\(name): \(method) \(uri)")
                    }
                }
                let page = try await Self.send(client, .get, "/review", cookie: cookie)
                #expect(page.status == 403 && page.body.contains("<h1 id=\"heading\">Review</h1>"))
            }
        }
        #expect(try snapshot() == before)
    }

    @Test("a coordinator may look (the list, the article) but not pin, send back or approve (403); another state is 409; nothing changes")
    func coordinator() async throws {
        let before = try snapshot()
        let (id, other) = (ready.rawValue, recording.rawValue)
        try await Application(router: router).test(.router) { client in
            let cookie = try await DeskRoutesTests.signIn(client, "cora")
            let list = try await Self.send(client, .get, "/api/review", cookie: cookie)
            #expect(list.status == 200 && (list.json["articles"] as? [[String: Any]])?.map { $0["id"] as? String } == [id])
            #expect(try await Self.send(client, .get, "/api/review/\(id)", cookie: cookie).status == 200)
            for (method, uri, body) in Self.routes(id).dropFirst(2) {
                let answer = try await Self.send(client, method, uri, cookie: cookie, json: body)
                #expect(answer.status == 403 && answer.error == ReviewRoutes.onlyProofListeners, "\(method) \(uri)")
            }
            let elsewhere = try await Self.send(client, .get, "/api/review/\(other)", cookie: cookie)
            #expect(elsewhere.status == 409 && elsewhere.error == ReviewRoutes.notReady)
        }
        #expect(try snapshot() == before)
    }

    @Test("a proof-listener on an article not ready for review gets 409 on every article route, 404 for an id not on the desk, 400 for a malformed one; nothing changes")
    func otherStates() async throws {
        let before = try snapshot()
        let other = recording.rawValue
        try await Application(router: router).test(.router) { client in
            let cookie = try await DeskRoutesTests.signIn(client, "pat")
            for (method, uri, body) in Self.routes(other).dropFirst() {
                let answer = try await Self.send(client, method, uri, cookie: cookie, json: body)
                #expect(answer.status == 409 && answer.error == ReviewRoutes.notReady, "\(method) \(uri)")
            }
            for (method, uri, body) in Self.routes("zzzz2222").dropFirst() {
                let answer = try await Self.send(client, method, uri, cookie: cookie, json: body)
                #expect(answer.status == 404 && answer.error == "There is no article zzzz2222 on the desk: reload the list of articles.", "\(method) \(uri)")
            }
            for (method, uri, body) in Self.routes("NOT-an-id").dropFirst() {
                let answer = try await Self.send(client, method, uri, cookie: cookie, json: body)
                #expect(answer.status == 400 && answer.error == DeskRoutes.notAnID, "\(method) \(uri)")
            }
        }
        #expect(try snapshot() == before)
    }

    // MARK: Bad numbers and texts

    @Test("bad paragraphs, times, texts and forms are refused with 400 and one sentence; nothing is pinned or counted",
          arguments: [
            ("notes", #"{"paragraph":0,"at":0.2,"text":"Too fast."}"#, "There is no paragraph 0: the article's paragraphs are 1 to 2."),
            ("notes", #"{"paragraph":3,"at":0.2,"text":"Too fast."}"#, "There is no paragraph 3: the article's paragraphs are 1 to 2."),
            ("notes", #"{"paragraph":1e300,"at":0.2,"text":"Too fast."}"#, "The request could not be read: reload the page and try again."),
            ("notes", #"{"paragraph":1,"at":-1,"text":"Too fast."}"#,
             "A note's time must be a number of seconds from 0 to the article's length, 00:00:01.5 (1.5 s); -1 is not."),
            ("notes", #"{"paragraph":1,"at":1e300,"text":"Too fast."}"#,
             "A note's time must be a number of seconds from 0 to the article's length, 00:00:01.5 (1.5 s); 1e+300 is not."),
            ("notes", #"{"paragraph":1,"at":"soon","text":"Too fast."}"#, "The request could not be read: reload the page and try again."),
            ("notes", #"{"paragraph":1,"at":0.2,"said":"there"}"#, ReviewRoutes.noteForms),
            ("notes", #"{"paragraph":1,"at":0.2,"said":"there","shouldBe":"their","text":"both"}"#, ReviewRoutes.noteForms),
            ("notes", #"{"paragraph":1,"at":0.2}"#, ReviewRoutes.noteForms),
            ("notes", #"{"paragraph":1,"at":0.2,"text":"   "}"#, "The note's text is empty: write what the listener should hear."),
            ("notes", #"{"paragraph":1,"at":0.2,"said":"the\u0007re","shouldBe":"their"}"#,
             #"The note's "said" holds a control or text-direction character: write it as plain text on one line."#),
            ("notes", #"{"paragraph":1,"at":0.2,"said":"there","shouldBe":"\u202Etheir"}"#,
             #"The note's "should be" holds a control or text-direction character: write it as plain text on one line."#),
            ("notes", #"{"paragraph":1,"at":0.2,"text":"\#(String(repeating: "a", count: 1001))"}"#,
             "The note's text is 1001 characters long: keep it to 1000."),
            ("notes", #"{"paragraph":1,"at":0.2,"said":"\#(String(repeating: "a", count: 201))","shouldBe":"b"}"#,
             #"The note's "said" is 201 characters long: keep it to 200."#),
            ("heard", #"{"seconds":-0.5}"#, "The time heard must be a number of seconds from 0 to the article's length, 00:00:01.5 (1.5 s); -0.5 is not."),
            ("heard", #"{"seconds":1.6}"#, "The time heard must be a number of seconds from 0 to the article's length, 00:00:01.5 (1.5 s); 1.6 is not."),
            ("heard", #"{"seconds":1e300}"#, "The time heard must be a number of seconds from 0 to the article's length, 00:00:01.5 (1.5 s); 1e+300 is not."),
            ("heard", #"{"seconds":"all"}"#, "The request could not be read: reload the page and try again."),
            ("heard", "not json", "The request could not be read: reload the page and try again."),
          ] as [(String, String, String)])
    func badInput(route: String, json: String, sentence: String) async throws {
        let before = try snapshot()
        let id = ready.rawValue
        try await Application(router: router).test(.router) { client in
            let cookie = try await DeskRoutesTests.signIn(client, "pat")
            let answer = try await Self.send(client, .post, "/api/review/\(id)/\(route)", cookie: cookie, json: json)
            #expect(answer.status == 400)
            #expect(answer.error == sentence)
        }
        #expect(try snapshot() == before)
    }

    @Test("a body over 16 KiB is refused with 413; a send-back with no note with 409; nothing changes")
    func tooBigAndNoNotes() async throws {
        let before = try snapshot()
        let id = ready.rawValue
        try await Application(router: router).test(.router) { client in
            let cookie = try await DeskRoutesTests.signIn(client, "pat")
            let big = #"{"paragraph":1,"at":0.2,"text":"\#(String(repeating: "a", count: 17 << 10))"}"#
            let answer = try await Self.send(client, .post, "/api/review/\(id)/notes", cookie: cookie, json: big)
            #expect(answer.status == 413 && answer.error == ReviewRoutes.tooBig)
            let empty = try await Self.send(client, .post, "/api/review/\(id)/send-back", cookie: cookie, json: "{}")
            #expect(empty.status == 409 && empty.error == NarrationError.noNotesToSendBack.message)
        }
        #expect(try snapshot() == before)
    }

    // MARK: Reviewing

    @Test("a proof-listener lists, opens (paragraph times from the takes), pins two notes, reports 1.2 s heard and sends back: Pickups requested, audited")
    func reviewAndSendBack() async throws {
        let (id, library) = (ready.rawValue, fixture.library)
        try await Application(router: router).test(.router) { client in
            let cookie = try await DeskRoutesTests.signIn(client, "pat")
            let list = try await Self.send(client, .get, "/api/review", cookie: cookie)
            let listed = try #require((list.json["articles"] as? [[String: Any]])?.first)
            #expect(listed["id"] as? String == id && listed["title"] as? String == "Harbour" && listed["volunteer"] as? String == "ann")
            #expect(listed["state"] as? String == "ready-for-review" && listed["stateTitle"] as? String == "Ready for review")
            #expect(listed["returned"] as? Bool == false && listed["late"] as? Bool == false && listed["deadline"] is NSNull)

            let opened = try await Self.send(client, .get, "/api/review/\(id)", cookie: cookie).json
            #expect(opened["duration"] as? Double == 1.5)
            let paragraphs = try #require(opened["paragraphs"] as? [[String: Any]])
            #expect(paragraphs.map { $0["number"] as? Int } == [1, 2])
            #expect(paragraphs.map { $0["kind"] as? String } == ["heading", "paragraph"])
            #expect(paragraphs.map { $0["start"] as? Double } == [0, 0.5] && paragraphs.map { $0["end"] as? Double } == [0.5, 1.5])
            #expect((opened["notes"] as? [Any])?.isEmpty == true && (opened["changes"] as? [Any])?.isEmpty == true)

            let slip = try await Self.send(client, .post, "/api/review/\(id)/notes", cookie: cookie, json: #"{"paragraph":2,"at":0.75,"said":"past","shouldBe":"passed"}"#)
            #expect(slip.status == 201)
            #expect(slip.json["kind"] as? String == "said-should-be" && slip.json["said"] as? String == "past" && slip.json["text"] is NSNull)
            #expect(slip.json["at"] as? Double == 0.75 && slip.json["done"] as? Bool == false && slip.json["author"] as? String == "pat")
            #expect(slip.json["pickup"] as? String == "punch in at 0.25 s into chunk 2")
            let remark = try await Self.send(client, .post, "/api/review/\(id)/notes", cookie: cookie, json: #"{"paragraph":1,"at":0.1,"text":"A door slams."}"#)
            #expect(remark.status == 201 && remark.json["kind"] as? String == "remark" && remark.json["said"] is NSNull)

            let heard = try await Self.send(client, .post, "/api/review/\(id)/heard", cookie: cookie, json: #"{"seconds":1.2}"#)
            #expect(heard.status == 200 && heard.json["counted"] as? Bool == true)

            let sent = try await Self.send(client, .post, "/api/review/\(id)/send-back", cookie: cookie, json: "{}")
            #expect(sent.status == 200 && sent.body == #"{"article":"\#(id)","pickups":2,"state":"pickups-requested"}"#)
            // Its state no longer allows review: the list is empty and a second send-back is 409.
            #expect((try await Self.send(client, .get, "/api/review", cookie: cookie).json["articles"] as? [Any])?.isEmpty == true)
            #expect(try await Self.send(client, .post, "/api/review/\(id)/send-back", cookie: cookie, json: "{}").status == 409)
        }
        #expect(try library.deskStore.entry(ready)?.state == .pickupsRequested)
        #expect(try library.reviewStore.notes(of: ready).map(\.sendBack).allSatisfy { $0 != nil })
        let audit = try library.deskStore.auditLog(account: nil, since: nil).map { "\($0.actor): \($0.action.rawValue)" }
        #expect(audit.suffix(4) == ["pat: review-note-pinned", "pat: review-note-pinned", "pat: review-sent-back", "pat: article-moved"])
        let review = try library.activityStore.activity(of: try AccountName("pat"))
        #expect(review.map(\.kind) == [.review] && review.map(\.length.seconds) == [1.2] && review.map(\.article) == [ready])
    }

    @Test("a proof-listener approves: delivered to the folder and Published; a second approval is 409")
    func approve() async throws {
        let (id, library, outbox) = (ready.rawValue, fixture.library, outbox)
        #expect(try FileManager.default.contentsOfDirectory(atPath: outbox.path).isEmpty)
        try await Application(router: router).test(.router) { client in
            let cookie = try await DeskRoutesTests.signIn(client, "pat")
            let approved = try await Self.send(client, .post, "/api/review/\(id)/approve", cookie: cookie, json: "{}")
            #expect(approved.status == 200, "\(approved.body)")
            #expect(approved.json["article"] as? String == id && approved.json["state"] as? String == "published")
            #expect((approved.json["delivered"] as? String)?.contains(".flac") == true, "\(approved.body)")
            #expect(try await Self.send(client, .post, "/api/review/\(id)/approve", cookie: cookie, json: "{}").status == 409)
        }
        #expect(try library.deskStore.entry(ready)?.state == .published)
        let delivered = FileManager.default.enumerator(atPath: outbox.path)?.allObjects.compactMap { $0 as? String } ?? []
        #expect(delivered.contains { $0.hasSuffix(".flac") }, "\(delivered)")
    }

    @Test("an approval whose delivery fails: 502 with the reason and that the service tries again; the article stays Approved, its job waiting")
    func approveFails() async throws {
        let (id, library, outbox) = (ready.rawValue, fixture.library, outbox)
        // A file where the destination folder should be.
        try FileManager.default.removeItem(at: outbox)
        try Data("not a folder".utf8).write(to: outbox)
        try await Application(router: router).test(.router) { client in
            let cookie = try await DeskRoutesTests.signIn(client, "pat")
            let approved = try await Self.send(client, .post, "/api/review/\(id)/approve", cookie: cookie, json: "{}")
            #expect(approved.status == 502, "\(approved.body)")
            let error = try #require(approved.json["error"] as? String)
            #expect(error.hasSuffix(" The article stays approved, and the service tries its delivery again by itself."), "\(error)")
            #expect(error.contains(outbox.path), "\(error)")
        }
        #expect(try library.deskStore.entry(ready)?.state == .approved)
        #expect(try library.workQueue().depth() == WorkQueue.Depth(waiting: 1))
    }
}
