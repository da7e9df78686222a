import Dispatch
import Foundation
@testable import Narration
import NarrationCore
import Synchronization
import Testing

/// The thread this code runs on, as Linux numbers it (`/proc/thread-self` is "PID/task/TID").
private func threadID() -> String {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? "unknown"
}

/// The name Linux shows for this thread (`ps -L`, `top -H`): the first 15 bytes of the one given.
private func threadName() -> String {
    ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "").trimmingCharacters(in: .newlines)
}

/// The threads of this process now.
private func threadCount() throws -> Int {
    try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count
}

@Suite("The door for blocking work")
struct BlockingWorkTests {
    @Test("the work's result comes back to the awaiting task")
    func result() async {
        let value = await BlockingWork.run(named: "narrate-test") { (1...100).reduce(0, +) }
        #expect(value == 5_050)
    }

    @Test("the work's error comes back to the awaiting task, typed")
    func error() async {
        await #expect(throws: NarrationError(.fileSystem, "The disk went away.")) {
            try await BlockingWork.run(named: "narrate-test") { () throws(NarrationError) -> Int in
                throw NarrationError(.fileSystem, "The disk went away.")
            }
        }
    }

    @Test("the work runs on a thread named as asked, as ps -L shows it")
    func named() async {
        let name = await BlockingWork.run(named: "narrate-test-named-work") { threadName() }
        #expect(name == "narrate-test-na")  // Linux keeps 15 bytes
    }

    @Test("200 calls one after another run on reused threads, not one thread each")
    func reusesThreads() async {
        var seen = Set<String>()
        for _ in 0..<200 {
            seen.insert(await BlockingWork.run(named: "narrate-test-reuse") { threadID() })
        }
        #expect(!seen.contains("unknown"))
        // Other tests share the process's pool at the same time, and their bursts add threads
        // that retire; alone, these calls use one or two. A thread per call would be 200.
        #expect(seen.count < 100, "\(seen.count) threads for 200 calls")
    }

    @Test("a pool of its own runs 200 jobs one after another on at most a few threads")
    func poolReusesThreads() {
        let pool = WorkerPool(idleLimit: 8)  // none retires, so every new thread is one the pool had to make
        let done = DispatchSemaphore(value: 0)
        let seen = Mutex(Set<String>())
        for _ in 0..<200 {
            pool.start(named: "narrate-test-pool") {
                seen.withLock { _ = $0.insert(threadID()) }
                done.signal()
            }
            _ = done.wait(timeout: .now() + 10)
        }
        let threads = seen.withLock { $0 }
        #expect(!threads.contains("unknown"))
        // A job signals before its thread is back waiting, so on a loaded machine the next job
        // sometimes finds no thread idle and the pool makes one: a few, never one per job.
        #expect(threads.count < 20, "\(threads.count) threads for 200 jobs")
    }

    @Test("a pool of its own starts 24 jobs at once on 24 threads, and keeps only its idle limit of them")
    func poolKeepsIdleLimit() throws {
        let pool = WorkerPool(idleLimit: 3)
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let seen = Mutex(Set<String>())
        for _ in 0..<24 {
            pool.start(named: "narrate-test-pool") {
                seen.withLock { _ = $0.insert(threadID()) }
                started.signal()
                _ = release.wait(timeout: .now() + 30)
            }
        }
        let began = (0..<24).filter { _ in started.wait(timeout: .now() + 10) == .success }.count
        for _ in 0..<24 { release.signal() }
        #expect(began == 24)
        #expect(seen.withLock { $0.count } == 24)
        // The 24 finish; 3 wait for work and the rest end.
        #expect(waitUntil { pool.threadCounts == (idle: 3, alive: 3) }, "\(pool.threadCounts)")
        // 24 more jobs one after another, each started once the one before has let its thread
        // go back to waiting: the 3 threads kept take them all, and no new thread is made.
        let later = Mutex(Set<String>())
        for _ in 0..<24 {
            #expect(waitUntil { pool.threadCounts.idle == 3 })
            pool.start(named: "narrate-test-pool") {
                later.withLock { _ = $0.insert(threadID()) }
                started.signal()
            }
            _ = started.wait(timeout: .now() + 10)
        }
        #expect(waitUntil { pool.threadCounts == (idle: 3, alive: 3) }, "\(pool.threadCounts)")
        #expect(later.withLock { $0.count } <= 3, "\(later.withLock { $0.count }) threads for 24 jobs one after another")
        #expect(later.withLock { $0.isSubset(of: seen.withLock { $0 }) }, "a thread made for the later jobs")
    }

    /// Polls `condition` every millisecond for up to 10 s.
    private func waitUntil(_ condition: () -> Bool) -> Bool {
        for _ in 0..<10_000 {
            if condition() { return true }
            usleep(1_000)
        }
        return condition()
    }

    @Test("320 calls, 16 at a time, leave the process's thread count bounded")
    func boundedThreadCount() async throws {
        let before = try threadCount()
        for _ in 0..<20 {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<16 {
                    group.addTask { _ = await BlockingWork.run(named: "narrate-test-count") { threadID() } }
                }
            }
        }
        let after = try threadCount()
        // At most 16 are busy at once and a few stay idle; other tests' threads come and go
        // beside them. A thread kept per call would be 320 more.
        #expect(after - before < 100, "\(before) threads before, \(after) after")
    }

    /// Started straight on the pool rather than from tasks: in the whole suite the cooperative
    /// pool's few threads are often all held by other tests' blocking code, so a task would not
    /// show when the pool starts the work, only when the cooperative pool got round to it.
    @Test("work that blocks starts at once on the pool, however much else of it blocks")
    func blockedWorkDoesNotStarve() {
        let blockers = ProcessInfo.processInfo.activeProcessorCount * 4
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let ended = DispatchSemaphore(value: 0)
        for _ in 0..<blockers {
            WorkerPool.shared.start(named: "narrate-test-block") {
                started.signal()
                _ = release.wait(timeout: .now() + 30)
                ended.signal()
            }
        }
        // Every one begins while all the others still block: none waits for a thread.
        let began = (0..<blockers).filter { _ in started.wait(timeout: .now() + 10) == .success }.count
        for _ in 0..<blockers { release.signal() }
        let finished = (0..<blockers).filter { _ in ended.wait(timeout: .now() + 10) == .success }.count
        #expect(began == blockers)
        #expect(finished == blockers)
    }
}

