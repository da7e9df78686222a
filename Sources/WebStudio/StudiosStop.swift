import ServiceLifecycle
import Synchronization

/// Stops the studios (a take under way is stopped and kept, work under way finishes) as soon as
/// the server is asked to stop, before the server waits for its connections to close: a page
/// slow to go must not lengthen the take past the moment the volunteer stopped the server.
///
/// Run as the last service of the server's group, so that a stop by signal reaches it first.
/// The stop runs once, whoever asks first: this service at the signal, or the server's own
/// ending (an error, or the group ending without a signal).
final class StudiosStop: Service, Sendable {
    private let stopped = Mutex(false)
    private let stop: @Sendable () async -> Void

    init(stop: @escaping @Sendable () async -> Void) {
        self.stop = stop
    }

    func run() async throws {
        // Throws when the group is cancelled instead: the server's ending then stops the studios.
        try await gracefulShutdown()
        await stopOnce()
    }

    /// Stops the studios unless they were stopped already.
    func stopOnce() async {
        let first = stopped.withLock { wasStopped in
            defer { wasStopped = true }
            return !wasStopped
        }
        if first { await stop() }
    }
}
