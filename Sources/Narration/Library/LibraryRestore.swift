public import Foundation
public import NarrationCore

/// What a restore brought back.
public struct RestoreSummary: Sendable {
    /// The data root, now holding the backup's library.
    public let root: URL
    public let files: Int
    public let bytes: Int
    public let articles: Int
    public let chunks: Int
    public let seconds: Double
}

/// Brings a backup (`NarrationLibrary.backup(into:)`) back into an empty data root.
public enum LibraryRestore {
    /// Restores the backup in `backup` (the dated folder that holds `manifest.json`) into `root`,
    /// which must be empty or not exist yet, so that two libraries are never mixed.
    ///
    /// Every file the manifest lists is copied into a new folder beside the root
    /// (`.<name>.narrate-restore`) and counts only once its copy has the manifest's size and
    /// SHA-256; then the catalog is opened (brought up to date if an older narrate wrote it),
    /// SQLite's integrity check must find nothing, and every chunk it lists must be there with
    /// its header and length; only then is that folder renamed to the root. A restore that fails
    /// removes its folder, so no half-restored root is ever left that looks whole. Files the
    /// backup holds beyond its manifest are not copied.
    /// - Parameter progress: bytes copied so far and in all, after each file.
    /// - Throws: `fileSystem` when the backup has no manifest, the root is not empty, is a file or
    ///   a symbolic link, or its parent does not exist; `fileCorrupt` for a manifest narrate does
    ///   not write or a file that does not match it; `chunkFileMissing` for a file the manifest
    ///   or the catalog lists that the backup lacks; `catalogCorrupt` when the catalog fails its
    ///   integrity check; `diskFull`.
    public static func restore(
        from backup: URL, into root: DataRoot, progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) throws(NarrationError) -> RestoreSummary {
        let started = FileSystem.monotonicSeconds()
        let manifest = try BackupManifest.read(from: backup)
        let existing = try requireEmpty(root)
        let parent = root.url.deletingLastPathComponent()
        let staging = parent.appendingPathComponent(".\(root.url.lastPathComponent).narrate-restore", isDirectory: true)
        do throws(SystemError) {
            try FileSystem.makeNewDirectory(staging.path)
        } catch {
            if error.isAlreadyThere {
                throw NarrationError(
                    .fileSystem,
                    "\(staging.path) is there already: an interrupted restore left it, or one is running now. Remove it once no restore runs, then try again.",
                    subject: .file(staging.path))
            }
            throw NarrationError(
                .fileSystem, "Cannot restore into \(root.url.path): cannot create \(staging.path) beside it (\(error.reason)).",
                subject: .file(staging.path), cause: error.cause)
        }
        do throws(NarrationError) {
            let total = manifest.files.reduce(0) { $0 + $1.size }
            var done = 0
            for file in manifest.files {
                try copy(file, from: backup, into: staging)
                done += file.size
                progress(done, total)
            }
            let (articles, chunks) = try checkLibrary(in: staging, backup: backup)
            if existing {
                // prepare() makes `articles` in a new root; it must be empty too, or the rename fails.
                try? FileSystem.removeEmptyDirectory(root.articlesURL.path)
                do throws(SystemError) {
                    try FileSystem.replace(root.url, with: staging)
                } catch {
                    throw error.isFolderNotEmpty ? notEmpty(root) : NarrationError(
                        .fileSystem, "Cannot put the restored library at \(root.url.path) (\(error.reason)).", subject: .file(root.url.path), cause: error.cause)
                }
            } else {
                try FileSystem.move(staging, to: root.url)
            }
            FileSystem.syncDirectory(parent)
            return RestoreSummary(
                root: root.url, files: manifest.files.count, bytes: total, articles: articles, chunks: chunks,
                seconds: FileSystem.monotonicSeconds() - started)
        } catch {
            try? FileSystem.removeTree(staging)
            throw error
        }
    }

    /// Checks that `root` can receive a restore: it does not exist and its parent does, or it
    /// is an empty folder (an `articles` folder with nothing in it, which opening a new root
    /// makes, counts as empty).
    /// - Returns: whether the root exists.
    private static func requireEmpty(_ root: DataRoot) throws(NarrationError) -> Bool {
        let path = root.url.path
        let found: FileStatus
        do throws(SystemError) {
            found = try FileSystem.linkStatus(of: path)
        } catch {
            guard error.isMissing else {
                throw NarrationError(.fileSystem, "Cannot restore into \(path) (\(error.reason)).", subject: .file(path), cause: error.cause)
            }
            let parent = root.url.deletingLastPathComponent()
            if root.createsParents, let failure = FileSystem.makeDirectories(parent) {
                throw NarrationError(
                    .fileSystem, "Cannot restore into \(path): cannot create \(parent.path) (\(FileSystem.describe(errno: failure))).",
                    subject: .file(path), cause: .system(errno: failure))
            }
            guard (try? FileSystem.status(of: parent.path))?.kind == .folder else {
                throw NarrationError(
                    .fileSystem, "Cannot restore into \(path): its parent \(parent.path) does not exist (is the share mounted?).", subject: .file(path))
            }
            return false
        }
        switch found.kind {
        case .folder: break
        case .symbolicLink:
            throw NarrationError(
                .fileSystem, "Cannot restore into \(path): it is a symbolic link; give the folder it points to by its own path.", subject: .file(path))
        default:
            throw NarrationError(.fileSystem, "Cannot restore into \(path): it is a file, not a folder.", subject: .file(path))
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            throw NarrationError(
                .fileSystem, "Cannot restore into \(path): its contents cannot be listed (\(error.localizedDescription)).", subject: .file(path))
        }
        let articles = (try? FileManager.default.contentsOfDirectory(atPath: root.articlesURL.path)) ?? []
        let emptyArticles = (try? FileSystem.linkStatus(of: root.articlesURL.path))?.kind == .folder && articles.isEmpty
        guard names.isEmpty || (names == ["articles"] && emptyArticles) else { throw notEmpty(root, holding: names) }
        return true
    }

