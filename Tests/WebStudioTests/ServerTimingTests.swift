import Hummingbird
import HummingbirdTesting
import Testing
@testable import WebStudio

/// The `Server-Timing` header `Scripts/bench` reads the server's own time from.
@Suite("The server's time on every answer")
struct ServerTimingTests {
    @Test("the duration in milliseconds with three decimals", arguments: [
        (Duration.zero, "app;dur=0.000"),
        (.microseconds(7), "app;dur=0.007"),
        (.microseconds(1234), "app;dur=1.234"),
        (.milliseconds(50), "app;dur=50.000"),
        (.seconds(2) + .microseconds(5), "app;dur=2000.005"),
        (.nanoseconds(999), "app;dur=0.000"),  // under a microsecond: cut, not rounded
    ])
    func value(duration: Duration, header: String) {
        #expect(ServerTimingMiddleware<BasicRequestContext>.value(for: duration) == header)
    }

    @Test("an answer carries it, however its route made it")
    func header() async throws {
        let router = Router()
        router.middlewares.add(ServerTimingMiddleware())
        router.get("/quick") { _, _ in "done" }
        router.get("/refused") { _, _ in Response(status: .forbidden) }
        let app = Application(router: router)
        try await app.test(.router) { client in
            for (path, status) in [("/quick", 200), ("/refused", 403)] {
                let (code, timing) = try await client.execute(uri: path, method: .get) { response in
                    (Int(response.status.code), response.headers[.init("Server-Timing")!] ?? "")
                }
                #expect(code == status)
                #expect(timing.wholeMatch(of: /app;dur=[0-9]+\.[0-9]{3}/) != nil, "\(path): \(timing)")
            }
        }
    }
}
