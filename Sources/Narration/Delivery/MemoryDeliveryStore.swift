public import Foundation
public import NarrationCore
import ObjectStorage
import Synchronization

/// A `DeliveryStore` in memory, with the same guarantees as a folder's or a bucket's (checked by
/// the same contract tests): for fast tests of delivery, prune, feeds and doctor, in process.
///
/// A write replaces an object whole under a lock, so a reader sees the old bytes or the new. A
/// change reads an object and its version, transforms it outside the lock, and stores the result
/// only if the version is unchanged, else reads again: object storage's `If-Match`, in memory.
public final class MemoryDeliveryStore: DeliveryStore {
    private struct Object {
        var data: Data
        var contentType: String
        var metadata: [String: String]
        var modified: Date
        var version: Int
    }

    private struct Contents {
        var objects: [String: Object] = [:]
        var nextVersion = 1
        /// What the next commit throws instead of putting its files in (`failNextCommit`).
        var commitFailure: NarrationError?
    }

    /// A staged file: its bytes, held aside until committed.
    public struct Staged: Sendable {
        let key: String
        let data: Data
        let contentType: String
        let metadata: [String: String]
    }

    public let name: String
    private let contents = Mutex(Contents())

    /// - Parameter name: what the catalog records as the destination (`memory://NAME`).
    public init(name: String = "memory://store") {
        self.name = name
    }

    public var verification: String { "SHA-256 checked" }
    public func location(of key: String) -> String { "\(name)/\(key)" }
    public func naming(_ key: String) -> String { location(of: key) }
    public func recordedLocation(of key: String) -> String { location(of: key) }

    public func key(ofRecorded location: String) -> String? {
        let key = String(location.dropFirst(name.count + 1))
        guard location.hasPrefix(name + "/"), SafeFileName.isSafeRelativePath(key) else { return nil }
        return key
    }

    /// The content type and metadata stored with `key`, for tests.
    public func attributes(of key: String) -> (contentType: String, metadata: [String: String])? {
        contents.withLock { $0.objects[key].map { ($0.contentType, $0.metadata) } }
    }

    public func write(_ data: Data, to key: String, contentType: String, metadata: [String: String]) async throws(NarrationError) -> StoredObject {
        let key = try Self.checked(key, in: name)
        let sha256 = Digest.sha256Hex(data)
        let stored = contents.withLock { contents in
            contents.objects[key] = Object(
                data: data, contentType: contentType, metadata: metadata.merging(["sha256": sha256]) { _, ours in ours }, modified: Date(),
                version: contents.nextVersion)
            contents.nextVersion += 1
            return contents.objects[key]?.data
        }
        guard let stored, Digest.sha256Hex(stored) == sha256 else {
            throw NarrationError(.fileCorrupt, "The copy at \(location(of: key)) did not match what was written. Try again.")
        }
        return StoredObject(key: key, bytes: stored.count, sha256: sha256, modified: Date())
    }

    public func read(_ key: String) async throws(NarrationError) -> Data? {
        let key = try Self.checked(key, in: name)
        return contents.withLock { $0.objects[key]?.data }
    }

    public func head(_ key: String) async throws(NarrationError) -> StoredObject? {
        let key = try Self.checked(key, in: name)
        guard let object = contents.withLock({ $0.objects[key] }) else { return nil }
        return StoredObject(key: key, bytes: object.data.count, sha256: Digest.sha256Hex(object.data), modified: object.modified)
    }

    public func delete(_ key: String) async throws(NarrationError) {
        let key = try Self.checked(key, in: name)
        _ = contents.withLock { $0.objects.removeValue(forKey: key) }
    }

    public func list(prefix: String) async throws(NarrationError) -> [String] {
        contents.withLock { $0.objects.keys.filter { $0.hasPrefix(prefix) } }.sorted()
    }

    public func change(
        _ key: String, contentType: String, _ transform: @escaping @Sendable (Data?) throws(NarrationError) -> Data?
    ) async throws(NarrationError) -> StoredChange {
        let key = try Self.checked(key, in: name)
        for attempt in 1...StoreRetry.maximumAttempts {
            let read = contents.withLock { $0.objects[key].map { ($0.data, $0.version) } }
            guard let changed = try transform(read?.0) else { return StoredChange(attempts: attempt, written: false) }
            // Let another writer in between this read and write, as a real store would.
            await Task.yield()
            let written = contents.withLock { contents in
                guard contents.objects[key]?.version == read?.1 else { return false }
                contents.objects[key] = Object(
                    data: changed, contentType: contentType, metadata: ["sha256": Digest.sha256Hex(changed)], modified: Date(),
                    version: contents.nextVersion)
                contents.nextVersion += 1
                return true
            }
            if written { return StoredChange(attempts: attempt, written: true) }
        }
        throw NarrationError(
            .storageUnavailable, "\(location(of: key)) kept changing under this delivery (\(StoreRetry.maximumAttempts) tries); nothing in it was changed.",
            remedy: .sendOutboxLater)
    }

    /// See `DeliveryStore.stage`: the source's bytes are read, checked against `file`'s SHA-256
    /// and held aside; bytes at the place that already match are kept when `file` allows it.
    public func stage(_ file: DeliveryFile, transfer: DeliveryTransfer) async throws(NarrationError) -> Staged? {
        let key = try Self.checked(file.key, in: name)
        let data = Data(try FileSystem.contents(of: file.source))
        guard data.count == file.bytes, Digest.sha256Hex(data) == file.sha256 else {
            throw NarrationError(.fileCorrupt, "The copy at \(location(of: key)) did not match the outbox file, so it was not put in place. Try again.")
        }
        if file.reusesStoredCopy, contents.withLock({ $0.objects[key]?.data }) == data { return nil }
        return Staged(key: key, data: data, contentType: file.contentType, metadata: file.metadata)
    }

    /// See `DeliveryStore.commit`: every staged file goes in at once, under one lock, so a
    /// reader sees all of them or none; a commit that fails puts none of them in.
    public func commit(_ staged: [Staged]) async throws(NarrationError) {
        try contents.withLock { (contents) throws(NarrationError) in
            if let failure = contents.commitFailure {
                contents.commitFailure = nil
                throw failure
            }
            for file in staged {
                contents.objects[file.key] = Object(
                    data: file.data, contentType: file.contentType, metadata: file.metadata, modified: Date(), version: contents.nextVersion)
                contents.nextVersion += 1
            }
        }
    }

    /// Makes the next commit throw `error` and put none of its files in: a destination that
    /// fails while a delivery's files go into place, for tests.
    public func failNextCommit(with error: NarrationError) {
        contents.withLock { $0.commitFailure = error }
    }

    public func close() async {}
}
