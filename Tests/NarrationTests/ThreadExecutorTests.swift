import Dispatch
import Foundation
import Narration
import Synchronization
import Testing

@Suite("A task executor with a thread of its own")
struct ThreadExecutorTests {
    @Test("a task on a ThreadExecutor starts and resumes after an await while every thread of the cooperative pool is blocked")
    func runsBesideABlockedPool() {
        let release = DispatchSemaphore(value: 0)
        let blockers = ProcessInfo.processInfo.activeProcessorCount * 2
        for _ in 0..<blockers {
            Task.detached { _ = release.wait(timeout: .now() + 30) }
        }
        let ran = DispatchSemaphore(value: 0)
        let executor = ThreadExecutor(named: "narrate-test-executor")
        Task.detached(executorPreference: executor) {
            await Task.yield()  // back onto the preferred executor, not behind the blocked pool
            ran.signal()
            executor.shutdown()
        }
        let outcome = ran.wait(timeout: .now() + 10)
        for _ in 0..<blockers { release.signal() }
        #expect(outcome == .success)
    }

    @Test("a task on a ThreadExecutor runs on the thread named as asked, before and after an await")
    func runsOnItsNamedThread() {
        let executor = ThreadExecutor(named: "narrate-test-executor")
        let names = Mutex<[String]>([])
        let ran = DispatchSemaphore(value: 0)
        Task.detached(executorPreference: executor) {
            names.withLock { $0.append(Self.threadName()) }
            await Task.yield()
            names.withLock { $0.append(Self.threadName()) }
            ran.signal()
            executor.shutdown()
        }
        let outcome = ran.wait(timeout: .now() + 10)
        #expect(outcome == .success)
        #expect(names.withLock { $0 } == ["narrate-test-ex", "narrate-test-ex"])  // Linux keeps 15 bytes
    }

    private static func threadName() -> String {
        ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "").trimmingCharacters(in: .newlines)
    }
}
