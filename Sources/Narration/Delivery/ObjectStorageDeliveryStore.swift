public import Foundation
public import NarrationCore
import ObjectStorage

/// An S3 destination as a `DeliveryStore`: each key an object below the destination's prefix,
/// over one `StorageConnection` (await `close()` before letting the store go).
///
/// A write is one PUT with its MD5 (which the storage checks) and its SHA-256 in the metadata,
/// then a HEAD that must answer the same size, ETag and SHA-256; an object becomes visible whole
/// or not at all. A change writes only if the object is still the one read (`If-Match` its ETag,
/// or `If-None-Match: *` when there was none), and reads again after a short, growing pause when
/// another writer came first (412 or 409), up to `StoreRetry.maximumAttempts` times.
struct ObjectStorageDeliveryStore: DeliveryStore {
    let connection: StorageConnection
    /// Prepended to every key with a `/`: the destination's prefix, or "" for the bucket's root.
    let prefix: String

    /// - Parameter prefix: nil: the destination's own.
    init(_ connection: StorageConnection, prefix: String? = nil) {
        self.connection = connection
        self.prefix = prefix ?? connection.destination.prefix
    }

    var name: String { connection.destination.description }
    var verification: String { "size, ETag and SHA-256 checked" }
    func location(of key: String) -> String { "s3://\(connection.destination.bucket)/\(objectKey(key))" }
    func naming(_ key: String) -> String { location(of: key) }
    func recordedLocation(of key: String) -> String { objectKey(key) }

    func key(ofRecorded location: String) -> String? {
        let key = prefix.isEmpty ? location : String(location.dropFirst(prefix.count + 1))
        guard prefix.isEmpty || location.hasPrefix(prefix + "/"), SafeFileName.isSafeRelativePath(key) else { return nil }
        return key
    }

    /// The object's key in the bucket.
    private func objectKey(_ key: String) -> String { prefix.isEmpty ? key : "\(prefix)/\(key)" }

    private func checkedKey(_ key: String) throws(NarrationError) -> String { objectKey(try Self.checked(key, in: name)) }

    func write(_ data: Data, to key: String, contentType: String, metadata: [String: String]) async throws(NarrationError) -> StoredObject {
        let objectKey = try checkedKey(key)
        let sha256 = Digest.sha256Hex(data)
        let md5 = Digest.hex(Digest.md5(data))
        _ = try await connection.putObject(
            key: objectKey, body: data, contentType: contentType, metadata: metadata.merging(["sha256": sha256]) { _, ours in ours })
        let head = try await connection.headObject(key: objectKey)
        guard let head, head.bytes == data.count, head.etag == md5, head.metadata["sha256"] == sha256 else {
            throw NarrationError(
                .storageUnavailable,
                "\(location(of: key)) does not match what was sent after the upload (\(head.map { "\($0.bytes) bytes, ETag \($0.etag)" } ?? "nothing there") instead of \(data.count) bytes, ETag \(md5)).",
                remedy: .sendOutboxLater)
        }
        return StoredObject(key: key, bytes: head.bytes, sha256: sha256, etag: head.etag)
    }

    func read(_ key: String) async throws(NarrationError) -> Data? {
        try await connection.getObject(key: try checkedKey(key))?.body
    }

    func head(_ key: String) async throws(NarrationError) -> StoredObject? {
        guard let head = try await connection.headObject(key: try checkedKey(key)) else { return nil }
        return StoredObject(key: key, bytes: head.bytes, sha256: head.metadata["sha256"], etag: head.etag)
    }

    func delete(_ key: String) async throws(NarrationError) {
        try await connection.deleteObject(key: try checkedKey(key))
    }

    func list(prefix keyPrefix: String) async throws(NarrationError) -> [String] {
        let root = prefix.isEmpty ? "" : prefix + "/"
        return try await connection.listObjects(prefix: root + keyPrefix).compactMap { key in
            key.hasPrefix(root) ? String(key.dropFirst(root.count)) : nil
        }.sorted()
    }

    func change(
        _ key: String, contentType: String, _ transform: @escaping @Sendable (Data?) throws(NarrationError) -> Data?
    ) async throws(NarrationError) -> StoredChange {
        let objectKey = try checkedKey(key)
        let location = location(of: key)
        for attempt in 1...StoreRetry.maximumAttempts {
            let current = try await connection.getObject(key: objectKey)
            if let current, current.etag.isEmpty {
                throw NarrationError(
                    .storageRefused, "The storage gave \(location) no ETag, so it cannot be changed without risking another delivery's change; nothing in it was changed.")
            }
            guard let changed = try transform(current?.body) else { return StoredChange(attempts: attempt, written: false) }
            if try await connection.putObjectIfUnchanged(key: objectKey, body: changed, contentType: contentType, etag: current?.etag) {
                return StoredChange(attempts: attempt, written: true)
            }
            // Another writer stored it between this read and write: wait a little, read it again.
            try? await Task.sleep(for: .milliseconds(Int.random(in: 10...60) * attempt))
        }
        throw NarrationError(
            .storageUnavailable, "\(location) kept changing under this delivery (\(StoreRetry.maximumAttempts) tries); nothing in it was changed.",
            remedy: .sendOutboxLater)
    }

    func close() async { await connection.shutdown() }
}
