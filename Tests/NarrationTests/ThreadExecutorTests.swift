import Dispatch
import Foundation
import Narration
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
}
