import Foundation
import Hummingbird
import HummingbirdTesting
import Narration
import NarrationCore
import NarrationTestSupport
import Testing
@testable import WebStudio

/// The reading service's routes in process, through Hummingbird's router (no sockets), over
/// accounts in memory and a clock in hand: sessions end on the server, the sign-in limit holds
/// and lets the owner in after its window.
@Suite("The reading service's sign-in routes")
struct ServiceRoutesTests {
    /// Every article belongs to nobody here: these tests are about sessions.
    struct NoArticles: ArticleAccess {
        func relation(of account: Account, to article: ArticleID) throws(NarrationError) -> ArticleRelation? { nil }
    }

    static let passphrase = "summer lantern over the weir"
    static let origin = "http://localhost"  // the router test client's authority
    static let wrong = #"{"error":"The name or the passphrase is wrong."}"#

    let clock = HandClock()
    let store = InMemoryAccountStore()
    let accounts: AccountService
    let router = Router(context: StudioRequestContext.self)

    init() throws {
        accounts = AccountService(store: store, clock: clock.function, hashing: .init(iterations: 1, memoryKiB: 64, lanes: 1))
        let door = ServiceDoor(
            accounts: accounts, articleAccess: NoArticles(), proxy: .none, hosts: .loopback, sessionPolicy: SessionPolicy(),
            sessionCheckInterval: .seconds(2))
        WebStudioServer.addService(to: router, door: door, scheme: "http")
        let invitation = try accounts.add(try AccountName("ann"), role: .volunteer, by: "test")
        try accounts.acceptInvitation(account: "ann", token: invitation.token, passphrase: Self.passphrase)
    }

    private static func json(_ object: [String: String]) -> ByteBuffer {
        ByteBuffer(data: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }

    /// POST /api/session from the service's own page: the status, the cookie set (name=value) and the body.
    private static func signIn(_ client: some TestClientProtocol, passphrase: String = passphrase) async throws -> (Int, String?, String) {
        try await client.execute(
            uri: "/api/session", method: .post, headers: [.origin: Self.origin, .contentType: "application/json"],
            body: Self.json(["account": "ann", "passphrase": passphrase])
        ) { response in
            (Int(response.status.code), response.headers[.setCookie].map { String($0.prefix { $0 != ";" }) }, String(buffer: response.body))
        }
    }

    private static func me(_ client: some TestClientProtocol, cookie: String) async throws -> Int {
        try await client.execute(uri: "/api/me", method: .get, headers: [.cookie: cookie]) { Int($0.status.code) }
    }

    @Test("five wrong passphrases, then even the right one waits; after the window the owner signs in")
    func rateLimit() async throws {
        let app = Application(router: router)
        let clock = self.clock
        try await app.test(.router) { client in
            for attempt in 1...5 {
                let (status, cookie, body) = try await Self.signIn(client, passphrase: "a wrong guess \(attempt)")
                #expect(status == 401 && cookie == nil && body == Self.wrong)
            }
            let (status, cookie, body) = try await Self.signIn(client)
            #expect(status == 401 && cookie == nil)
            #expect(body.hasPrefix(#"{"error":"Too many wrong passphrases for this account or from this address: try again after "#))
            clock.advance(15 * 60 + 1)
            let (later, laterCookie, laterBody) = try await Self.signIn(client)
            #expect(later == 200 && laterBody == #"{"account":"ann","role":"volunteer"}"#)
            #expect(laterCookie?.hasPrefix("narrate_account=") == true)
        }
    }

    @Test("sign-out ends the session on the server: the cookie replayed afterwards is refused; so after an idle hour")
    func signOut() async throws {
        let app = Application(router: router)
        let (clock, store) = (self.clock, self.store)
        try await app.test(.router) { client in
            let (_, cookie, _) = try await Self.signIn(client)
            let stolen = try #require(cookie)
            #expect(try await Self.me(client, cookie: stolen) == 200)
            let cleared = try await client.execute(uri: "/api/session", method: .delete, headers: [.cookie: stolen, .origin: Self.origin]) { response in
                (Int(response.status.code), response.headers[.setCookie])
            }
            #expect(cleared.0 == 200 && cleared.1 == "narrate_account=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0")
            #expect(try await Self.me(client, cookie: stolen) == 401)
            #expect(try store.accounts().count == 1)

            let (_, idleCookie, _) = try await Self.signIn(client)
            let idle = try #require(idleCookie)
            clock.advance(59 * 60)
            #expect(try await Self.me(client, cookie: idle) == 200)  // used: the idle hour starts again
            clock.advance(60 * 60)
            #expect(try await Self.me(client, cookie: idle) == 401)
        }
    }

    @Test("a disabled account's session ends at its next request; a form post from the own page is refused too")
    func disabled() async throws {
        let app = Application(router: router)
        let accounts = self.accounts
        try await app.test(.router) { client in
            let (_, cookie, _) = try await Self.signIn(client)
            let session = try #require(cookie)
            #expect(try accounts.disable(try AccountName("ann"), by: "test") == 1)
            #expect(try await Self.me(client, cookie: session) == 401)
            let form = try await client.execute(
                uri: "/api/session", method: .post, headers: [.origin: Self.origin, .contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "account=ann&passphrase=x")
            ) { Int($0.status.code) }
            #expect(form == 415)
        }
    }

    @Test("which requests need no session", arguments: [
        ("GET", "/signin", true), ("GET", "/invitation", true), ("POST", "/api/session", true), ("POST", "/api/invitations/accept", true),
        ("GET", "/api/passphrase-rule", true), ("GET", "/service.js", true), ("GET", "/", false), ("GET", "/home", false),
        ("GET", "/api/me", false), ("DELETE", "/api/session", false), ("GET", "/api/session", false), ("POST", "/signin", false),
        ("GET", "/live", false), ("GET", "/audio", false), ("GET", "/studio.js", false),
    ])
    func publicRoutes(method: String, path: String, isPublic: Bool) {
        #expect(ServiceDoor.isPublic(method: method, path: path) == isPublic)
    }
}