    /// The refusal of a root that holds something.
    private static func notEmpty(_ root: DataRoot, holding names: [String] = []) -> NarrationError {
        let sorted = names.sorted()
        let shown = sorted.prefix(3).joined(separator: ", ") + (sorted.count > 3 ? " and \(sorted.count - 3) more" : "")
        return NarrationError(
            .fileSystem,
            "The data folder \(root.url.path) is not empty\(shown.isEmpty ? "" : " (it holds \(shown))"): narrate restores only into an empty folder, so that two libraries are never mixed. Nothing was changed; choose a new folder, or move this one's contents aside.",
            subject: .file(root.url.path))
    }

    /// Copies one file of the backup into `staging`; the copy counts only with the manifest's
    /// size and SHA-256.
    private static func copy(_ file: BackupManifest.File, from backup: URL, into staging: URL) throws(NarrationError) {
        let source = backup.appendingPathComponent(file.path)
        guard (try? FileSystem.status(of: source.path))?.kind == .file else {
            throw NarrationError(
                .chunkFileMissing, "The backup lacks \(source.path), which its manifest lists; it is incomplete, so nothing was restored.",
                subject: .file(source.path))
        }
        let target = staging.appendingPathComponent(file.path)
        try FileSystem.createFolders(target.deletingLastPathComponent(), below: staging)
        try FileSystem.copyAtomically(source, to: target) { (copy) throws(NarrationError) in
            let size = FileSystem.size(copy)
            guard size == file.size, try Checksum.sha256(of: copy) == file.sha256 else {
                throw NarrationError(
                    .fileCorrupt,
                    "The backup's file \(source.path) does not match its manifest (\(size == file.size ? "its SHA-256 differs" : "\(size) bytes, not \(file.size)")); the backup is damaged, so nothing was restored.",
                    subject: .file(source.path))
            }
        }
    }

    /// The restored library's own checks: the catalog opens (brought up to date), SQLite finds
    /// nothing wrong with it, and every chunk it lists has its file with the header and length
    /// it says; each article gets its folders.
    /// - Returns: how many articles and chunks the library holds.
    private static func checkLibrary(in staging: URL, backup: URL) throws(NarrationError) -> (articles: Int, chunks: Int) {
        let restored = DataRoot(url: staging)
        let backupCatalog = backup.appendingPathComponent(BackupManifest.catalogPath).path
        func damaged(_ why: String, cause: NarrationError.Cause? = nil) -> NarrationError {
            NarrationError(
                .catalogCorrupt, "The backup's catalog \(backupCatalog) is damaged (\(why)), so nothing was restored.",
                subject: .file(backupCatalog), cause: cause)
        }
        let catalog: Catalog
        let chunks: [(article: ArticleID, chunk: Chunk)]
        do throws(NarrationError) {
            catalog = try Catalog(path: restored.catalogURL.path)
            let problems = try catalog.integrityProblems()
            guard problems.isEmpty else { throw damaged("SQLite's integrity check: \(Catalog.quoted(problems[0], limit: 120))") }
            chunks = try catalog.everyChunk()
        } catch where error.kind == .catalogCorrupt && error.subject != .file(backupCatalog) {
            // Its words name the copy beside the data folder, which is removed: say it of the backup.
            throw damaged("SQLite cannot read it", cause: error.cause)
        }
        for (article, chunk) in chunks {
            let file = restored.chunkURL(chunk.id, of: article)
            if let problem = NarrationLibrary.fileProblem(of: file, chunk: chunk) {
                let path = "articles/\(article.rawValue)/chunks/\(chunk.id.rawValue).wav"
                throw NarrationError(
                    problem == .missing ? .chunkFileMissing : .fileCorrupt,
                    "The backup's catalog lists chunk \(chunk.id.rawValue) of article \(article.rawValue), but its file \(path) is \(LibraryCheck.describe(problem)) in the backup, so nothing was restored.",
                    subject: .file(backup.appendingPathComponent(path).path))
            }
        }
        let articles = try catalog.everyArticleID()
        try FileSystem.createDirectory(restored.articlesURL)
        for article in articles { try restored.prepareArticle(article) }
        return (articles.count, chunks.count)
    }
}
