import Foundation
import NarrationAudio
import NarrationCore
import NarrationTestSupport
import Synchronization
import Testing

@testable import Narration

/// An approved article's delivery as a job of the catalog's queue (`ApprovedDelivery`,
/// `WorkRunner`), on SQLite and on a real PostgreSQL: done at once by the host that approved it;
/// done once by another host when the first died holding it; waiting its turn after a failure,
/// with its error; handed back untried by a host that stops; left to the host that holds it.
@Suite("An approved article's delivery, as a job any host does", .serialized)
struct ApprovedDeliveryTests {
    typealias Service = DeskDeliveryFixture

    static func now() -> Double { Service.now() }
    static func wait(_ seconds: Double, _ done: () throws -> Bool) async throws -> Bool { try await Service.wait(seconds, done) }

    @Test("approved through the queue: done at once by this host, Published, one file at the destination equal to the chunks; the job done on its first try",
          arguments: CatalogEngines.Kind.allCases)
    func approvedHere(_ kind: CatalogEngines.Kind) async throws {
        let service = try Service(kind)
        let runner = try WorkRunner(library: service.library)
        let done = try #require(try await DeskDelivery(library: service.library, desk: service.desk).approveAndDeliver(
            try service.library.article(service.article.rawValue), by: .service, sending: service.sending, runner: runner))
        #expect(done.entry.state == .published)
        #expect(try service.audited("publish approved → published").count == 1)
        let files = service.delivered()
        #expect(files.count == 2 && files.contains { $0.hasSuffix(".flac") } && files.contains { $0.hasSuffix(".json") }, "\(files)")
        #expect(try service.deliveredSamples() == service.chunkSamples())
        let queue = try service.library.workQueue()
        #expect(try queue.depth() == WorkQueue.Depth())
    }

    @Test("a host that died holding the delivery: another host does it once the lease ran out, once; the dead host's late word is refused",
          arguments: CatalogEngines.Kind.allCases)
    func deadHost(_ kind: CatalogEngines.Kind) async throws {
        let service = try Service(kind)
        try service.desk.approve(service.article, by: .service)
        // The approving host asked for the job and took it for 0.5 s, then died.
        let queue = try service.library.workQueue()
        let asked = Self.now()
        let id = try queue.enqueue(ApprovedDelivery.kind, subject: service.article.rawValue, due: asked + 60, now: asked)
        let dead = try #require(try queue.take(id, host: "dead-host 1 aaaa", lease: 0.5, now: asked))

        // Another host, which finds the chunks in the service's recordings store.
        let recordings = RecordingStore(MemoryDeliveryStore())
        let other = try await service.anotherHost(kind, recordings: recordings)
        let runner = WorkRunner(queue: try other.workQueue(), host: "second-host 2 bbbb", catalogName: "the catalog", lease: 15, idle: .milliseconds(100))
        ApprovedDelivery(library: other, desk: DeskService(store: other.deskStore), sending: service.sending, recordings: recordings).handled(by: runner)
        let outcomes = Mutex<[String]>([])
        let running = Task { await runner.run { outcome in outcomes.withLock { $0.append("\(outcome)") } } }
        defer { running.cancel() }
        #expect(try await Self.wait(60) { try queue.status(of: id)?.state == .done })
        running.cancel()
        await running.value

        let status = try #require(try queue.status(of: id))
        #expect(status.attempts == 2 && status.host == "second-host 2 bbbb", "\(status)")
        #expect(outcomes.withLock { $0.count } == 1)
        #expect(try service.desk.entry(service.article, by: .service).state == .published)
        #expect(try service.audited("publish approved → published").count == 1)
        #expect(service.delivered().count == 2, "\(service.delivered())")
        #expect(try service.deliveredSamples() == service.chunkSamples())
        // The dead host's word comes too late: the job is the second host's, done.
        #expect(try queue.finish(dead, now: Self.now()) == false)
        #expect(try queue.fail(dead, problem: "late", now: Self.now()) == false)
        #expect(try queue.status(of: id)?.state == .done)
    }

    @Test("a delivery that fails: the article stays Approved, the job waits its turn with the error; its next try by a host's runner delivers it and Publishes")
    func failsThenDelivers() async throws {
        let service = try Service(.sqlite)
        // A file where the destination folder should be.
        try FileManager.default.removeItem(at: service.destination)
        try Data("not a folder".utf8).write(to: service.destination)
        let queue = try WorkQueue(engine: service.library.catalog.engine, retry: .init(firstRetry: 0.3, longestRetry: 0.3, attempts: 4))
        let runner = WorkRunner(queue: queue, host: "host-a 1 aaaa", catalogName: "the catalog", lease: 15, idle: .milliseconds(100))
        let article = try service.library.article(service.article.rawValue)
        var failure: NarrationError?
        do {
            _ = try await DeskDelivery(library: service.library, desk: service.desk).approveAndDeliver(article, by: .service, sending: service.sending, runner: runner)
        } catch {
            failure = error
        }
        let error = try #require(failure)
        #expect(try service.desk.entry(service.article, by: .service).state == .approved)
        let jobs = try service.library.catalog.reading { sql in try sql.rows("SELECT id FROM work_job").map { try $0.text("id") } }
        let id = try #require(jobs.first)
        let status = try #require(try queue.status(of: id))
        #expect(status.state == .waiting && status.attempts == 1 && status.lastError == error.message, "\(status)")

        try FileManager.default.removeItem(at: service.destination)
        try FileManager.default.createDirectory(at: service.destination, withIntermediateDirectories: true)
        ApprovedDelivery(library: service.library, desk: service.desk, sending: service.sending).handled(by: runner)
        let running = Task { await runner.run() }
        defer { running.cancel() }
        #expect(try await Self.wait(60) { try queue.status(of: id)?.state == .done })
        #expect(try queue.status(of: id)?.attempts == 2)
        #expect(try service.desk.entry(service.article, by: .service).state == .published)
        #expect(try service.audited("publish approved → published").count == 1)
        #expect(service.delivered().count == 2)
    }

    @Test("approving while another host holds the delivery: the approval answers nil, and the article stays Approved for that host to deliver")
    func anotherHostHoldsIt() async throws {
        let service = try Service(.sqlite)
        let queue = try service.library.workQueue()
        let now = Self.now()
        let id = try queue.enqueue(ApprovedDelivery.kind, subject: service.article.rawValue, due: now + 60, now: now)
        _ = try #require(try queue.take(id, host: "host-b 2 bbbb", lease: 60, now: now))
        let runner = WorkRunner(queue: queue, host: "host-a 1 aaaa", catalogName: "the catalog")
        let done = try await DeskDelivery(library: service.library, desk: service.desk).approveAndDeliver(
            try service.library.article(service.article.rawValue), by: .service, sending: service.sending, runner: runner)
        #expect(done == nil)
        #expect(try service.desk.entry(service.article, by: .service).state == .approved)
        #expect(service.delivered().isEmpty)
        #expect(try queue.status(of: id)?.host == "host-b 2 bbbb")
    }

    @Test("a host that stops while doing a job hands it back untried: waiting at once, its try not counted")
    func handsBack() async throws {
        let service = try Service(.sqlite)
        let queue = try service.library.workQueue()
        let runner = WorkRunner(queue: queue, host: "host-a 1 aaaa", catalogName: "the catalog", idle: .milliseconds(100))
        let started = Atomic<Bool>(false)
        runner.handle("slow") { _ throws(NarrationError) in
            started.store(true, ordering: .relaxed)
            do { try await Task.sleep(for: .seconds(30)) } catch { throw NarrationError.usage("stopped") }
        }
        let id = try queue.enqueue("slow", subject: "k3f9x2ab", due: Self.now(), now: Self.now())
        let outcomes = Mutex<[String]>([])
        let running = Task { await runner.run { outcome in outcomes.withLock { $0.append("\(outcome)") } } }
        #expect(try await Self.wait(60) { started.load(ordering: .relaxed) })
        #expect(try queue.status(of: id)?.state == .taken)
        running.cancel()
        await running.value
        let status = try #require(try queue.status(of: id))
        #expect(status.state == .waiting && status.attempts == 0, "\(status)")
        #expect(outcomes.withLock { $0 }.first?.hasPrefix("handedBack") == true, "\(outcomes.withLock { $0 })")
    }

    @Test("a host that stops while a request does a job: the job is handed back untried and the request told so; a stopped host only asks for work")
    func stopHandsBackPerformed() async throws {
        let service = try Service(.sqlite)
        let queue = try service.library.workQueue()
        let runner = WorkRunner(queue: queue, host: "host-a 1 aaaa", catalogName: "the catalog")
        let started = Atomic<Bool>(false)
        let doing = Task { () async -> NarrationError? in
            do throws(NarrationError) {
                _ = try await runner.perform("slow", subject: "k3f9x2ab") { _ throws(NarrationError) in
                    started.store(true, ordering: .relaxed)
                    do { try await Task.sleep(for: .seconds(30)) } catch { throw NarrationError.usage("stopped") }
                }
                return nil
            } catch {
                return error
            }
        }
        #expect(try await Self.wait(60) { started.load(ordering: .relaxed) })
        runner.stop()
        let error = await doing.value
        #expect(error?.message == "This server of the service is stopping: the work was handed to another server, which does it in a moment.")
        let jobs = try service.library.catalog.reading { sql in
            try sql.rows("SELECT id, subject FROM work_job ORDER BY subject").map { (try $0.text("id"), try $0.text("subject")) }
        }
        let first = try #require(jobs.first)
        let handedBack = try #require(try queue.status(of: first.0))
        #expect(handedBack.state == .waiting && handedBack.attempts == 0, "\(handedBack)")

        // Stopped, it asks for the work, due at once, for another host; it does not do it.
        #expect(try await runner.perform("quick", subject: "m4k8w2cd") { _ throws(NarrationError) in 1 } == nil)
        let other = try #require(try queue.take(host: "host-b 2 bbbb", lease: 15, now: Self.now(), kinds: ["quick"]))
        #expect(other.subject == "m4k8w2cd" && other.attempt == 1)
        #expect(try queue.status(of: other.id)?.state == .taken)
    }
}
