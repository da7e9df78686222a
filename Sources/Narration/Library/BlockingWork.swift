import Foundation

/// Blocking work (C libraries, the disk) run on a thread of its own, never on the Swift
/// concurrency pool, its result or error handed back to the awaiting task: how the engine's
/// async paths and the studio's background work call code that blocks.
public enum BlockingWork {
    /// Runs `work` on a new thread named `name` and returns its result, or throws its error.
    public static func run<T: Sendable, Failure: Error>(
        named name: String, _ work: @escaping @Sendable () throws(Failure) -> T
    ) async throws(Failure) -> T {
        let result: Result<T, Failure> = await withCheckedContinuation { continuation in
            let thread = Thread {
                do throws(Failure) {
                    continuation.resume(returning: .success(try work()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
            thread.name = name
            thread.start()
        }
        return try result.get()
    }
}
