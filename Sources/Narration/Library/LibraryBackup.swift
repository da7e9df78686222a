public import Foundation
public import NarrationCore

/// What a backup wrote.
public struct BackupSummary: Sendable {
    /// The dated folder that holds the backup.
    public let folder: URL
    /// Files copied, the catalog and the manifest among them.
    public let files: Int
    public let bytes: Int
    public let articles: Int
    public let chunks: Int
    public let seconds: Double
}

extension NarrationLibrary {
    /// Writes a backup of the library into a new dated folder inside `destination`
    /// (`narrate-backup-YYYY-MM-DD-HHMMSS`, UTC), while other commands go on.
    ///
    /// First a consistent snapshot of the catalog (`Catalog.snapshot(to:)`: SQLite's online
    /// backup, every table), then, from what that snapshot lists, every chunk file (checked by its
    /// header and length against the snapshot, as `chunks` checks it; one moved to the trash since
    /// the snapshot is taken from there), every other file below `articles/` (the trash, which
    /// undo brings back) and the outbox's exports (each checked against its SHA-256 in the
    /// catalog), each copied beside its final name, forced to disk, then renamed into place.
    /// The manifest (`BackupManifest`) is written last, atomically.
    ///
    /// Not copied: takes being recorded (not committed, so not in the snapshot; their recorder is
    /// never waited for), locks, the space set aside for a take, temporary files, hidden files
    /// and symbolic links, and `config.toml` (the operator's settings, kept outside the data root).
    /// The folder is its owner's alone (0700): the catalog holds the accounts' passphrase hashes.
    /// - Parameter progress: bytes copied so far and in all, after each file.
    /// - Throws: `fileSystem` when `destination` cannot be used (it is not a folder, cannot be
    ///   made, or is inside the data root) or the dated folder exists already (nothing there is
    ///   written over); `chunkFileMissing` or `fileCorrupt` naming a chunk or export that is
    ///   missing or damaged; `diskFull`. On any failure the dated folder is removed: no
    ///   unfinished backup is left to be taken for a whole one.
    public func backup(
        into destination: URL, at date: Date = Date(), progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) throws(NarrationError) -> BackupSummary {
        try backup(into: destination, at: date, afterSnapshot: {}, progress: progress)
    }

    /// `backup(into:at:progress:)`, with `afterSnapshot` run after each snapshot of the catalog
    /// is taken: where the tests change the library under a backup.
    func backup(
        into destination: URL, at date: Date, afterSnapshot: () -> Void, progress: (_ done: Int, _ total: Int) -> Void
    ) throws(NarrationError) -> BackupSummary {
        let started = FileSystem.monotonicSeconds()
        let inside = destination.resolvingSymlinksInPath().path
        let rootPath = root.url.resolvingSymlinksInPath().path
        guard inside != rootPath, !inside.hasPrefix(rootPath + "/") else {
            throw NarrationError(
                .fileSystem,
                "\(destination.path) is inside the data folder \(root.url.path), which a backup copies; keep backups on another disk, or at least outside it.",
                subject: .file(destination.path))
        }
        try Self.prepareBackupDestination(destination)
        let folder = destination.appendingPathComponent(Self.backupFolderName(at: date), isDirectory: true)
        try Self.makeBackupFolder(folder, in: destination)
        do throws(NarrationError) {
            // A chunk removed since the snapshot (a prune, a deletion emptied from the trash)
            // makes that snapshot outdated: it is taken again, a few times at most.
            var attempt = 1
            var outcome = try writeBackup(into: folder, at: date, lastAttempt: false, afterSnapshot: afterSnapshot, progress: progress)
            while outcome == nil {
                attempt += 1
                try FileSystem.removeTree(folder)
                try Self.makeBackupFolder(folder, in: destination)
                outcome = try writeBackup(into: folder, at: date, lastAttempt: attempt == 3, afterSnapshot: afterSnapshot, progress: progress)
            }
            guard let written = outcome else { preconditionFailure("the last attempt returns or throws") }
            FileSystem.syncDirectory(destination)
            return BackupSummary(
                folder: folder, files: written.files, bytes: written.bytes, articles: written.articles, chunks: written.chunks,
                seconds: FileSystem.monotonicSeconds() - started)
        } catch {
            try? FileSystem.removeTree(folder)
            throw error
        }
    }

