import Foundation
import Synchronization

/// Independent pieces of blocking work shared out over the cores the process may use, on
/// threads of the process's `WorkerPool` (the exporter's measures, mastering and MP3 segments).
///
/// The calling thread works too, and takes pieces from the same queue as its helpers; a helper
/// that has not begun by the time the calling thread finds the queue empty never runs. So the
/// work ends even when it is itself running on a pool thread and no helper could start, and it
/// never waits for a thread, only for pieces already under way.
public enum ParallelWork {
    /// Calls `body` once for each of `0..<count`, on as many threads as there are cores (this
    /// thread is one of them), taking the pieces in order from one queue; returns when all are
    /// done. `body` must not depend on which thread or in what order the pieces run.
    static func forEach(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        guard count > 0 else { return }
        let next = Atomic<Int>(0)
        let work = { @Sendable in
            while case let piece = next.add(1, ordering: .relaxed).oldValue, piece < count { body(piece) }
        }
        alongside(min(Processors.available, count) - 1, named: "narrate-parallel", helper: work, own: work)
    }

    /// Runs `helper` on up to `count` pool threads named `name` while this thread runs `own`,
    /// and returns once `own` has returned and every helper that began has returned too; a
    /// helper that had not begun by then never runs. `helper` and `own` must take their work
    /// from one shared queue, so that a helper that never runs leaves nothing undone.
    public static func alongside(_ count: Int, named name: String, helper: @escaping @Sendable () -> Void, own: () -> Void) {
        guard count > 0 else { return own() }
        let helpers = Helpers()
        for _ in 0..<count {
            WorkerPool.shared.start(named: name) {
                guard helpers.begin() else { return }
                helper()
                helpers.end()
            }
        }
        own()
        helpers.closeAndWait()
    }

    /// `alongside` with its threads named for the parallel MP3 encoder, which takes it as its
    /// `HelperThreads`.
    public static func mp3EncoderThreads(_ count: Int, _ helper: @escaping @Sendable () -> Void, _ own: () -> Void) {
        alongside(count, named: "narrate-mp3", helper: helper, own: own)
    }

    /// The helpers under way, and whether late ones may still begin.
    private final class Helpers: @unchecked Sendable {
        private let condition = NSCondition()
        /// Guarded by `condition`.
        private var running = 0
        private var closed = false

        /// Whether this helper may run: false once the calling thread has finished its part.
        func begin() -> Bool {
            condition.lock()
            defer { condition.unlock() }
            guard !closed else { return false }
            running += 1
            return true
        }

        func end() {
            condition.lock()
            running -= 1
            if running == 0 { condition.broadcast() }
            condition.unlock()
        }

        /// Lets no more helpers begin, then waits until those under way have ended.
        func closeAndWait() {
            condition.lock()
            closed = true
            while running > 0 { condition.wait() }
            condition.unlock()
        }
    }
}