@Suite("Work spread over the cores")
struct ParallelWorkTests {
    @Test("helpers and the calling thread together take each of 10,000 pieces exactly once")
    func everyPieceOnce() {
        let count = 10_000
        let next = Atomic<Int>(0)
        let taken = Mutex([Int](repeating: 0, count: count))
        let work = { @Sendable in
            while case let piece = next.add(1, ordering: .relaxed).oldValue, piece < count {
                taken.withLock { $0[piece] += 1 }
            }
        }
        ParallelWork.alongside(7, named: "narrate-test-parallel", helper: work, own: work)
        #expect(taken.withLock { $0 } == [Int](repeating: 1, count: count))
    }

    @Test("a helper still running when the calling thread is done is waited for")
    func waitsForHelpersUnderWay() {
        let helperBegan = DispatchSemaphore(value: 0)
        let finished = Atomic<Int>(0)
        ParallelWork.alongside(
            1, named: "narrate-test-parallel",
            helper: {
                helperBegan.signal()
                Thread.sleep(forTimeInterval: 0.2)  // still under way when the calling thread is done
                finished.add(1, ordering: .relaxed)
            },
            own: { _ = helperBegan.wait(timeout: .now() + 10) })
        #expect(finished.load(ordering: .relaxed) == 1)
    }

    @Test("32 spreads at once, each itself on a pool thread, all end with every piece done")
    func nestedSpreadsEnd() async {
        let totals = await withTaskGroup(of: Int.self, returning: [Int].self) { group in
            for _ in 0..<32 {
                group.addTask {
                    await BlockingWork.run(named: "narrate-test-nested") {
                        let next = Atomic<Int>(0)
                        let sum = Atomic<Int>(0)
                        let work = { @Sendable in
                            while case let piece = next.add(1, ordering: .relaxed).oldValue, piece < 1_000 {
                                sum.add(piece, ordering: .relaxed)
                            }
                        }
                        ParallelWork.alongside(3, named: "narrate-test-nested", helper: work, own: work)
                        return sum.load(ordering: .relaxed)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(totals == [Int](repeating: 499_500, count: 32))
    }
}
