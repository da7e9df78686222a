public import Foundation
public import NarrationCore
import ObjectStorage

/// A destination folder (a mounted share, say) as a `DeliveryStore`: each key a file below the
/// folder, in folders narrate makes or finds there as folders, never through a symbolic link.
///
/// A write goes to a hidden temporary file beside its place, fsynced and renamed into place
/// (`FileSystem.writeAtomically`), and is read back and its SHA-256 compared. A change holds an
/// exclusive `flock` on the hidden `.NAME.lock` beside the file while it reads and writes,
/// waiting for another writer's lock without polling. The folder may be shared: a symbolic link
/// as a file, its lock or its temporary file is someone else's, never followed (`foreignFile`).
/// The blocking calls run on a thread of their own (`BlockingWork`); the `…Now` methods are the
/// same for callers already on one.
public struct FolderDeliveryStore: DeliveryStore {
    /// The folder, standardized.
    public let root: URL

    public init(root: URL) {
        self.root = root.standardizedFileURL
    }

    public var name: String { root.path }
    public var verification: String { "SHA-256 checked" }
    public func location(of key: String) -> String { root.appendingPathComponent(key).path }
    public func naming(_ key: String) -> String { "the delivered file \(location(of: key))" }
    public func recordedLocation(of key: String) -> String { location(of: key) }

    public func key(ofRecorded location: String) -> String? {
        let key = String(location.dropFirst(root.path.count + 1))
        guard location.hasPrefix(root.path + "/"), SafeFileName.isSafeRelativePath(key) else { return nil }
        return key
    }

    /// The file of `key` below the folder. - Throws: `fileSystem` for a key that is not safe.
    func url(of key: String) throws(NarrationError) -> URL {
        root.appendingPathComponent(try Self.checked(key, in: root.path))
    }

    // MARK: DeliveryStore

    public func write(_ data: Data, to key: String, contentType: String, metadata: [String: String]) async throws(NarrationError) -> StoredObject {
        try await BlockingWork.run(named: "narrate-store-write") { () throws(NarrationError) in try writeNow(data, to: key) }
    }

    public func read(_ key: String) async throws(NarrationError) -> Data? {
        try await BlockingWork.run(named: "narrate-store-read") { () throws(NarrationError) in try readNow(key) }
    }

    public func head(_ key: String) async throws(NarrationError) -> StoredObject? {
        try await BlockingWork.run(named: "narrate-store-head") { () throws(NarrationError) in try headNow(key) }
    }

    public func delete(_ key: String) async throws(NarrationError) {
        try await BlockingWork.run(named: "narrate-store-delete") { () throws(NarrationError) in try deleteNow(key) }
    }

    public func list(prefix: String) async throws(NarrationError) -> [String] {
        try await BlockingWork.run(named: "narrate-store-list") { () throws(NarrationError) in listNow(prefix: prefix) }
    }

    public func change(
        _ key: String, contentType: String, _ transform: @escaping @Sendable (Data?) throws(NarrationError) -> Data?
    ) async throws(NarrationError) -> StoredChange {
        try await BlockingWork.run(named: "narrate-store-change") { () throws(NarrationError) in try changeNow(key, transform) }
    }

    /// A copy beside its place, renamed into it on commit; dropped uncommitted, it is removed.
    public struct Staged: Sendable {
        let copy: StagedCopy
    }

    public func stage(_ file: DeliveryFile, transfer: DeliveryTransfer) async throws(NarrationError) -> Staged? {
        try await BlockingWork.run(named: "narrate-store-stage") { () throws(NarrationError) in try stageNow(file).map(Staged.init) }
    }

    public func commit(_ staged: [Staged]) async throws(NarrationError) {
        try await BlockingWork.run(named: "narrate-store-commit") { () throws(NarrationError) in
            for file in staged { try file.copy.commit() }
        }
    }

    public func close() async {}

    // MARK: On a thread that may block

    /// See `stage`: the copy, made beside its place under narrate's temporary name and forced to
    /// disk, is read back and its SHA-256 compared; temporary copies that killed writers left in
    /// that folder are removed first. A regular file already at the place with `file`'s size and
    /// SHA-256 is kept when `file` allows it (a symbolic link there is never read: it is replaced).
    /// - Throws: `fileCorrupt` when the copy does not match; `fileSystem`, `diskFull` (the partial
    ///   copy removed), `foreignFile`.
    func stageNow(_ file: DeliveryFile) throws(NarrationError) -> StagedCopy? {
        let target = try url(of: file.key)
        try FileSystem.createFolders(target.deletingLastPathComponent(), below: root)
        FileSystem.removeAbandonedPartials(in: target.deletingLastPathComponent())
        if file.reusesStoredCopy, FileSystem.foreignFile(at: target) == nil, FileSystem.size(target) == file.bytes,
            (try? Checksum.sha256(of: target)) == file.sha256
        {
            return nil
        }
        return try StagedCopy(file.source, to: target) { (copy) throws(NarrationError) in
            guard try Checksum.sha256(of: copy) == file.sha256 else {
                throw NarrationError(.fileCorrupt, "The copy at \(target.path) did not match the outbox file, so it was not put in place. Try again.")
            }
        }
    }

