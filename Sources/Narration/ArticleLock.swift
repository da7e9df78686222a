import Foundation
import Glibc
import NarrationCore

/// An exclusive lock on an article while a take is recorded into it: `flock` on
/// `articles/<id>/recording.lock`. The kernel drops it when the holder dies, however it dies,
/// so a lock never outlives its recorder and a partial file whose lock is free is abandoned.
final class ArticleLock: Sendable {
    private let descriptor: CInt
    let url: URL

    /// Takes the lock, or returns nil when a live process holds it.
    /// - Throws: `fileSystem` when the lock file cannot be opened.
    static func tryAcquire(_ url: URL) throws(NarrationError) -> ArticleLock? {
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw NarrationError(.fileSystem, "Cannot open the lock file \(url.path): \(String(cString: strerror(errno))).")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return nil
        }
        let pid = "\(getpid())\n"
        ftruncate(descriptor, 0)
        _ = pid.withCString { pwrite(descriptor, $0, strlen($0), 0) }
        return ArticleLock(descriptor: descriptor, url: url)
    }

    /// Takes the lock for recording into `article`.
    /// - Throws: `articleBusy` naming the process that records into it.
    static func acquire(for article: Article, at url: URL) throws(NarrationError) -> ArticleLock {
        if let lock = try tryAcquire(url) { return lock }
        let holder = (try? String(contentsOf: url, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        let process = holder.map { $0.isEmpty ? "" : " (process \($0))" } ?? ""
        throw NarrationError(
            .articleBusy,
            "Article \"\(article.title)\" (\(article.id)) is being recorded by another narrate command\(process). Stop that recording first.")
    }

    private init(descriptor: CInt, url: URL) {
        self.descriptor = descriptor
        self.url = url
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
