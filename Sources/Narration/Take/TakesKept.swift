import Synchronization

/// The takes this process keeps, told as each is committed, with the time from the end of its
/// capture to the take durable in its article (the file closed and forced to disk, the catalog's
/// transaction, the rename). A reading service's metrics listen; nothing else does.
public final class TakesKept: Sendable {
    public typealias Listener = @Sendable (_ captureEndToDurable: Duration) -> Void
    private let listeners = Mutex<[Listener]>([])

    init() {}

    /// Calls `listener` for every take kept from now on, on the thread that kept it.
    public func listen(_ listener: @escaping Listener) {
        listeners.withLock { $0.append(listener) }
    }

    func kept(captureEndToDurable duration: Duration) {
        for listener in listeners.withLock({ $0 }) { listener(duration) }
    }
}
