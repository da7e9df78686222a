public import Foundation
public import NarrationCore

extension NarrationLibrary {
    /// Delivers a job to a folder (a mounted share, say): its files copied to
    /// `<publication>/<date>/` beneath it, each copy's SHA-256 checked beside its place and all
    /// of them renamed into place only once every one was written (a full disk leaves none
    /// there), the delivery recorded, the article's earlier file there removed, and the feed
    /// changed: `deliver(_:to:in:feed:progress:)` with the folder's store.
    /// - Throws: `articleBusy`; `exportWithdrawn`; `fileCorrupt` if the outbox file changed since
    ///   it was queued; `fileSystem`, `diskFull`, `foreignFile` for the destination.
    @discardableResult
    public func deliver(_ job: OutboxJob, toFolder folder: URL, feed: FeedSettings = FeedSettings()) async throws(NarrationError) -> OutboxJob {
        let store = FolderDeliveryStore(root: folder)
        return try await deliver(job, to: .folder(store.root.path), in: store, feed: feed).job
    }

    /// Whether `location` is the article's current audio file (or, with `sidecar`, its current
    /// sidecar) at `destination`: then it is not a stray copy.
    func isDeliveredFile(_ location: String, at destination: String, article: String, sidecar: Bool = false) throws(NarrationError) -> Bool {
        try catalog.deliveries(of: ArticleID(article)).contains {
            $0.destination == destination && (sidecar ? $0.sidecarLocation : $0.audioLocation) == location
        }
    }

    static func changedSinceQueued(_ file: URL) -> NarrationError {
        NarrationError(
            .fileCorrupt,
            "\(file.path) changed since it was queued (its SHA-256 no longer matches), so it was not delivered. Queue the article again.")
    }

    static func changedWhileSending(_ file: URL) -> NarrationError {
        NarrationError(.fileCorrupt, "\(file.path) changed while it was being sent, so the delivery stopped. Queue the article again.")
    }

    /// The sidecar's key beside the audio's: the extension replaced by `json`.
    static func sidecarKey(for key: String) -> String {
        String(key.dropLast(URL(fileURLWithPath: key).pathExtension.count)) + "json"
    }
}
