import Foundation
import NarrationCore

/// The checkup's recordings: the data folder, the disk it is on, and the catalog with the chunk
/// files it names. Nothing is created, adopted or changed: the catalog is opened read-only.
enum LibraryCheck {
    /// The data folder: where it is, whether it is a folder narrate can write.
    /// - Returns: the finding, and the nearest folder that exists (the data folder, else the one
    ///   it would be made in) for the disk check; nil when there is none to check.
    static func dataRoot(_ root: DataRoot) -> (DoctorFinding, existing: URL?) {
        let path = root.url.path
        let status: FileStatus
        do throws(SystemError) {
            status = try FileSystem.status(of: path)
        } catch {
            guard error.isMissing else {
                return (DoctorFinding(.dataRoot, .problem, "\(path) cannot be examined (\(error.reason))", advice: "Check its folder's permissions, or \(otherFolder(root))."), nil)
            }
            let parent = root.url.deletingLastPathComponent()
            let existing = nearestExistingFolder(root.url)
            guard root.createsParents || FileSystem.exists(parent) else {
                return (
                    DoctorFinding(
                        .dataRoot, .problem, "\(path) cannot be made: its parent \(parent.path) does not exist (is the share mounted?)",
                        advice: "Mount the share that holds it, or \(otherFolder(root))."),
                    existing)
            }
            return (DoctorFinding(.dataRoot, .ok, "\(path) does not exist yet; narrate makes it when the first article is started"), existing)
        }
        guard status.kind == .folder else {
            return (DoctorFinding(.dataRoot, .problem, "\(path) is a file, not a folder", advice: "Move the file aside, or \(otherFolder(root))."), nil)
        }
        do throws(SystemError) {
            try FileSystem.checkWritable(path)
        } catch {
            let why = error.isReadOnlyFileSystem ? "it is on a disk mounted read-only" : "it cannot be written (\(error.reason.lowercased()))"
            return (
                DoctorFinding(
                    .dataRoot, .problem, "\(path) can be read but not written: \(why); recordings can be played and exported but not made",
                    advice: "Make it writable (its owner or an administrator can), or \(otherFolder(root))."),
                root.url)
        }
        let origin = root.variable.map { " (from \($0))" } ?? ""
        return (DoctorFinding(.dataRoot, .ok, "\(path)\(origin), writable"), root.url)
    }

    /// "set NARRATE_HOME to a folder you can write": the way out of an unusable data folder.
    private static func otherFolder(_ root: DataRoot) -> String {
        "set NARRATE_HOME to \(root.variable == "NARRATE_HOME" ? "another" : "a") folder you can write"
    }

    /// `url`, else the nearest of its parents that exists.
    static func nearestExistingFolder(_ url: URL) -> URL? {
        var folder = url.standardizedFileURL
        while !FileSystem.exists(folder) {
            guard folder.path != "/" else { return nil }
            folder = folder.deletingLastPathComponent()
        }
        return folder
    }

    /// The free space on the disk that holds `folder`, in hours of recording in `format`.
    static func disk(at folder: URL, format: AudioFormat) -> (DoctorFinding, RecordingSpace?) {
        do throws(SystemError) {
            let space = RecordingSpace(freeBytes: try FileSystem.availableBytes(at: folder.path), format: format)
            return (space.finding(path: folder.path), space)
        } catch {
            return (DoctorFinding(.disk, .warning, "the free space on the disk of \(folder.path) cannot be read (\(error.reason.lowercased()))"), nil)
        }
    }

    /// The catalog opened for reading only; nil when there is none yet.
    static func openCatalog(_ root: DataRoot) -> Result<Catalog?, NarrationError> {
        guard FileSystem.exists(root.catalogURL) else { return .success(nil) }
        do {
            return .success(try Catalog(readingOnly: root.catalogURL.path))
        } catch {
            return .failure(error)
        }
    }

    /// How many problems of one kind a finding names before "and N more".
    private static let namedAtMost = 3

