import Hummingbird
import Logging
import Narration
import NarrationCore
import Prometheus

/// A reading service's metrics in Prometheus' text format (swift-prometheus), at `GET /metrics`:
///
/// - `narrate_takes_total`: takes this host kept since it started;
/// - `narrate_take_durable_seconds`: from the end of a take's capture to the take durable in its
///   article (the file closed and forced to disk, the catalog's transaction, the rename);
/// - `narrate_takes_uploading`: takes whose pages are still sending their audio, in the catalog;
/// - `narrate_outbox_jobs{state}`: exports waiting to be delivered (`queued`) or being made;
/// - `narrate_studios_open`: articles open in a studio on this host;
/// - `narrate_chunks_awaiting_store`: chunks with no checked copy in the recordings store yet,
///   on any host; `narrate_chunk_stored_seconds`: from a take kept on this host to its copy
///   recorded; `narrate_chunk_copy_failures_total`: rounds of copies that failed (tried again);
/// - `narrate_work_jobs{state}`: the catalog's queue of background work, on every host: jobs
///   `waiting` (due now or later), `running`, and `failed` for good; `narrate_work_failures_total`:
///   jobs this host tried that failed (tried again later);
/// - `narrate_http_requests_total{status}` and `narrate_http_request_duration_seconds`: the
///   answers by class (`2xx` … `5xx`, the errors) and the server's time over each.
///
/// Only a scraper on this machine, asking the server directly, gets them: a request from
/// another address, or one a proxy forwarded (`X-Forwarded-For` or `Forwarded` set), is answered
/// 404 as if there were no such page, since the figures tell how busy the service is.
final class ServiceMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let takes: Counter
    private let takeDurable: DurationHistogram
    private let uploading: Gauge
    private let outboxQueued: Gauge
    private let outboxExporting: Gauge
    private let studiosOpen: Gauge
    private let chunksAwaiting: Gauge
    private let chunkStoredTimes: DurationHistogram
    private let copyFailures: Counter
    private let jobs: [String: Gauge]
    private let jobFailures: Counter
    private let requestDuration: DurationHistogram
    private let answers: [Int: Counter]

    init(library: NarrationLibrary) {
        takes = registry.makeCounter(name: "narrate_takes_total", help: "Takes this host kept since it started.")
        takeDurable = registry.makeDurationHistogram(
            name: "narrate_take_durable_seconds",
            buckets: [.milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(150), .milliseconds(200),
                      .milliseconds(300), .milliseconds(500), .seconds(1), .seconds(2), .seconds(5)],
            help: "From the end of a take's capture to the take durable in its article.")
        uploading = registry.makeGauge(name: "narrate_takes_uploading", help: "Takes whose pages are still sending their audio.")
        outboxQueued = registry.makeGauge(
            name: "narrate_outbox_jobs", labels: [("state", "queued")], help: "Exports waiting to be delivered, or being made.")
        outboxExporting = registry.makeGauge(
            name: "narrate_outbox_jobs", labels: [("state", "exporting")], help: "Exports waiting to be delivered, or being made.")
        studiosOpen = registry.makeGauge(name: "narrate_studios_open", help: "Articles open in a studio on this host.")
        chunksAwaiting = registry.makeGauge(
            name: "narrate_chunks_awaiting_store", help: "Chunks with no checked copy in the recordings store yet, on any host.")
        chunkStoredTimes = registry.makeDurationHistogram(
            name: "narrate_chunk_stored_seconds",
            buckets: [.milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(5), .seconds(10),
                      .seconds(30), .seconds(60), .seconds(300)],
            help: "From a take kept on this host to its copy in the recordings store recorded.")
        copyFailures = registry.makeCounter(
            name: "narrate_chunk_copy_failures_total", help: "Rounds of copies to the recordings store that failed and are tried again.")
        var jobs: [String: Gauge] = [:]
        for state in ["waiting", "running", "failed"] {
            jobs[state] = registry.makeGauge(
                name: "narrate_work_jobs", labels: [("state", state)], help: "Jobs of background work waiting, running and failed for good, on every host.")
        }
        self.jobs = jobs
        jobFailures = registry.makeCounter(name: "narrate_work_failures_total", help: "Jobs of background work this host tried that failed.")
        requestDuration = registry.makeDurationHistogram(
            name: "narrate_http_request_duration_seconds",
            buckets: [.milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
                      .milliseconds(500), .seconds(1), .seconds(5)],
            help: "The server's time over each request.")
        var answers: [Int: Counter] = [:]
        for kind in 1...5 {
            answers[kind] = registry.makeCounter(
                name: "narrate_http_requests_total", labels: [("status", "\(kind)xx")], help: "Requests answered, by the class of their status.")
        }
        self.answers = answers
        let (takes, takeDurable) = (takes, takeDurable)
        library.takesKept.listen { take in
            takes.increment()
            takeDurable.record(take.captureEndToDurable)
        }
    }

    /// Counts an answer and the time the server took over it.
    func answered(status: Int, after duration: Duration) {
        answers[min(max(status / 100, 1), 5)]?.increment()
        requestDuration.record(duration)
    }

    /// Counts a chunk copied to the recordings store, and its time since its take was kept here.
    func chunkStored(sinceKept: Duration?) {
        if let sinceKept { chunkStoredTimes.record(sinceKept) }
    }

    func chunkCopyFailed() { copyFailures.increment() }

    func jobFailed() { jobFailures.increment() }

    /// The metrics now: the catalog's figures read afresh, then every metric as Prometheus' text.
    func exposition(library: NarrationLibrary, rooms: StudioRooms?) -> String {
        if let figures = try? library.serviceFigures() {
            uploading.set(Int64(figures.takesUploading))
            outboxQueued.set(Int64(figures.exportsQueued))
            outboxExporting.set(Int64(figures.exportsBeingMade))
            chunksAwaiting.set(Int64(figures.chunksAwaitingCopy))
        }
        if let depth = try? library.workQueue().depth() {
            jobs["waiting"]?.set(Int64(depth.waiting))
            jobs["running"]?.set(Int64(depth.running))
            jobs["failed"]?.set(Int64(depth.failed))
        }
        studiosOpen.set(Int64(rooms?.openArticles.count ?? 0))
        return registry.emitToString()
    }

    /// Whether `request` may see the metrics: asked directly from this machine, not forwarded.
    static func mayAsk(_ request: Request, peer: String?) -> Bool {
        guard let peer, peer == "127.0.0.1" || peer == "::1" || peer.hasPrefix("::ffff:127.") else { return false }
        return request.headers[.init("X-Forwarded-For")!] == nil && request.headers[.init("Forwarded")!] == nil
    }

    func add(to router: Router<StudioRequestContext>, library: NarrationLibrary, rooms: StudioRooms?) {
        router.get("/metrics") { request, context -> Response in
            guard Self.mayAsk(request, peer: context.peer) else { return Response(status: .notFound) }
            let text = await BlockingWork.run(named: "narrate-web-metrics") { self.exposition(library: library, rooms: rooms) }
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                body: .init(byteBuffer: .init(string: text)))
        }
    }
}

/// Counts every answer and its time in `ServiceMetrics`, and logs each the server failed (5xx).
struct MetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServiceMetrics
    var log: Logger?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let clock = ContinuousClock()
        let started = clock.now
        do {
            let response = try await next(request, context)
            answered(request, Int(response.status.code), started.duration(to: clock.now))
            return response
        } catch let error as any HTTPResponseError {
            answered(request, Int(error.status.code), started.duration(to: clock.now))
            throw error
        } catch {
            answered(request, 500, started.duration(to: clock.now))
            throw error
        }
    }

    private func answered(_ request: Request, _ status: Int, _ duration: Duration) {
        metrics.answered(status: status, after: duration)
        guard status >= 500, let log else { return }
        // The path without its query: a query may carry what a page typed.
        log.warning("request failed", metadata: [
            "method": "\(request.method.rawValue)", "path": "\(request.uri.path)", "status": "\(status)",
            "ms": "\(WebStudioServer.milliseconds(duration))",
        ])
    }
}
