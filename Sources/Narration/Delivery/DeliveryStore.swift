public import Foundation
public import NarrationCore

/// What a delivery store says of one stored object: its size, and what it knows of its bytes.
public struct StoredObject: Sendable, Equatable {
    /// The object's key below the store's root.
    public let key: String
    public let bytes: Int
    /// The SHA-256 of the bytes (hex): computed from them in a folder and in memory; in object
    /// storage, the one narrate stored with them (metadata), nil for an object written without it.
    public let sha256: String?
    /// Object storage's ETag (a single PUT's is the bytes' MD5); nil in a folder and in memory.
    public let etag: String?
    /// When it was last written, when the store says.
    public let modified: Date?

    public init(key: String, bytes: Int, sha256: String?, etag: String? = nil, modified: Date? = nil) {
        self.key = key
        self.bytes = bytes
        self.sha256 = sha256
        self.etag = etag
        self.modified = modified
    }
}

/// What a read-change-write did.
public struct StoredChange: Sendable, Equatable {
    /// How many times the object was read, changed and written: more than 1 when another writer
    /// changed it between this change's read and write (object storage, memory).
    public let attempts: Int
    /// False when the change wrote nothing (it returned nil).
    public let written: Bool
}

/// Where a destination keeps what narrate delivers: a folder, an S3 bucket, or memory (for tests).
/// Delivery, restoring a job, stray copies, feeds, prune and doctor speak to this, never to a
/// folder or a bucket themselves; `NarrationLibrary.store(for:)` is the one place that turns a
/// configured `Destination` into one. Modelled on Hummingbird's `FileProvider`, with
/// `FolderDeliveryStore` as its `LocalFileSystem`.
///
/// A key is a relative path below the store's root (`Daily Post/2026-11-24/feed.xml`), made of
/// safe components only: one with `..`, a leading `/` or a control character is refused before
/// anything is touched. Every store keeps these guarantees, which `DeliveryStoreContractTests`
/// checks against all three:
/// - `write` is atomic and verified: a reader sees the old bytes or the new, never half of them,
///   and the bytes stored are checked after writing (read back and their SHA-256 compared in a
///   folder; size, ETag and SHA-256 by HEAD in object storage) before it returns.
/// - `change` loses no concurrent change: two writers changing one object at once both see their
///   change in the end (a folder holds an exclusive `flock` beside the file while it reads and
///   writes; object storage writes only if the object is still the one read, `If-Match`, and
///   reads again when it is not; memory compares versions the same way).
/// - `read`, `head` and `delete` of a key with nothing there answer nil, nil and quietly.
/// - `list` names the objects below a prefix, sorted; never the store's own lock or temporary
///   files (hidden names in a folder).
/// - `stage` writes a delivery's file verified, and `commit` puts the staged files in their
///   places together. In a folder and in memory a failure while staging (a full disk) leaves
///   none of them in place, and staged files dropped uncommitted leave nothing behind. Object
///   storage has no rename: each object is stored whole as it is staged, at the place the
///   delivery recorded before its first byte, so that the next attempt keeps it (or resumes its
///   multipart upload) and a withdrawn job's copy is removed as a stray one.
public protocol DeliveryStore: Sendable {
    /// A file staged and verified, waiting for `commit`: a folder's copy beside its place, the
    /// bytes in memory, or an object already stored whole (object storage has no rename).
    associatedtype Staged: Sendable

    /// The destination as the catalog records it: a folder's path, or `s3://bucket/prefix`.
    var name: String { get }
    /// How a write is checked, in words for a person: "SHA-256 checked".
    var verification: String { get }
    /// Where `key` is, in words for a person: a file's path, or `s3://bucket/key`.
    func location(of key: String) -> String
    /// The object at `key` as a sentence names it: "the delivered file PATH" in a folder, its
    /// address in object storage.
    func naming(_ key: String) -> String
    /// How the catalog records `key`'s place: a folder's absolute path, or the full object key.
    func recordedLocation(of key: String) -> String
    /// The key of a place as the catalog records it, or nil when it is not below this store.
    func key(ofRecorded location: String) -> String?

    /// Stores `data` at `key` atomically, replacing what was there, and checks what was stored.
    /// - Parameter metadata: kept with an object in object storage (`sha256` is always added).
    /// - Returns: what is stored now.
    @discardableResult
    func write(_ data: Data, to key: String, contentType: String, metadata: [String: String]) async throws(NarrationError) -> StoredObject
    /// The bytes at `key`, or nil when nothing is there.
    func read(_ key: String) async throws(NarrationError) -> Data?
    /// What is at `key` (size, SHA-256, ETag, time), or nil when nothing is there.
    func head(_ key: String) async throws(NarrationError) -> StoredObject?
    /// Removes what is at `key`; nothing there is fine.
    func delete(_ key: String) async throws(NarrationError)
    /// The keys below `prefix` (a key's beginning, `""` for all), sorted.
    func list(prefix: String) async throws(NarrationError) -> [String]
    /// Reads what is at `key` (nil when nothing), hands it to `transform`, and stores what that
    /// returns in its place, atomically, with no concurrent change lost; a nil from `transform`
    /// writes nothing (and, where nothing was there, makes nothing: no folder, no lock file).
    func change(
        _ key: String, contentType: String, _ transform: @escaping @Sendable (Data?) throws(NarrationError) -> Data?
    ) async throws(NarrationError) -> StoredChange
    /// Writes `file.source` at `file.key` verified, but not yet in its place where the store can
    /// keep it aside (a folder: a hidden copy beside it, forced to disk, its SHA-256 checked;
    /// memory: the bytes held aside). Object storage stores it whole at once (one PUT, or a
    /// multipart upload that resumes the one `transfer` holds and saves a new one's id before its
    /// first part), checked by HEAD: size, ETag and SHA-256.
    /// - Returns: nil when `file` may reuse what is there and the bytes there are already these.
    /// - Throws: `fileCorrupt` when what was written does not match `file`; `diskFull`,
    ///   `fileSystem`, `foreignFile` for a folder; the storage's errors.
    func stage(_ file: DeliveryFile, transfer: DeliveryTransfer) async throws(NarrationError) -> Staged?
    /// Puts staged files in their places, in order (a folder renames each copy into place;
    /// memory puts them all in at once; object storage has them there already).
    func commit(_ staged: [Staged]) async throws(NarrationError)
    /// Gives up a multipart upload that an attempt of a job no longer sent (retired) began at
    /// `key` and never completed, so that the storage frees its parts. Only object storage has them.
    func abandonUpload(id: String, key: String) async throws(NarrationError)
    /// Lets go of what the store holds open (object storage's connection); await it before dropping the store.
    func close() async
}

extension DeliveryStore {
    /// Folders and memory stage whole files: there is no upload to give up.
    public func abandonUpload(id: String, key: String) async throws(NarrationError) {}

    @discardableResult
    public func write(_ data: Data, to key: String, contentType: String) async throws(NarrationError) -> StoredObject {
        try await write(data, to: key, contentType: contentType, metadata: [:])
    }

    /// Refuses a key that is not a relative path of safe components (see `DeliveryStore`).
    static func checked(_ key: String, in store: String) throws(NarrationError) -> String {
        guard SafeFileName.isSafeRelativePath(key) else {
            throw NarrationError(
                .fileSystem, "\"\(Catalog.quoted(key))\" is not a name narrate stores below \(store): it must be a relative path without \"..\"; nothing was touched.")
        }
        return key
    }
}

/// How many times a read-change-write that lost a race to another writer tries again before it
/// gives up saying the object is busy (object storage and memory).
enum StoreRetry {
    static let maximumAttempts = 20
}