    /// The catalog: SQLite's integrity check, then every chunk file it names, by header and size
    /// (`NarrationLibrary.fileProblem`: no audio is read).
    static func catalog(_ opened: Result<Catalog?, NarrationError>, root: DataRoot) -> DoctorFinding {
        let catalog: Catalog
        switch opened {
        case .success(let found?):
            catalog = found
        case .success(nil):
            return DoctorFinding(.catalog, .ok, "none yet; narrate makes it when the first article is started")
        case .failure(let error) where error.remedy == .openLibraryOnce:
            // An empty file reads as a catalog of no version at all: one cut short to nothing,
            // which the next command would quietly start afresh.
            guard FileSystem.size(root.catalogURL) > 0 else {
                return DoctorFinding(
                    .catalog, .problem, "\(root.catalogURL.path) is empty (0 bytes): it was cut short, and the articles it listed are not in it",
                    advice: "Put back a copy of \(root.catalogURL.path) if you have one, before any other narrate command starts a new, empty catalog there; the chunk files stay under the articles folder.")
            }
            return DoctorFinding(
                .catalog, .warning, "\(root.catalogURL.path) was written by an older narrate and is brought up to date by the next command that opens it",
                advice: "Any narrate command that may change something, or lists the articles, brings it up to date.")
        case .failure(let error) where wasInterrupted(error, catalog: root.catalogURL):
            let path = root.catalogURL.path
            return DoctorFinding(
                .catalog, .warning,
                "\(path) was interrupted in the middle of a change (a narrate command was stopped, or the power went, while it wrote): SQLite's journal \(path)-journal holds what to undo",
                advice: "The next narrate command that opens the catalog, such as listing the articles, finishes it: SQLite undoes the unfinished change and the catalog is whole again. Until then it is not read here.")
        case .failure(let error):
            return DoctorFinding(.catalog, .problem, error, advice: keepCopy(error, root.catalogURL.path))
        }
        let path = catalog.path
        let damagedAdvice = "Keep a copy of \(path), then move it aside to start a new catalog; the chunk files stay under the articles folder."
        do throws(NarrationError) {
            let problems = try catalog.integrityProblems()
            guard problems.isEmpty else {
                let named = problems.prefix(namedAtMost).joined(separator: "; ") + (problems.count > namedAtMost ? "; …" : "")
                return DoctorFinding(.catalog, .problem, "\(path) is damaged: SQLite's integrity check found \(named)", advice: damagedAdvice)
            }
            var chunks = 0
            var bad: [String] = []
            let articles = try catalog.articles()
            for article in articles {
                for (position, chunk) in try catalog.chunks(of: article).enumerated() {
                    chunks += 1
                    if let problem = NarrationLibrary.fileProblem(of: root.chunkURL(chunk.id, of: article.id), chunk: chunk) {
                        bad.append("chunk \(position + 1) of \"\(Catalog.quoted(article.title))\" (\(article.id)) is \(describe(problem))")
                    }
                }
            }
            let counted = "\(articles.count) article\(articles.count == 1 ? "" : "s"), \(chunks) chunk\(chunks == 1 ? "" : "s")"
            guard bad.isEmpty else {
                let named = bad.prefix(namedAtMost).joined(separator: "; ") + (bad.count > namedAtMost ? "; and \(bad.count - namedAtMost) more" : "")
                return DoctorFinding(
                    .catalog, .problem, "\(counted); the file is intact, but \(bad.count) chunk file\(bad.count == 1 ? " is" : "s are") not as the catalog says: \(named)",
                    advice: "Re-record or delete those chunks; the article's chunk list marks them.")
            }
            return DoctorFinding(.catalog, .ok, "\(counted); the integrity check passed and every chunk's file is there")
        } catch {
            return DoctorFinding(.catalog, .problem, error, advice: keepCopy(error, path))
        }
    }

    /// SQLite's extended result code SQLITE_READONLY_ROLLBACK: the file has a hot journal, left by
    /// a change that never finished, which a read-only connection may not roll back.
    private static let readOnlyRollback: Int32 = 776

    /// Whether the catalog could not be opened because a change to it was interrupted: SQLite
    /// says so, or a journal is left beside it and the open failed as if it could not be written.
    /// Neither the catalog nor its journal is touched.
    private static func wasInterrupted(_ error: NarrationError, catalog: URL) -> Bool {
        if error.cause == .database(code: readOnlyRollback) { return true }
        let journal = URL(fileURLWithPath: catalog.path + "-journal")
        return error.kind == .dataRootNotWritable && FileSystem.size(journal) > 0
    }

    /// For a damaged catalog, whose sentence already says to move it aside: keep a copy first.
    private static func keepCopy(_ error: NarrationError, _ path: String) -> String? {
        error.kind == .catalogCorrupt ? "Keep a copy of \(path) before moving it." : nil
    }

    /// A chunk file's problem in a few words: "missing", "cut short (1200 frames left)".
    static func describe(_ problem: NarrationLibrary.FileProblem) -> String {
        switch problem {
        case .missing: "missing"
        case .truncated(let frames): "cut short (\(frames) frames left)"
        case .otherFormat(let format): "another recording (\(format))"
        case .unreadable(let why): "unreadable (\(why))"
        }
    }
}
