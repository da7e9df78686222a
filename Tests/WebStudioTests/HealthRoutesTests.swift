import Foundation
import Hummingbird
import HummingbirdTesting
import Narration
import NarrationCore
import NarrationTestSupport
import Testing
@testable import WebStudio

/// The reading service's health checks in process, over a real library: open without a
/// session, behind the service's door like every route (its host and cross-site rules are
/// `ServiceRoutesTests`' and `ProxyTrustTests`'); `/ready` turns 503 when the catalog
/// cannot be read or new recordings cannot be written, and says so without naming a file.
@Suite("The reading service's health checks")
struct HealthRoutesTests {
    struct NoArticles: ArticleAccess {
        func relation(of account: Account, to article: ArticleID) throws(NarrationError) -> ArticleRelation? { nil }
    }

    let folder = TemporaryFolder("narrate-health")
    let root: DataRoot
    let library: NarrationLibrary
    let router = Router(context: StudioRequestContext.self)

    init() throws {
        root = DataRoot(url: folder.url.appendingPathComponent("home"))
        library = try NarrationLibrary(root: root)
        let accounts = AccountService(store: InMemoryAccountStore(), hashing: .init(iterations: 1, memoryKiB: 64, lanes: 1))
        let door = ServiceDoor(
            accounts: accounts, articleAccess: NoArticles(), proxy: .none, hosts: .loopback, sessionPolicy: SessionPolicy(),
            sessionCheckInterval: .seconds(2))
        WebStudioServer.addService(to: router, door: door, scheme: "http")
        HealthRoutes(library: library).add(to: router)
    }

    /// GET `uri` without a session: the status, whether a cookie was set, and the body.
    static func get(_ client: some TestClientProtocol, _ uri: String) async throws -> (Int, Bool, String) {
        try await client.execute(uri: uri, method: .get) { response in
            (Int(response.status.code), response.headers[.setCookie] != nil, String(buffer: response.body))
        }
    }

    @Test("without a session: /health is alive and /ready ready, no cookie set; the routes beside them still want a session")
    func openWithoutSession() async throws {
        try await Application(router: router).test(.router) { client in
            #expect(try await Self.get(client, "/health") == (200, false, #"{"status":"alive"}"#))
            #expect(try await Self.get(client, "/ready") == (200, false, #"{"status":"ready"}"#))
            let (me, _, _) = try await Self.get(client, "/api/me")
            #expect(me == 401)
            let (other, _, _) = try await Self.get(client, "/ready/../api/me")
            #expect(other == 401 || other == 404)
        }
    }

    @Test("new recordings cannot be written (the articles folder replaced by a file): 503, one sentence, no path")
    func recordingsNotWritable() async throws {
        try? FileManager.default.removeItem(at: root.articlesURL)
        try Data("not a folder".utf8).write(to: root.articlesURL)
        let folderPath = folder.url.path
        try await Application(router: router).test(.router) { client in
            let (status, _, body) = try await Self.get(client, "/ready")
            #expect(status == 503)
            #expect(body == #"{"problems":["The folder for new recordings cannot be written."],"status":"not ready"}"#)
            #expect(!body.contains(folderPath))
            #expect(try await Self.get(client, "/health") == (200, false, #"{"status":"alive"}"#))
        }
    }

    @Test("the catalog cannot be read (its file overwritten): 503 naming the catalog, not its path")
    func catalogUnreadable() async throws {
        let handle = try FileHandle(forWritingTo: root.catalogURL)
        try handle.write(contentsOf: Data(repeating: 0x5A, count: 8192))
        try handle.close()
        try await Application(router: router).test(.router) { client in
            let (status, _, body) = try await Self.get(client, "/ready")
            #expect(status == 503)
            #expect(body == #"{"problems":["The catalog cannot be read."],"status":"not ready"}"#)
            #expect(!body.contains("catalog.sqlite"))
        }
    }
}
