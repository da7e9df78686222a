import Foundation
public import NarrationCore

/// What pruning an article removed.
public struct PruneResult: Sendable, Equatable {
    public let article: ArticleID
    public let chunks: Int
    /// Bytes of chunk files and trashed takes removed.
    public let bytes: Int
    /// Where the delivered file went.
    public let deliveredTo: String
}

extension NarrationLibrary {
    /// Articles whose export has a confirmed delivery and whose recordings are still here.
    public func prunableArticles() throws(NarrationError) -> [Article] {
        let delivered = Set(try outboxJobs().filter { $0.state == .delivered }.map(\.articleID))
        return try catalog.articles().filter { delivered.contains($0.id) && $0.state == .submitted }
    }

    /// Removes an article's chunk files and trashed takes, only once its export has been
    /// delivered and confirmed, and only if nothing was recorded after that export. The article,
    /// its outbox file and its delivery record stay.
    /// - Parameter dryRun: measure what would go, remove nothing.
    /// - Throws: `usage` saying why the article may not be pruned; `articleBusy` while it records.
    public func prune(_ article: Article, dryRun: Bool = false) throws(NarrationError) -> PruneResult {
        let jobs = try outboxJobs().filter { $0.articleID == article.id }
        guard let delivered = jobs.last(where: { $0.state == .delivered }), let deliveredAt = delivered.deliveredAt else {
            let reason =
                if let waiting = jobs.last {
                    "its export is still in the outbox (\(waiting.attempts) attempt\(waiting.attempts == 1 ? "" : "s")\(waiting.lastError.map { ", last error: \($0)" } ?? ""))"
                } else { "it has not been queued yet" }
            throw .usage(
                "Article \"\(article.title)\" (\(article.id)) has no confirmed delivery: \(reason). Prune removes recordings only after one; run \"narrate submit\" first.")
        }
        let lock = try ArticleLock.acquire(for: article, at: root.lockURL(article.id), purpose: .prune)
        defer { withExtendedLifetime(lock) {} }
        let entries = try chunkEntries(of: article)
        if let later = entries.first(where: { $0.chunk.recordedAt > delivered.queuedAt }) {
            throw .usage(
                "Chunk \(later.index.number) of \"\(article.title)\" was recorded after the delivered export, so it is in no delivered file. Submit the article again, then prune.")
        }
        let folders = [root.chunksURL(article.id), root.trashURL(article.id)]
        let bytes = folders.reduce(0) { $0 + Self.size(ofFolder: $1) }
        let result = PruneResult(
            article: article.id, chunks: entries.count, bytes: bytes,
            deliveredTo: delivered.remotePath ?? delivered.destination ?? "\(deliveredAt)")
        guard !dryRun else { return result }
        try catalog.forgetChunks(of: article.id)
        for folder in folders {
            do {
                if FileSystem.exists(folder) { try FileManager.default.removeItem(at: folder) }
            } catch {
                throw NarrationError(.fileSystem, "The catalog no longer lists the chunks, but \(folder.path) could not be removed (\(error)); remove it by hand.")
            }
        }
        return result
    }

    private static func size(ofFolder url: URL) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) else { return 0 }
        return names.reduce(0) { $0 + FileSystem.size(url.appendingPathComponent($1)) }
    }
}