    /// Makes the backup's own folder, its owner's alone (0700), refusing anything already at its name.
    private static func makeBackupFolder(_ folder: URL, in destination: URL) throws(NarrationError) {
        do throws(SystemError) {
            try FileSystem.makeNewDirectory(folder.path, permissions: 0o700)
        } catch {
            if error.isAlreadyThere {
                throw NarrationError(
                    .fileSystem, "\(destination.path) already holds \(folder.lastPathComponent); nothing was written over it. Back up again in a second.",
                    subject: .file(folder.path))
            }
            throw NarrationError(.fileSystem, "Cannot create the backup folder \(folder.path) (\(error.reason)).", subject: .file(folder.path), cause: error.cause)
        }
    }

    /// `narrate-backup-2026-11-26-120000`: the backup's folder, by its time in UTC.
    static func backupFolderName(at date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return "narrate-backup-\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day))-\(two(parts.hour))\(two(parts.minute))\(two(parts.second))"
    }

    /// The folder backups go into: one there (a link to one is fine: someone chose it), or made
    /// with one `mkdir` when its parent exists.
    private static func prepareBackupDestination(_ destination: URL) throws(NarrationError) {
        let found: FileStatus
        do throws(SystemError) {
            found = try FileSystem.status(of: destination.path)
        } catch {
            guard error.isMissing else {
                throw NarrationError(
                    .fileSystem, "Cannot use \(destination.path) for backups (\(error.reason)).", subject: .file(destination.path), cause: error.cause)
            }
            do throws(SystemError) {
                try FileSystem.makeDirectory(destination.path)
            } catch {
                throw NarrationError(
                    .fileSystem,
                    "Cannot create \(destination.path) for backups (\(error.reason)); give a folder that exists or whose parent does.",
                    subject: .file(destination.path), cause: error.cause)
            }
            return
        }
        guard found.kind == .folder else {
            throw NarrationError(.fileSystem, "\(destination.path) is not a folder; give a folder to keep backups in.", subject: .file(destination.path))
        }
    }

    /// A file to copy into the backup: where it is now, its path below the backup, and how its
    /// copy is checked.
    private struct BackupItem {
        enum Check {
            /// A chunk: its header and length against the snapshot's row.
            case chunk(Chunk, article: ArticleID)
            /// An export: its SHA-256 against the outbox table's.
            case export(sha256: String)
            /// Another file, copied as found; one that a command running now removed is left out.
            case asFound
        }

        let source: URL
        let path: String
        let check: Check
    }

    /// Everything `backup(into:)` does inside the new folder.
    /// - Parameter lastAttempt: a chunk whose file is nowhere is refused even when the catalog
    ///   no longer lists it.
    /// - Returns: nil when a chunk the snapshot lists is gone from the catalog and its file with it.
    private func writeBackup(
        into folder: URL, at date: Date, lastAttempt: Bool, afterSnapshot: () -> Void, progress: (Int, Int) -> Void
    ) throws(NarrationError) -> (files: Int, bytes: Int, articles: Int, chunks: Int)? {
        let catalogCopy = folder.appendingPathComponent(BackupManifest.catalogPath)
        try catalog.snapshot(to: catalogCopy.path)
        afterSnapshot()
        guard let (items, articles, chunks) = try backupItems(snapshot: catalogCopy, lastAttempt: lastAttempt) else { return nil }
        let catalogBytes = FileSystem.size(catalogCopy)
        let total = catalogBytes + items.reduce(0) { $0 + FileSystem.size($1.source) }
        var done = catalogBytes
        var files = [BackupManifest.File(path: BackupManifest.catalogPath, size: catalogBytes, sha256: try Checksum.sha256(of: catalogCopy))]
        progress(done, total)
        for item in items {
            guard let file = try copy(item, into: folder) else { continue }
            files.append(file)
            done += file.size
            progress(done, total)
        }
        let manifest = BackupManifest(createdAt: date, files: files)
        try FileSystem.writeAtomically(manifest.encoded(), to: folder.appendingPathComponent(BackupManifest.fileName), permissions: 0o600)
        return (files.count + 1, done, articles, chunks)
    }

