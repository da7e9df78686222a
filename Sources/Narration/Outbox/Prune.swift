public import Foundation
public import NarrationCore
import ObjectStorage

/// What pruning an article removed.
public struct PruneResult: Sendable, Equatable {
    public let article: ArticleID
    public let chunks: Int
    /// Bytes of chunk files and trashed takes removed.
    public let bytes: Int
    /// Where the delivered file was found and checked.
    public let deliveredTo: String
}

extension NarrationLibrary {
    /// Articles whose current export is delivered and whose recordings are still here.
    public func prunableArticles() throws(NarrationError) -> [Article] {
        let delivered = Set(try outboxJobs().filter { $0.state == .delivered }.map(\.articleID))
        return try catalog.articles().filter { delivered.contains($0.id) && $0.state == .delivered }
    }

    /// Removes an article's chunk files and trashed takes, only when its current export was
    /// delivered, is made from the chunks as they are now, and is found at a destination with
    /// the right size and SHA-256 now (a folder's file is read back; an object's size, ETag and
    /// SHA-256 metadata are checked). The article, its outbox file and its delivery record stay.
    /// - Parameter dryRun: check and measure what would go, remove nothing.
    /// - Throws: `usage` saying why the article may not be pruned; `fileCorrupt` or a storage
    ///   error when the delivered file cannot be confirmed; `articleBusy` while it records or is sent.
    public func prune(
        _ article: Article, dryRun: Bool = false, environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws(NarrationError) -> PruneResult {
        guard let job = try currentJob(of: article.id), job.state == .delivered else {
            let reason: String
            if let waiting = try currentJob(of: article.id) {
                reason = "its export is still in the outbox (\(waiting.attempts) attempt\(waiting.attempts == 1 ? "" : "s")\(waiting.lastError.map { ", last error: \($0)" } ?? ""))"
            } else if try outboxJobs().contains(where: { $0.articleID == article.id }) {
                reason = "it changed after its last export, which was withdrawn"
            } else {
                reason = "it has not been queued yet"
            }
            throw NarrationError(
                .usage,
                "Article \"\(article.title)\" (\(article.id)) has no confirmed delivery of its chunks as they are: \(reason). Prune removes recordings only after one.",
                subject: .article(article.id), remedy: .submitFirst)
        }
        let lock = try ArticleLock.acquire(for: article, at: root.lockURL(article.id), purpose: .prune)
        defer { withExtendedLifetime(lock) {} }
        let claim = try DeliveryClaim.acquire(article.id, root: root, title: article.title)
        defer { withExtendedLifetime(claim) {} }
        let fingerprint = try catalog.fingerprint(of: article.id)
        guard job.fingerprint == fingerprint else {
            throw .usage("\"\(article.title)\" changed after its delivered export, so that export holds other chunks. Submit the article again, then prune.")
        }
        let deliveries = try catalog.deliveries(of: article.id).filter { $0.jobId == job.id }
        var confirmed: (row: DeliveryRow, location: String)?
        var failures: [String] = []
        for delivery in deliveries {
            do throws(NarrationError) {
                confirmed = (delivery, try await verify(delivery, localFile: job.file, environment: environment))
                break
            } catch {
                failures.append(error.message)
            }
        }
        guard let confirmed else {
            throw NarrationError(
                .fileCorrupt,
                "The delivery of \"\(article.title)\" could not be confirmed, so no recording was removed: \(failures.first ?? "no destination is on record"). Submit the article again, then prune.")
        }
        let entries = try chunkEntries(of: article)
        let folders = [root.chunksURL(article.id), root.trashURL(article.id)]
        let bytes = folders.reduce(0) { $0 + Self.size(ofFolder: $1) }
        let result = PruneResult(article: article.id, chunks: entries.count, bytes: bytes, deliveredTo: confirmed.location)
        guard !dryRun else { return result }
        guard try catalog.forgetChunks(of: article.id, ifStill: fingerprint) else {
            throw .usage("\"\(article.title)\" changed while its delivery was being checked. Submit the article again, then prune.")
        }
        for folder in folders {
            do throws(NarrationError) {
                try FileSystem.removeTree(folder)
            } catch {
                throw NarrationError(.fileSystem, "The catalog no longer lists the chunks, but \(folder.path) could not be removed (\(error.message)); remove it by hand.")
            }
        }
        return result
    }

    /// Checks that the destination on record holds the delivered file (see `confirm`).
    /// - Returns: where it is.
    private func verify(_ delivery: DeliveryRow, localFile: URL, environment: [String: String]) async throws(NarrationError) -> String {
        guard let destination = Self.destination(of: delivery) else {
            throw NarrationError(.fileCorrupt, "the destination \(delivery.destination) on record cannot be read")
        }
        let store = try Self.store(for: destination, environment: environment, checkingFolder: false)
        return try await store.closing { () async throws(NarrationError) in try await Self.confirm(delivery, in: store, localFile: localFile) }
    }

    /// Checks that `store` holds the delivered file: its size and SHA-256 (a folder's file read
    /// back; an object's metadata), and, where the store has an ETag and the outbox file is still
    /// the one delivered, the ETag its upload had.
    /// - Returns: where it is. - Throws: `chunkFileMissing`; `fileCorrupt`; the store's errors.
    static func confirm(_ delivery: DeliveryRow, in store: some DeliveryStore, localFile: URL) async throws(NarrationError) -> String {
        guard let key = store.key(ofRecorded: delivery.audioLocation) else {
            throw NarrationError(.fileCorrupt, "the delivered file \(delivery.audioLocation) on record is not below \(store.name)")
        }
        guard let head = try await store.head(key) else {
            throw NarrationError(.chunkFileMissing, "\(store.naming(key)) is not there any more")
        }
        var matches = head.bytes == delivery.bytes && head.sha256 == delivery.sha256
        if matches, let etag = head.etag, FileSystem.exists(localFile), try Checksum.sha256(of: localFile) == delivery.sha256 {
            let plan = UploadPlan(bytes: delivery.bytes)
            let partMD5s = try Checksum.digests(of: localFile, plan: plan).partMD5s
            matches = etag == (plan.isMultipart ? Digest.multipartETag(partMD5s: partMD5s) : Digest.hex(partMD5s[0]))
        }
        guard matches else {
            throw NarrationError(.fileCorrupt, "\(store.naming(key)) holds other bytes than were delivered")
        }
        return store.location(of: key)
    }

    private static func destination(of delivery: DeliveryRow) -> Destination? {
        OutboxJob.destination(
            delivery.destination, endpoint: delivery.endpoint, region: delivery.region, pathStyle: delivery.pathStyle,
            credentialsFile: delivery.credentialsFile, credentialsProfile: delivery.credentialsProfile)
    }

    private static func size(ofFolder url: URL) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) else { return 0 }
        return names.reduce(0) { $0 + FileSystem.size(url.appendingPathComponent($1)) }
    }
}
