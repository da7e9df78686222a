import Foundation
import Hummingbird
import HummingbirdTesting
import Narration
import NarrationCore
import NarrationTestSupport
import Testing
@testable import WebStudio

/// `GET /metrics` over a real socket and a real library: a take recorded from the virtual
/// microphone and an export queued show in the figures, answers are counted by class, and only a
/// scraper on this machine asking directly gets them.
@Suite("The reading service's metrics")
struct ServiceMetricsTests {
    struct NoArticles: ArticleAccess {
        func relation(of account: Account, to article: ArticleID) throws(NarrationError) -> ArticleRelation? { nil }
    }

    static func router(_ library: NarrationLibrary) -> Router<StudioRequestContext> {
        let router = Router(context: StudioRequestContext.self)
        let accounts = AccountService(store: InMemoryAccountStore(), hashing: .init(iterations: 1, memoryKiB: 64, lanes: 1))
        let door = ServiceDoor(
            accounts: accounts, articleAccess: NoArticles(), proxy: .none, hosts: .loopback, sessionPolicy: SessionPolicy(),
            sessionCheckInterval: .seconds(2))
        let metrics = ServiceMetrics(library: library)
        router.middlewares.add(MetricsMiddleware(metrics: metrics))
        WebStudioServer.addService(to: router, door: door, scheme: "http")
        HealthRoutes(library: library).add(to: router)
        metrics.add(to: router, library: library, rooms: nil)
        return router
    }

    /// The value of the sample line that starts with `name` (labels included), if any.
    static func value(_ name: String, in text: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    @Test("a take and a queued export show; 2xx and 4xx answers are counted; the take's time to durable is in the histogram")
    func figures() async throws {
        let fixture = try LibraryFixture(sourceSeconds: 2)
        let router = Self.router(fixture.library)
        let article = try fixture.library.newArticle(title: "Metrics", publication: "Post", narrator: "Ann", format: .speech)
        try fixture.record(article, seconds: 0.5)
        _ = try fixture.library.queue(article, profile: .archive)
        try await Application(router: router).test(.live) { client in
            _ = try await client.execute(uri: "/health", method: .get) { _ in }
            let unauthorised = try await client.execute(uri: "/api/me", method: .get) { Int($0.status.code) }
            #expect(unauthorised == 401)
            let (status, type, text) = try await client.execute(uri: "/metrics", method: .get) { response in
                (Int(response.status.code), response.headers[.contentType], String(buffer: response.body))
            }
            #expect(status == 200)
            #expect(type == "text/plain; version=0.0.4; charset=utf-8")
            #expect(Self.value("narrate_takes_total", in: text) == 1)
            #expect(Self.value("narrate_take_durable_seconds_count", in: text) == 1)
            #expect(Self.value(#"narrate_take_durable_seconds_bucket{le="5.0"}"#, in: text) == 1)
            #expect(Self.value(#"narrate_outbox_jobs{state="queued"}"#, in: text) == 1)
            #expect(Self.value(#"narrate_outbox_jobs{state="exporting"}"#, in: text) == 0)
            #expect(Self.value("narrate_takes_uploading", in: text) == 0)
            #expect(Self.value("narrate_studios_open", in: text) == 0)
            // The two requests before this one; this one is counted once it is answered.
            #expect(Self.value(#"narrate_http_requests_total{status="2xx"}"#, in: text) == 1)
            #expect(Self.value(#"narrate_http_requests_total{status="4xx"}"#, in: text) == 1)
            #expect(Self.value("narrate_http_request_duration_seconds_count", in: text) == 2)
            #expect(text.contains("# TYPE narrate_takes_total counter"))
            #expect(!text.contains("Metrics") && !text.contains(article.id.rawValue), "no title or id of the service's")
        }
    }

    @Test("a request a proxy forwarded, and one whose peer is not this machine, are answered 404 with nothing of the figures")
    func onlyFromThisMachine() async throws {
        let fixture = try LibraryFixture(sourceSeconds: 1)
        let router = Self.router(fixture.library)
        try await Application(router: router).test(.live) { client in
            for header in ["X-Forwarded-For", "Forwarded"] {
                let (status, body) = try await client.execute(
                    uri: "/metrics", method: .get, headers: [.init(header)!: header == "Forwarded" ? "for=203.0.113.9" : "203.0.113.9"]
                ) { (Int($0.status.code), String(buffer: $0.body)) }
                #expect(status == 404, "\(header)")
                #expect(!body.contains("narrate_"))
            }
        }
        // In process there is no peer at all: not this machine's.
        try await Application(router: router).test(.router) { client in
            let status = try await client.execute(uri: "/metrics", method: .get) { Int($0.status.code) }
            #expect(status == 404)
        }
    }
}
