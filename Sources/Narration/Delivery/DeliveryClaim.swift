import Foundation
import NarrationCore

/// The claim on an article's deliveries: one process at a time sends, checks or prunes an
/// article's export, so that two `outbox push` never send the same file twice and a prune never
/// runs beside a delivery. An `flock` on `articles/<id>/delivery.lock` (see `ArticleLock`), which
/// the kernel drops when the holder dies.
enum DeliveryClaim {
    /// Claims the article's deliveries.
    /// - Throws: `articleBusy` naming the process that is sending it; nothing was sent.
    static func acquire(_ article: ArticleID, root: DataRoot, title: String) throws(NarrationError) -> ArticleLock {
        let url = root.deliveryLockURL(article)
        try FileSystem.createDirectory(url.deletingLastPathComponent())
        if let lock = try ArticleLock.tryAcquire(url, purpose: .delivery) { return lock }
        let holder = (try? String(contentsOf: url, encoding: .utf8))?.split(whereSeparator: \.isWhitespace).first.map { " (process \($0))" } ?? ""
        throw NarrationError(
            .articleBusy,
            "\"\(title)\" is being sent by another narrate command\(holder); nothing was sent twice.",
            subject: .article(article), remedy: .waitThenShowOutbox)
    }

    /// The claim if nobody holds it, else nil.
    static func tryAcquire(_ article: ArticleID, root: DataRoot) -> ArticleLock? {
        let url = root.deliveryLockURL(article)
        guard FileSystem.exists(url.deletingLastPathComponent()) else { return nil }
        return try? ArticleLock.tryAcquire(url, purpose: .delivery)
    }
}

extension DataRoot {
    /// `articles/<id>/delivery.lock`: held while the article's export is sent or checked.
    func deliveryLockURL(_ id: ArticleID) -> URL { articleURL(id).appendingPathComponent("delivery.lock") }
}
