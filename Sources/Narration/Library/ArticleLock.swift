import Foundation
import NarrationCore

/// An exclusive lock on an article while a command changes it or reads all of its chunks:
/// `flock` on `articles/<id>/recording.lock`. The kernel drops it when the holder dies, however
/// it dies, so a lock never outlives its holder and a partial file whose lock is free is abandoned.
///
/// The holder writes its process id and what it is doing into the file, so that a second command
/// can say what keeps the article busy.
final class ArticleLock: Sendable {
    /// What the holder is doing with the article, for the busy message.
    enum Purpose: String, Sendable {
        case recording, export, queue, edit, prune, recovery, delivery

        /// How the busy message names it: "…is busy: another narrate command (process 12) is recording into it."
        var phrase: String {
            switch self {
            case .recording: "is recording into it"
            case .export: "is exporting it"
            case .queue: "is queuing it (exporting it into the outbox)"
            case .edit: "is changing its chunks"
            case .prune: "is removing its recordings"
            case .recovery: "is recovering an interrupted take of it"
            case .delivery: "is sending it"
            }
        }
    }

    /// The open lock file holding the `flock`; nil on a read-only file system with none.
    private let file: OpenFile?
    let url: URL

    /// Takes the lock, or returns nil when a live process holds it.
    ///
    /// On a data root that cannot be written (read-only commands on a disk remounted read-only,
    /// or a lock file of another user) the lock file cannot be opened for writing: an existing
    /// one is opened for reading, which `flock` locks just the same, without the holder's line;
    /// with none on a read-only file system there is nothing to lock against (nothing can record
    /// there), and the lock holds no file.
    /// - Throws: `fileSystem` when the lock file cannot be opened.
    static func tryAcquire(_ url: URL, purpose: Purpose) throws(NarrationError) -> ArticleLock? {
        func unopenable(_ error: SystemError) -> NarrationError {
            if error.isForeignFile, let refusal = FileSystem.foreignFile(at: url) { return refusal }
            return NarrationError(.fileSystem, "Cannot open the lock file \(url.path): \(error.reason).", subject: .file(url.path), cause: error.cause)
        }
        let folder = url.deletingLastPathComponent()
        if !FileSystem.exists(folder) {
            // The article's folder is not on this host yet: an article made, or recorded into,
            // through another host of a reading service sharing the catalog. (On a disk that
            // cannot be written it stays missing, and the open below says why.)
            try? FileSystem.createDirectory(folder)
        }
        let file: OpenFile
        var writable = true
        do throws(SystemError) {
            file = try OpenFile(url.path, .readWriteCreating(permissions: 0o644))
        } catch where error.isReadOnlyFileSystem || error.isPermissionDenied {
            let refusal = error
            writable = false
            do throws(SystemError) {
                file = try OpenFile(url.path, .read)
            } catch where error.isMissing && refusal.isReadOnlyFileSystem {
                return ArticleLock(file: nil, url: url)
            } catch {
                throw unopenable(error)
            }
        } catch {
            throw unopenable(error)
        }
        guard file.tryLock() else { return nil }
        if writable {
            // The line first, then the end cut after it: a command refused meanwhile reads this
            // holder's words (or the last holder's), never an empty file.
            let line = Array("\(FileSystem.processID) \(purpose.rawValue)\n".utf8)
            try? file.write(line, at: 0)
            try? file.truncate(to: line.count)
        }
        return ArticleLock(file: file, url: url)
    }

    /// Takes the lock on `article` for `purpose`.
    /// - Throws: `articleBusy` naming the process that holds it and what it is doing.
    static func acquire(for article: Article, at url: URL, purpose: Purpose) throws(NarrationError) -> ArticleLock {
        if let lock = try tryAcquire(url, purpose: purpose) { return lock }
        throw busy(article, holder: try? String(contentsOf: url, encoding: .utf8))
    }

    /// "Article … is busy: another narrate command (process N) is exporting it. …", from the lock
    /// file's text ("PID PURPOSE"); an older narrate wrote the process id alone, meaning a
    /// recording. A file with no words yet (its holder had just created it) says only that
    /// another command is using the article, not what it does.
    static func busy(_ article: Article, holder text: String?) -> NarrationError {
        let words = (text ?? "").split(whereSeparator: \.isWhitespace)
        let processID = words.first.flatMap { Int32($0) }
        let process = processID.map { " (process \($0))" } ?? ""
        let purpose = words.dropFirst().first.flatMap { Purpose(rawValue: String($0)) } ?? (processID != nil && words.count == 1 ? .recording : nil)
        let remedy = purpose == .recording ? "Stop that recording first." : "Wait for it to finish, then try again."
        return NarrationError(
            .articleBusy,
            "Article \"\(article.title)\" (\(article.id)) is busy: another narrate command\(process) \(purpose?.phrase ?? "is using it"). \(remedy)")
    }

    private init(file: OpenFile?, url: URL) {
        self.file = file
        self.url = url
    }

    deinit { file?.unlock() }
}
