import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Narration
import NarrationCore
import NarrationTestSupport
import Synchronization
import Testing
@testable import WebStudio

/// The reading service's log (`narrate serve --log json`): one JSON object per line, whatever
/// the event's text holds; a take kept and a request the server failed each make one.
@Suite("The reading service's log")
struct ServiceLogTests {
    static func parsed(_ line: String) throws -> [String: Any] {
        #expect(line.hasSuffix("\n") && line.dropLast().firstIndex(of: "\n") == nil, "one line: \(line)")
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test("time, level, message and metadata as keys; newlines and controls escaped; a key the line has already is kept apart")
    func lines() throws {
        let event = LogEvent(
            level: .warning, message: "line one\nline two \u{1B}[31m", metadata: ["article": "k3f9x2ab", "time": "planted", "ids": ["a", "b"]],
            source: "t", file: "f", function: "g", line: 1)
        let line = JSONLineLogHandler.line(event, metadata: ["host": "one"], now: Date(timeIntervalSince1970: 1_795_000_000.25))
        let object = try Self.parsed(line)
        #expect(object["time"] as? String == "2026-11-18T11:06:40.250Z")
        #expect(object["level"] as? String == "warning")
        #expect(object["message"] as? String == "line one\nline two \u{1B}[31m")
        #expect(object["article"] as? String == "k3f9x2ab" && object["host"] as? String == "one")
        #expect(object["meta_time"] as? String == "planted")
        #expect(object["ids"] as? [String] == ["a", "b"])
        #expect(!line.contains("\u{1B}"))
    }

    @Test("a take kept and a request that failed each write one line with what happened; a refused request none")
    func events() async throws {
        let lines = Mutex<[String]>([])
        let log = WebStudioServer.serviceLog { line in lines.withLock { $0.append(line) } }
        let fixture = try LibraryFixture(sourceSeconds: 1)
        let router = Router(context: StudioRequestContext.self)
        let metrics = ServiceMetrics(library: fixture.library)
        router.middlewares.add(MetricsMiddleware(metrics: metrics, log: log))
        router.get("/broken") { _, _ -> Response in throw CancellationError() }
        fixture.library.takesKept.listen { take in log.info("take kept", metadata: ["article": "\(take.article.rawValue)", "frames": "\(take.frames)"]) }
        let article = try fixture.library.newArticle(title: "Logged", publication: "", narrator: "", format: .speech)
        try fixture.record(article, seconds: 0.25)
        try await Application(router: router).test(.router) { client in
            let broken = try await client.execute(uri: "/broken?secret=1", method: .get) { Int($0.status.code) }
            #expect(broken == 500)
            let nothing = try await client.execute(uri: "/nothing", method: .get) { Int($0.status.code) }
            #expect(nothing == 404)
        }
        let objects = try lines.withLock { $0 }.map(Self.parsed)
        #expect(objects.count == 2)
        #expect(objects.first?["message"] as? String == "take kept")
        #expect(objects.first?["article"] as? String == article.id.rawValue && objects.first?["frames"] as? String == "11025")
        #expect(objects.last?["message"] as? String == "request failed" && objects.last?["level"] as? String == "warning")
        #expect(objects.last?["path"] as? String == "/broken" && objects.last?["status"] as? String == "500")
    }
}
