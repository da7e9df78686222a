import Foundation
@testable import Narration
import NarrationTestSupport
import SQLEngines
import Synchronization
import Testing

/// Background work shared by a service's hosts, on SQLite and on a real PostgreSQL alike: a
/// job is taken by one host at a time, comes back when its host dies, is tried again later and
/// later when it fails, and a dead host's late word about it changes nothing.
@Suite("The queue of background work")
struct WorkQueueTests {
    let folder = TemporaryFolder("narrate-work")
    let now = 1_800_000_000.0

    @Test("the same work asked for twice while it waits is one job; once done, asking again makes a new one", arguments: CatalogEngines.Kind.allCases)
    func oneJobPerSubject(_ kind: CatalogEngines.Kind) throws {
        let engine = try CatalogEngines.make(kind, folder: folder)
        defer { engine.close() }
        let queue = try WorkQueue(engine: engine)
        let first = try queue.enqueue("export", subject: "k3f9x2ab", due: now, now: now)
        #expect(try queue.enqueue("export", subject: "k3f9x2ab", due: now, now: now) == first)
        #expect(try queue.enqueue("check", subject: "k3f9x2ab", due: now, now: now) != first)
        #expect(try queue.depth() == WorkQueue.Depth(waiting: 2))
        let job = try #require(try queue.take(host: "host-a", lease: 60, now: now, kinds: ["export"]))
        #expect(job.id == first)
        #expect(job.attempt == 1)
        #expect(try queue.enqueue("export", subject: "k3f9x2ab", due: now, now: now) == first)  // running: still the one job
        #expect(try queue.finish(job, now: now + 1))
        #expect(try queue.enqueue("export", subject: "k3f9x2ab", due: now, now: now + 2) != first)
        #expect(try queue.depth() == WorkQueue.Depth(waiting: 2))
        // A second queue on the same catalog does not make the table again.
        #expect(try WorkQueue.migrator.migrate(engine) == [])
    }

    @Test("two hosts, 4 threads each, take 150 jobs at once: each job is taken and finished exactly once", arguments: CatalogEngines.Kind.allCases)
    func twoHosts(_ kind: CatalogEngines.Kind) throws {
        let engine = try CatalogEngines.make(kind, folder: folder)
        defer { engine.close() }
        let other = try CatalogEngines.another(engine)
        defer { other.close() }
        let queues = [try WorkQueue(engine: engine), try WorkQueue(engine: other)]
        for number in 0..<150 { try queues[0].enqueue("delivery", subject: "article-\(number)", due: now, now: now) }
        let finished = Mutex<[String: Int]>([:])
        let failures = Mutex<[String]>([])
        let now = now
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            let queue = queues[worker % 2]
            while true {
                do {
                    guard let job = try queue.take(host: "host-\(worker % 2)-\(worker)", lease: 60, now: now) else { break }
                    if try queue.finish(job, now: now) { finished.withLock { $0[job.subject, default: 0] += 1 } }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                    break
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(finished.withLock { $0.count } == 150)
        #expect(finished.withLock { $0.values.allSatisfy { $0 == 1 } })
        #expect(try queues[1].depth() == WorkQueue.Depth())
    }

    @Test("a host that dies keeps its job until the lease runs out; then another host takes it, and the dead host's late finish is refused", arguments: CatalogEngines.Kind.allCases)
    func deadHost(_ kind: CatalogEngines.Kind) throws {
        let engine = try CatalogEngines.make(kind, folder: folder)
        defer { engine.close() }
        let queue = try WorkQueue(engine: engine)
        try queue.enqueue("book", subject: "daily-post", due: now, now: now)
        let dying = try #require(try queue.take(host: "host-a", lease: 30, now: now))
        #expect(try queue.take(host: "host-b", lease: 30, now: now + 29) == nil)  // still host-a's
        #expect(try queue.renew(dying, lease: 30, now: now + 20))  // host-a works on: until now + 50
        #expect(try queue.take(host: "host-b", lease: 30, now: now + 45) == nil)
        let rescued = try #require(try queue.take(host: "host-b", lease: 30, now: now + 51))
        #expect(rescued.id == dying.id)
        #expect(rescued.attempt == 2)
        #expect(try queue.finish(dying, now: now + 52) == false)
        #expect(try queue.renew(dying, lease: 30, now: now + 52) == false)
        #expect(try queue.fail(dying, problem: "late", now: now + 52) == false)
        #expect(try queue.depth() == WorkQueue.Depth(running: 1))
        #expect(try queue.finish(rescued, now: now + 53))
        #expect(try queue.depth() == WorkQueue.Depth())
    }

    @Test("a job that fails waits 30, 60, then 100 s (the longest) before its next tries, and after its last it stays failed", arguments: CatalogEngines.Kind.allCases)
    func backoff(_ kind: CatalogEngines.Kind) throws {
        let engine = try CatalogEngines.make(kind, folder: folder)
        defer { engine.close() }
        let queue = try WorkQueue(engine: engine, retry: .init(firstRetry: 30, longestRetry: 100, attempts: 4))
        try queue.enqueue("feed", subject: "daily-post", due: now, now: now)
        var clock = now
        var waits: [Double] = []
        for attempt in 1...4 {
            let job = try #require(try queue.take(host: "host-a", lease: 60, now: clock))
            #expect(job.attempt == attempt)
            #expect(try queue.fail(job, problem: "The bucket answered 503.", now: clock))
            guard attempt < 4 else { break }
            let wait = queue.retry.delay(after: attempt)
            #expect(try queue.take(host: "host-a", lease: 60, now: clock + wait - 0.5) == nil)
            clock += wait
            waits.append(wait)
        }
        #expect(waits == [30, 60, 100])
        #expect(try queue.take(host: "host-a", lease: 60, now: clock + 10_000) == nil)
        #expect(try queue.depth() == WorkQueue.Depth(failed: 1))
        let problem = try engine.read { sql throws(SQLEngineError) in try sql.row("SELECT lastError FROM work_job")?.text("lastError") }
        #expect(problem == "The bucket answered 503.")
    }

    @Test("a job handed back by a stopping host is taken at once by another, and that attempt is not counted", arguments: CatalogEngines.Kind.allCases)
    func handBack(_ kind: CatalogEngines.Kind) throws {
        let engine = try CatalogEngines.make(kind, folder: folder)
        defer { engine.close() }
        let queue = try WorkQueue(engine: engine)
        try queue.enqueue("export", subject: "k3f9x2ab", due: now, now: now)
        let job = try #require(try queue.take(host: "host-a", lease: 600, now: now))
        #expect(try queue.handBack(job, now: now + 1))
        let again = try #require(try queue.take(host: "host-b", lease: 600, now: now + 1))
        #expect(again.id == job.id)
        #expect(again.attempt == 1)
        #expect(try queue.finish(job, now: now + 2) == false)
    }
}