    /// What the backup copies besides the catalog: the chunks the snapshot lists, then every
    /// other file below `articles/` and `outbox/` but those a backup leaves out.
    /// - Returns: nil when a chunk the snapshot lists has no file and the catalog no longer lists
    ///   it either (removed since the snapshot), unless `lastAttempt`.
    /// - Throws: `chunkFileMissing` naming a chunk the snapshot lists whose file is nowhere.
    private func backupItems(snapshot: URL, lastAttempt: Bool) throws(NarrationError) -> (items: [BackupItem], articles: Int, chunks: Int)? {
        let listed = try Catalog(readingOnly: snapshot.path)
        let chunks = try listed.everyChunk()
        let articles = try listed.everyArticleID().count
        let checksums = try listed.exportChecksums()
        var items: [BackupItem] = []
        for (article, chunk) in chunks {
            let path = "articles/\(article.rawValue)/chunks/\(chunk.id.rawValue).wav"
            // A chunk deleted or re-recorded since the snapshot has gone to its article's trash.
            let places = [root.chunkURL(chunk.id, of: article), root.trashedChunkURL(chunk.id, of: article)]
            guard let source = places.first(where: { (try? FileSystem.linkStatus(of: $0.path))?.kind == .file }) else {
                if !lastAttempt, try catalog.chunk(chunk.id, format: chunk.format) == nil { return nil }
                throw NarrationError(
                    .chunkFileMissing,
                    "Chunk \(chunk.id.rawValue) of article \(article.rawValue)'s file \(places[0].path) is missing (nor is it in the article's trash), so the backup stopped and was removed. Record that chunk again or delete it, then back up again.",
                    subject: .file(places[0].path))
            }
            items.append(BackupItem(source: source, path: path, check: .chunk(chunk, article: article)))
        }
        for (source, path) in Self.filesBelow(root.url, in: ["articles", "outbox"]) where !Self.isChunkFolderFile(path) {
            items.append(BackupItem(source: source, path: path, check: checksums[path].map { .export(sha256: $0) } ?? .asFound))
        }
        return (items, articles, chunks.count)
    }

    /// Whether `path` is in an article's `chunks/` folder, whose files the snapshot lists.
    private static func isChunkFolderFile(_ path: String) -> Bool {
        let parts = path.split(separator: "/")
        return parts.count == 4 && parts[0] == "articles" && parts[2] == "chunks"
    }

    /// Names a backup leaves out wherever they are: a recorder's and a delivery's locks and the
    /// space set aside for a take.
    private static let leftOut: Set<String> = ["recording.lock", "delivery.lock", "space.reserve"]

    /// The regular files below `folders` of `root`, by path below it, sorted; hidden names
    /// (narrate's temporary files), left-out names and symbolic links are skipped, and so is
    /// anything that vanishes while it is listed.
    private static func filesBelow(_ root: URL, in folders: [String]) -> [(URL, String)] {
        var found: [(URL, String)] = []
        var pending = folders.map { (root.appendingPathComponent($0, isDirectory: true), $0) }
        while let (folder, path) = pending.popLast() {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { continue }
            for name in names.sorted() where !name.hasPrefix(".") && !leftOut.contains(name) {
                let url = folder.appendingPathComponent(name)
                switch (try? FileSystem.linkStatus(of: url.path))?.kind {
                case .folder: pending.append((url, "\(path)/\(name)"))
                case .file: found.append((url, "\(path)/\(name)"))
                default: continue
                }
            }
        }
        return found.sorted { $0.1 < $1.1 }
    }

    /// Copies one item into the backup, through a temporary file that is checked before it is
    /// renamed into place.
    /// - Returns: its manifest line, or nil for a file copied as found that is gone.
    private func copy(_ item: BackupItem, into folder: URL) throws(NarrationError) -> BackupManifest.File? {
        let target = folder.appendingPathComponent(item.path)
        try FileSystem.createFolders(target.deletingLastPathComponent(), below: folder)
        var digest = ""
        var size = 0
        let check = item.check
        let source = item.source
        do throws(NarrationError) {
            try FileSystem.copyAtomically(source, to: target) { (copy) throws(NarrationError) in
                size = FileSystem.size(copy)
                digest = try Checksum.sha256(of: copy)
                switch check {
                case .chunk(let chunk, let article):
                    if let problem = Self.fileProblem(of: copy, chunk: chunk) {
                        throw NarrationError(
                            .fileCorrupt,
                            "Chunk \(chunk.id.rawValue) of article \(article.rawValue)'s file \(source.path) is damaged (\(LibraryCheck.describe(problem))), so the backup stopped and was removed. Record that chunk again or delete it, then back up again.",
                            subject: .file(source.path))
                    }
                case .export(let sha256) where sha256 != digest:
                    throw NarrationError(
                        .fileCorrupt,
                        "The export \(source.path) does not match the SHA-256 the catalog keeps for it, so the backup stopped and was removed. Queue its article again, then back up again.",
                        subject: .file(source.path))
                case .export, .asFound: break
                }
            }
        } catch {
            if case .asFound = check, !FileSystem.exists(source) { return nil }
            throw error
        }
        return BackupManifest.File(path: item.path, size: size, sha256: digest)
    }
}
