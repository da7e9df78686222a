import Foundation
import NarrationCore
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

    /// See `DeliveryStore.stage`: the file is stored at its place at once, as one object (one
    /// PUT; above 8 MiB a multipart upload that resumes `transfer`'s and saves a new one's id
    /// before sending a part), and checked by HEAD: size, ETag and the metadata's SHA-256.
    /// - Returns: the object's key, or nil when the object there already holds these bytes.
    /// - Throws: `fileCorrupt` if the outbox file changed since it was queued or while it was
    ///   sent; `storageUnavailable` when the stored object does not match; the storage's errors.
    func stage(_ file: DeliveryFile, transfer: DeliveryTransfer) async throws(NarrationError) -> String? {
        let objectKey = try checkedKey(file.key)
        let plan = UploadPlan(bytes: FileSystem.size(file.source))
        let (sha256, partMD5s) = try Checksum.digests(of: file.source, plan: plan)
        guard sha256 == file.sha256, plan.bytes == file.bytes else { throw NarrationLibrary.changedSinceQueued(file.source) }
        let expectedETag = plan.isMultipart ? Digest.multipartETag(partMD5s: partMD5s) : Digest.hex(partMD5s.first ?? Digest.md5(Data()))
        func holdsThisFile(_ head: S3ObjectHead?) -> Bool {
            guard let head else { return false }
            return head.bytes == plan.bytes && head.etag == expectedETag && head.metadata["sha256"] == file.metadata["sha256"]
        }
        if file.reusesStoredCopy, holdsThisFile(try await connection.headObject(key: objectKey)) {
            transfer.skip(plan.bytes)
            return nil
        }
        if plan.isMultipart {
            try await sendParts(of: file, plan: plan, partMD5s: partMD5s, key: objectKey, transfer: transfer)
        } else {
            let body = try Checksum.read(0..<plan.bytes, of: file.source)
            guard Digest.sha256Hex(body) == file.sha256 else { throw NarrationLibrary.changedWhileSending(file.source) }
            _ = try await connection.putObject(key: objectKey, body: body, contentType: file.contentType, metadata: file.metadata, progress: transfer.add)
        }
        let head = try await connection.headObject(key: objectKey)
        guard holdsThisFile(head) else {
            throw NarrationError(
                .storageUnavailable,
                "\(location(of: file.key)) does not match the outbox file after the upload (\(head.map { "\($0.bytes) bytes, ETag \($0.etag)" } ?? "nothing there") instead of \(plan.bytes) bytes, ETag \(expectedETag)).",
                remedy: .sendOutboxLater)
        }
        return objectKey
    }

    /// Objects are stored whole by `stage`: there is nothing left to put in place.
    func commit(_ staged: [String]) async throws(NarrationError) {}

    /// Sends the parts the storage does not hold yet, continuing `transfer`'s upload when the
    /// storage still knows it (one for another key is aborted), and completes it.
    private func sendParts(
        of file: DeliveryFile, plan: UploadPlan, partMD5s: [Data], key: String, transfer: DeliveryTransfer
    ) async throws(NarrationError) {
        let ranges = plan.parts
        var held: [Int: S3UploadedPart] = [:]
        var uploadID: String?
        if let earlier = transfer.upload {
            if earlier.key == key, let parts = try await connection.listParts(key: key, uploadID: earlier.id) {
                uploadID = earlier.id
                for part in parts where (1...ranges.count).contains(part.number) {
                    let index = part.number - 1
                    if part.bytes == ranges[index].count && part.etag == Digest.hex(partMD5s[index]) { held[part.number] = part }
                }
            } else if earlier.key != key {
                try? await connection.abortMultipartUpload(key: earlier.key, uploadID: earlier.id)
            }
        }
        if uploadID == nil {
            let id = try await connection.createMultipartUpload(key: key, contentType: file.contentType, metadata: file.metadata)
            try transfer.begin((id, key))
            uploadID = id
        }
        guard let uploadID else { preconditionFailure("an upload id was found or made above") }
        var parts: [S3UploadedPart] = []
        for (index, range) in ranges.enumerated() {
            if let part = held[index + 1] {
                parts.append(part)
                transfer.skip(range.count)
                continue
            }
            let body = try Checksum.read(range, of: file.source)
            guard Digest.md5(body) == partMD5s[index] else { throw NarrationLibrary.changedWhileSending(file.source) }
            let etag = try await connection.uploadPart(key: key, uploadID: uploadID, number: index + 1, body: body, progress: transfer.add)
            parts.append(S3UploadedPart(number: index + 1, etag: etag.isEmpty ? Digest.hex(partMD5s[index]) : etag, bytes: range.count))
        }
        _ = try await connection.completeMultipartUpload(key: key, uploadID: uploadID, parts: parts)
        transfer.reuse(parts: held.count)
        await abortOtherUploads(of: key, keeping: uploadID)
    }

    /// Gives up the unfinished uploads to `key` other than `kept`: an earlier try's whose id never
    /// reached the catalog (the storage stopped as it answered the upload's start), or a host's
    /// that lost its job. The key is this delivery's own place, which no one else uploads to.
    /// Best effort: the file is delivered already, and a later delivery there looks again.
    private func abortOtherUploads(of key: String, keeping kept: String) async {
        guard let uploads = try? await connection.listMultipartUploads(prefix: key) else { return }
        for upload in uploads where upload.key == key && upload.uploadID != kept {
            try? await connection.abortMultipartUpload(key: key, uploadID: upload.uploadID)
        }
    }

    func abandonUpload(id: String, key: String) async throws(NarrationError) {
        try await connection.abortMultipartUpload(key: key, uploadID: id)
    }

    func close() async { await connection.shutdown() }
}
