public import Foundation
public import NarrationCore
public import ObjectStorage

/// What one delivery to object storage did: `key` is the object's full key in the bucket.
public typealias ObjectStorageDelivery = DeliveryOutcome

extension NarrationLibrary {
    /// Delivers a job to object storage: `deliver(_:to:in:feed:progress:)` with the bucket's
    /// store, over a connection of its own. The audio object goes to
    /// `PREFIX/<publication>/<date>/<title>-<id>.<ext>` (one PUT, or a multipart upload of 8 MiB
    /// parts whose id is saved with the job as soon as it exists, so that a crash or a dropped
    /// connection loses no more than the part in flight), each object checked by HEAD (size,
    /// ETag and our SHA-256 in its metadata), the sidecar last. Keys come from the job's catalog
    /// row, so a retry overwrites and never duplicates.
    /// - Parameters:
    ///   - progress: bytes sent and bytes to send, from the HTTP client's threads.
    ///   - now: the clock requests are signed with.
    /// - Throws: `fileCorrupt` if the outbox file changed since it was queued; `credentials`;
    ///   `storageUnreachable`/`storageUnavailable` (may pass), `storageRefused` (will not).
    public func deliver(
        _ job: OutboxJob, to storage: S3Destination, credentials: S3Credentials, feed: FeedSettings = FeedSettings(),
        progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }, now: @escaping @Sendable () -> Date = { Date() }
    ) async throws(NarrationError) -> ObjectStorageDelivery {
        let store = ObjectStorageDeliveryStore(StorageConnection(destination: storage, credentials: credentials, now: now))
        return try await store.closing { () async throws(NarrationError) in
            try await deliver(job, to: .s3(storage), in: store, feed: feed, progress: progress)
        }
    }
}
