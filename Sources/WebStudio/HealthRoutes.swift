import Hummingbird
import Narration

/// A reading service's health checks, open without a session (a reverse proxy or a monitor
/// asks them, not a volunteer):
/// - `GET /health`: the server process answers. Always 200.
/// - `GET /ready`: the library can take work now (`NarrationLibrary.readiness`): 200, or 503
///   with the problems as sentences that name no file, account or address.
///
/// Both say nothing of the service's articles or accounts.
struct HealthRoutes: Sendable {
    let library: NarrationLibrary

    struct Answer: Encodable {
        var status: String
        var problems: [String]?
    }

    func add(to router: Router<StudioRequestContext>) {
        router.get("/health") { _, _ in WebStudioServer.json(200, Answer(status: "alive")) }
        let library = self.library
        router.get("/ready") { _, _ -> Response in
            let readiness = await BlockingWork.run(named: "narrate-web-ready") { library.readiness() }
            return readiness.isReady
                ? WebStudioServer.json(200, Answer(status: "ready"))
                : WebStudioServer.json(503, Answer(status: "not ready", problems: readiness.problems))
        }
    }
}
