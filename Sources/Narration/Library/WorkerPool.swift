import Foundation

/// The reused threads that blocking work runs on (`BlockingWork`, `ParallelWork`,
/// `ThreadExecutor`): a job starts at once on an idle thread, or on a new one when every thread
/// is busy; a thread that finds nothing to do waits for the next job, and ends when enough
/// others are waiting already.
///
/// Our own pool rather than NIO's `NIOThreadPool`, whose threads are a fixed number: the work
/// that comes here lasts from a millisecond (a chunk's entries for the web page) to minutes (an
/// export, a delivery to a slow server, the studio's queue), and some of it waits for more
/// of it (an export spreads its pieces over the cores, the studio's work runs on a
/// `ThreadExecutor`). With a fixed number, a short job would queue behind long ones, and a job
/// waiting for pieces queued behind itself would never end. Here no job waits for a thread; the
/// threads alive are those busy now plus at most `idleLimit` waiting, so a process that does
/// blocking work all day keeps a handful of threads instead of making one per call.
///
/// Not for real-time audio or for code that blocks for as long as it lives: those own a
/// `DedicatedThread`.
final class WorkerPool: @unchecked Sendable {
    /// The one pool of the process.
    static let shared = WorkerPool(idleLimit: max(4, 2 * Processors.available))

    /// How many threads may wait for work; one that finds this many waiting ends instead.
    let idleLimit: Int

    private let condition = NSCondition()
    /// Guarded by `condition`: the jobs no thread has taken yet, the first at `head`.
    private var jobs: [Job] = []
    private var head = 0
    /// Guarded by `condition`: the threads waiting in `nextJob`, and all the pool's threads.
    private var idle = 0
    private var alive = 0

    private struct Job {
        let name: String
        let body: @Sendable () -> Void
    }

    init(idleLimit: Int) {
        precondition(idleLimit >= 0, "an idle limit is a count")
        self.idleLimit = idleLimit
    }

    /// Runs `body` on one of the pool's threads, named `name` while it runs (as `ps -L`, `top -H`
    /// and a debugger show it); returns at once. `body` starts without waiting for another job.
    func start(named name: String, _ body: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(Job(name: name, body: body))
        let waiting = jobs.count - head
        let wake = waiting <= idle
        if wake { condition.signal() }
        condition.unlock()
        if !wake { startThread() }
    }

    private func startThread() {
        condition.lock()
        alive += 1
        condition.unlock()
        let thread = Thread { [self] in
            while let job = nextJob() {
                FileSystem.nameThisThread(job.name)
                job.body()
                FileSystem.nameThisThread(Self.idleName)
            }
        }
        thread.name = Self.idleName
        thread.start()
    }

    /// How many threads wait for work now, and how many the pool has (busy or waiting).
    var threadCounts: (idle: Int, alive: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (idle, alive)
    }

    /// What a pool thread is called between jobs.
    static let idleName = "narrate-pool"

    /// The next job, waiting for one while fewer than `idleLimit` threads wait; nil when this
    /// thread should end.
    private func nextJob() -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while head == jobs.count {
            guard idle < idleLimit else {
                alive -= 1
                return nil
            }
            idle += 1
            condition.wait()
            idle -= 1
        }
        let job = jobs[head]
        head += 1
        if head == jobs.count {
            jobs.removeAll(keepingCapacity: true)
            head = 0
        }
        return job
    }
}