    /// See `write`. - Throws: `fileSystem`, `diskFull`, `foreignFile`; `fileCorrupt` when the
    /// bytes read back are not those written.
    @discardableResult
    func writeNow(_ data: Data, to key: String) throws(NarrationError) -> StoredObject {
        let url = try url(of: key)
        try FileSystem.createFolders(url.deletingLastPathComponent(), below: root)
        if let foreign = FileSystem.foreignFile(at: url) { throw foreign }
        try FileSystem.writeAtomically(data, to: url)
        let sha256 = Digest.sha256Hex(data)
        guard let back = try FileSystem.ownContents(of: url), Digest.sha256Hex(Data(back)) == sha256 else {
            throw NarrationError(.fileCorrupt, "The copy at \(url.path) did not match what was written. Try again.", subject: .file(url.path))
        }
        return StoredObject(key: key, bytes: data.count, sha256: sha256, modified: try? FileSystem.linkStatus(of: url.path).modified)
    }

    func readNow(_ key: String) throws(NarrationError) -> Data? {
        try FileSystem.ownContents(of: try url(of: key)).map { Data($0) }
    }

    /// See `head`; the SHA-256 is read from the file. - Throws: `foreignFile` for anything but a
    /// regular file there.
    func headNow(_ key: String) throws(NarrationError) -> StoredObject? {
        let url = try url(of: key)
        let found: FileStatus
        do throws(SystemError) {
            found = try FileSystem.linkStatus(of: url.path)
        } catch where error.isMissing {
            return nil
        } catch {
            throw NarrationError(.fileSystem, "Cannot examine \(url.path): \(error.reason).", subject: .file(url.path), cause: error.cause)
        }
        if let foreign = FileSystem.foreignFile(at: url, doing: "read") { throw foreign }
        guard found.kind == .file else { throw .foreignFile(url.path, .notRegularFile, doing: "read") }
        return StoredObject(key: key, bytes: found.size, sha256: try Checksum.sha256(of: url), modified: found.modified)
    }

    func deleteNow(_ key: String) throws(NarrationError) {
        let url = try url(of: key)
        try FileSystem.remove(url)
        FileSystem.syncDirectory(url.deletingLastPathComponent())
    }

    /// See `list`: regular files only, hidden ones (locks, temporary files) and links left out.
    func listNow(prefix: String) -> [String] {
        // Walk from the folder the prefix names in full; its last part may be a name's beginning.
        let start = prefix.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        guard start.isEmpty || SafeFileName.isSafeRelativePath(start) else { return [] }
        var keys: [String] = []
        var folders = [start]
        while let folder = folders.popLast() {
            let url = folder.isEmpty ? root : root.appendingPathComponent(folder)
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) else { continue }
            for name in names where !name.hasPrefix(".") {
                let key = folder.isEmpty ? name : folder + "/" + name
                switch (try? FileSystem.linkStatus(of: url.appendingPathComponent(name).path))?.kind {
                case .folder?: if key.hasPrefix(prefix) || prefix.hasPrefix(key + "/") { folders.append(key) }
                case .file?: if key.hasPrefix(prefix) { keys.append(key) }
                default: continue
                }
            }
        }
        return keys.sorted()
    }

    /// See `change`. - Throws: `fileSystem`/`diskFull` for the folder; `foreignFile` for a
    /// symbolic link as the file, its lock file or its temporary file; what `transform` throws.
    func changeNow(_ key: String, _ transform: (Data?) throws(NarrationError) -> Data?) throws(NarrationError) -> StoredChange {
        let url = try url(of: key)
        if (try? FileSystem.linkStatus(of: url.path)) == nil, try transform(nil) == nil {
            // Nothing there and nothing to write: no lock file or folder is made for it either.
            return StoredChange(attempts: 1, written: false)
        }
        try FileSystem.createFolders(url.deletingLastPathComponent(), below: root)
        let lockURL = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).lock")
        let lock: OpenFile
        do throws(SystemError) {
            lock = try OpenFile(lockURL.path, .readWriteCreating(permissions: 0o644))
        } catch where error.isForeignFile {
            throw FileSystem.foreignFile(at: lockURL) ?? .foreignFile(lockURL.path, .notRegularFile)
        } catch {
            throw NarrationError(.fileSystem, "Cannot open the lock file \(lockURL.path): \(error.reason).", subject: .file(lockURL.path), cause: error.cause)
        }
        do throws(SystemError) {
            try lock.lock()
        } catch {
            throw NarrationError(
                .fileSystem, "Cannot lock the lock file \(lockURL.path) (\(error.reason)), so \(url.path) was not changed; the folder must allow file locks.",
                subject: .file(lockURL.path), cause: error.cause)
        }
        defer { withExtendedLifetime(lock) {} }  // the kernel drops the flock when the file closes
        let current = try FileSystem.ownContents(of: url).map { Data($0) }
        guard let changed = try transform(current) else { return StoredChange(attempts: 1, written: false) }
        try FileSystem.writeAtomically(changed, to: url)
        return StoredChange(attempts: 1, written: true)
    }
}
