public import NarrationCore
import Synchronization

/// What one delivery's staging counts and keeps while its files go to a store: the bytes sent
/// (reported as progress), the parts of an interrupted upload found there again, and object
/// storage's multipart upload, whose id is saved (`save`) as soon as it exists so that a
/// delivery killed or cut off mid-transfer resumes it.
public final class DeliveryTransfer: Sendable {
    /// A multipart upload begun and not yet completed: its id and the object key it writes.
    public typealias Upload = (id: String, key: String)

    private let total: Int
    private let report: @Sendable (Int, Int) -> Void
    private let save: @Sendable (Upload?) throws(NarrationError) -> Void
    private let done = Atomic<Int>(0)
    private let skipped = Atomic<Int>(0)
    private let reused = Atomic<Int>(0)
    private let current: Mutex<Upload?>

    /// - Parameters:
    ///   - total: the bytes the delivery's files hold, for progress.
    ///   - upload: the upload an earlier attempt began, to be resumed.
    ///   - progress: bytes sent and bytes to send, from the HTTP client's threads.
    ///   - save: keeps a new upload where the next attempt finds it (the outbox's row).
    public init(
        total: Int, upload: Upload? = nil, progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in },
        save: @escaping @Sendable (Upload?) throws(NarrationError) -> Void = { _ in }
    ) {
        self.total = total
        report = progress
        self.save = save
        current = Mutex(upload)
    }

    /// Bytes handed to the store; those already there are not counted.
    public var bytesSent: Int { done.load(ordering: .relaxed) - skipped.load(ordering: .relaxed) }
    /// Parts of an interrupted multipart upload that were there already and not sent again.
    public var partsReused: Int { reused.load(ordering: .relaxed) }
    /// The multipart upload under way, if any.
    public var upload: Upload? { current.withLock { $0 } }

    /// Counts bytes handed to the store.
    @Sendable func add(_ bytes: Int) {
        let now = done.add(bytes, ordering: .relaxed).newValue
        report(Swift.min(now, total), total)
    }

    /// Counts bytes that needed no sending (already stored): towards progress, not as sent.
    func skip(_ bytes: Int) {
        _ = skipped.add(bytes, ordering: .relaxed)
        add(bytes)
    }

    func reuse(parts: Int) { _ = reused.add(parts, ordering: .relaxed) }

    /// Records a multipart upload just begun (or nil: none), and saves it before its first part is sent.
    func begin(_ upload: Upload?) throws(NarrationError) {
        current.withLock { $0 = upload }
        try save(upload)
    }
}
