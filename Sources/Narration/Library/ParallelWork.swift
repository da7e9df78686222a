import Foundation
import Synchronization

/// Independent pieces of blocking work shared out over the cores the process may use.
enum ParallelWork {
    /// Calls `body` once for each of `0..<count`, on as many threads as there are cores (this
    /// thread is one of them), taking the pieces in order from one queue; returns when all are
    /// done. `body` must not depend on which thread or in what order the pieces run.
    static func forEach(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        guard count > 0 else { return }
        let next = Atomic<Int>(0)
        let work = { @Sendable in
            while case let piece = next.add(1, ordering: .relaxed).oldValue, piece < count { body(piece) }
        }
        let helpers = min(Processors.available, count) - 1
        let finished = DispatchSemaphore(value: 0)
        for _ in 0..<helpers {
            Thread {
                work()
                finished.signal()
            }.start()
        }
        work()
        for _ in 0..<helpers { finished.wait() }
    }
}
