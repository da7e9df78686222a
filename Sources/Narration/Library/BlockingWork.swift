import Foundation

/// The one door for blocking work (C libraries, the disk, a child process) that async code
/// awaits: it runs on a thread of the process's `WorkerPool`, never on the Swift concurrency
/// pool, and its result or error comes back to the awaiting task.
///
/// Why a door: the cooperative pool has one thread per core, and a task that blocks holds one
/// of them; on two cores, two such tasks stop every other task in the process (the web server's
/// requests, the studio's timers). The pool's threads are reused, so a server that does this all
/// day keeps a handful of threads rather than making one per call, and a job never queues
/// behind another (see `WorkerPool` for why the pool is ours rather than NIO's).
///
/// Only blocking work that ends comes here. Real-time audio and code that blocks for as long as
/// it lives own a `DedicatedThread`; work spread over the cores goes through `ParallelWork`; a
/// task that must start at once even while the cooperative pool is blocked runs on a
/// `ThreadExecutor`. All three take their threads from, or name them with, this layer.
public enum BlockingWork {
    /// Runs `work` on a pool thread named `name` (as `ps -L` shows it; Linux keeps the first 15
    /// bytes) and returns its result, or throws its error. Cancelling the awaiting task does not
    /// stop `work`, which runs to its end.
    public static func run<T: Sendable, Failure: Error>(
        named name: String, _ work: @escaping @Sendable () throws(Failure) -> T
    ) async throws(Failure) -> T {
        let result: Result<T, Failure> = await withCheckedContinuation { continuation in
            WorkerPool.shared.start(named: name) {
                do throws(Failure) {
                    continuation.resume(returning: .success(try work()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }
}
