import Foundation

/// A task executor with one thread to itself, taken from the process's `WorkerPool`: a task that
/// prefers it (`Task.detached(executorPreference:)`) runs there from its first line, whatever the
/// cooperative pool is doing.
///
/// Why: the cooperative pool has one thread per core. Work that must start at once even when
/// every pool thread is held by blocking code (on two cores, two test functions waiting on child
/// processes; on one core, anything) waited there for minutes. The studio's queue and submit run
/// on one of these.
///
/// After `shutdown()`, once the jobs enqueued before it have run, the thread goes back to the
/// pool for other blocking work.
public final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var jobs: [UnownedJob] = []
    private var shuttingDown = false

    /// Takes a pool thread, named `name` while it serves this executor (as `ps -L` and a
    /// debugger show it). The pool starts a thread when none is idle, so this never waits.
    public init(named name: String) {
        WorkerPool.shared.start(named: name) { [self] in runJobs() }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Lets the thread end once it has run what is enqueued.
    public func shutdown() {
        condition.lock()
        shuttingDown = true
        condition.signal()
        condition.unlock()
    }

    private func runJobs() {
        while true {
            condition.lock()
            while jobs.isEmpty && !shuttingDown { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
