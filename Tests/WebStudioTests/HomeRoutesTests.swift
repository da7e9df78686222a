import Foundation
import Hummingbird
import HummingbirdTesting
import Narration
import NarrationCore
import NarrationTestSupport
import Testing
@testable import WebStudio

/// The volunteer's home page's routes in process, through Hummingbird's router, over accounts
/// and a desk in memory: an account sees its own articles and the open ones, never another
/// volunteer's; a claim takes an open article, and a refused claim changes nothing.
@Suite("The home page's articles and claims")
struct HomeRoutesTests {
    struct NoArticles: ArticleAccess {
        func relation(of account: Account, to article: ArticleID) throws(NarrationError) -> ArticleRelation? { nil }
    }

    static let passphrase = "summer lantern over the weir"
    static let origin = "http://localhost"

    let clock = HandClock()
    let store = InMemoryAccountStore()
    let desk = InMemoryDeskStore()
    let router = Router(context: StudioRequestContext.self)

    init() throws {
        let accounts = AccountService(store: store, clock: clock.function, hashing: .init(iterations: 1, memoryKiB: 64, lanes: 1))
        let door = ServiceDoor(
            accounts: accounts, articleAccess: NoArticles(), proxy: .none, hosts: .loopback, sessionPolicy: SessionPolicy(),
            sessionCheckInterval: .seconds(2))
        WebStudioServer.addService(to: router, door: door, scheme: "http")
        WebStudioServer.addHome(to: router, desk: DeskService(store: desk, clock: clock.function))
        for name in ["vera", "vic"] {
            let invitation = try accounts.add(try AccountName(name), role: .volunteer, by: "test")
            try accounts.acceptInvitation(account: name, token: invitation.token, passphrase: Self.passphrase)
        }
        let audit = AuditEntry(at: clock.date, actor: "test", action: .articleAdded, account: nil, detail: "added")
        let deadline = try DeskTime("2031-05-04")
        for (id, title, state, assignee) in [
            ("aaaa1111", "Vera's budget story", DeskState.pickupsRequested, "vera"), ("bbbb2222", "Vic's harbour story", .recording, "vic"),
            ("cccc3333", "Shop flyer", .open, nil), ("dddd4444", "Vera's sent story", .readyForReview, "vera"),
        ] as [(String, String, DeskState, String?)] {
            try desk.addEntry(
                DeskEntry(
                    article: ArticleID(id), title: title, publication: "Daily News", deadline: deadline, state: state,
                    assignee: try assignee.map { try AccountName($0) }, taking: assignee == nil ? nil : .assigned, addedAt: clock.date),
                audit: audit)
        }
    }

    private static func signIn(_ client: some TestClientProtocol, _ name: String) async throws -> String {
        let body = ByteBuffer(data: try JSONSerialization.data(withJSONObject: ["account": name, "passphrase": passphrase], options: [.sortedKeys]))
        return try await client.execute(
            uri: "/api/session", method: .post, headers: [.origin: origin, .contentType: "application/json"], body: body
        ) { response in String(response.headers[.setCookie]?.prefix { $0 != ";" } ?? "") }
    }

    private static func get(_ client: some TestClientProtocol, _ uri: String, cookie: String?) async throws -> (Int, String) {
        var headers: HTTPFields = [:]
        if let cookie { headers[.cookie] = cookie }
        return try await client.execute(uri: uri, method: .get, headers: headers) { (Int($0.status.code), String(buffer: $0.body)) }
    }

    private static func claim(_ client: some TestClientProtocol, _ article: String, cookie: String) async throws -> (Int, String) {
        try await client.execute(
            uri: "/api/desk/\(article)/claim", method: .post, headers: [.cookie: cookie, .origin: origin, .contentType: "application/json"],
            body: ByteBuffer(string: "{}")
        ) { (Int($0.status.code), String(buffer: $0.body)) }
    }

    @Test("a volunteer's home page: their own articles to work on with deadline and state in words, and the open ones; never another's")
    func myArticles() async throws {
        let app = Application(router: router)
        try await app.test(.router) { client in
            #expect(try await Self.get(client, "/api/my-articles", cookie: nil).0 == 401)
            let vera = try await Self.signIn(client, "vera")
            let (status, body) = try await Self.get(client, "/api/my-articles", cookie: vera)
            #expect(status == 200)
            let answer = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: [[String: Any]]]
            let mine = try #require(answer?["mine"])
            let open = try #require(answer?["open"])
            #expect(mine.map { $0["title"] as? String } == ["Vera's budget story"])
            #expect(mine.first?["state"] as? String == "Pickups requested")
            #expect(mine.first?["deadline"] as? String == "2031-05-04")
            #expect(open.map { $0["title"] as? String } == ["Shop flyer"])
            #expect(!body.contains("Vic's harbour story") && !body.contains("bbbb2222"))
        }
    }

    @Test("a claim takes an open article; another's, a taken one or a made-up id is refused and nothing changes")
    func claims() async throws {
        let app = Application(router: router)
        let desk = self.desk
        try await app.test(.router) { client in
            let vera = try await Self.signIn(client, "vera")
            let vic = try await Self.signIn(client, "vic")
            let (status, body) = try await Self.claim(client, "cccc3333", cookie: vera)
            #expect(status == 200 && body == #"{"article":"cccc3333","state":"Assigned"}"#)
            #expect(try desk.entry(ArticleID("cccc3333"))?.assignee?.rawValue == "vera")
            let before = try desk.entries(DeskFilter())
            let audit = try desk.auditLog(account: nil, since: nil).count
            for (article, expected) in [("cccc3333", 403), ("bbbb2222", 403), ("zzzz9999", 404), ("..%2F..", 404)] {
                let (refused, sentence) = try await Self.claim(client, article, cookie: vic)
                #expect(refused == expected, "\(article): \(sentence)")
                #expect(sentence.hasPrefix(#"{"error":""#))
            }
            #expect(try desk.entries(DeskFilter()) == before)
            #expect(try desk.auditLog(account: nil, since: nil).count == audit)
        }
    }
}
