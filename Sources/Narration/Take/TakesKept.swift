public import NarrationCore
import Synchronization

/// The takes this process keeps, told as each is committed, with the time from the end of its
/// capture to the take durable in its article (the file closed and forced to disk, the catalog's
/// transaction, the rename). A reading service's metrics listen; nothing else does.
public final class TakesKept: Sendable {
    /// One take kept.
    public struct Take: Sendable {
        public let article: ArticleID
        public let chunk: ChunkID
        public let frames: FrameCount
        /// From the end of its capture to the take durable in its article.
        public let captureEndToDurable: Duration
    }

    public typealias Listener = @Sendable (Take) -> Void
    private let listeners = Mutex<[Listener]>([])

    init() {}

    /// Calls `listener` for every take kept from now on, on the thread that kept it.
    public func listen(_ listener: @escaping Listener) {
        listeners.withLock { $0.append(listener) }
    }

    func kept(_ take: Take) {
        for listener in listeners.withLock({ $0 }) { listener(take) }
    }
}
