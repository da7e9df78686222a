import Foundation
import NarrationCore

/// What one delivery did, beyond the job it updated.
public struct DeliveryOutcome: Sendable {
    public let job: OutboxJob
    /// The audio's place as the catalog records it: a folder's file path, or the object's full
    /// key in the bucket; its sidecar is beside it.
    public let key: String
    /// Bytes sent this time to object storage (audio and sidecar); less than the file when parts
    /// were already there; 0 for a folder and memory, which count nothing.
    public let bytesSent: Int
    /// Parts of a multipart upload that an earlier, interrupted attempt had already sent.
    public let partsReused: Int
    /// The store already held this exact audio (an earlier attempt finished but was not
    /// recorded, or an earlier delivery of the same bytes is there), so it was not written again.
    public let alreadyStored: Bool
}

extension NarrationLibrary {
    /// Delivers a job to `store`, for a folder, object storage and memory alike: the audio at
    /// the job's `<publication>/<date>/<title>-<id>.<ext>`, the files it carries beside it
    /// (transcripts, chapters, books: the sidecar's `files`) and its JSON sidecar, then the
    /// publication's feed when the job carries a feed item.
    ///
    /// - The job is claimed first (a second delivery of the same article says it is busy and
    ///   sends nothing) and checked against the article as it is now: a stale job is withdrawn,
    ///   never sent. Its attempt and place are recorded before the first byte, so that a copy a
    ///   killed attempt leaves is found and removed later (`removeStrayCopies(in:)`, which runs
    ///   first).
    /// - Every file is staged verified (`DeliveryStore.stage`: a folder's copy beside its place,
    ///   checked by SHA-256; object storage's object, checked by HEAD, a large one sent in parts
    ///   whose upload id is saved with the job so that the next attempt resumes it), and only
    ///   then are all committed: a full disk or a failure while staging puts none of them in a
    ///   folder's place. A retry, or the same export on record there, keeps what is already
    ///   there with the same bytes rather than sending it again.
    /// - Once committed, the delivery is recorded; the article's earlier file there (under
    ///   another name), the files an earlier delivery at this place carried that this one does
    ///   not, and a replaced delivery's files beside it are removed, so the destination holds one
    ///   delivery per article. If the article changed meanwhile, what was written is removed and
    ///   the job withdrawn.
    /// - Last, the publication's feed gets the item (with `feed`'s settings), and feeds that
    ///   offered a delivery this one replaced offer it no more (`FeedPublisher`).
    ///
    /// A failure before the delivery is recorded leaves the job as it was (queued, or delivered
    /// elsewhere) with its attempt counted and its error; one while the feed changes leaves it
    /// delivered with the error (`feedNotUpdated`).
    /// - Parameters:
    ///   - destination: the configured destination `store` is, kept with the job.
    ///   - progress: bytes sent and bytes to send (object storage only), from the HTTP client's threads.
    /// - Throws: `articleBusy`; `exportWithdrawn`; `fileCorrupt` if the outbox file changed since
    ///   it was queued; the store's errors (`fileSystem`, `diskFull`, `foreignFile`; `storageUnreachable`,
    ///   `storageUnavailable`, `storageRefused`).
    func deliver<Store: DeliveryStore>(
        _ job: OutboxJob, to destination: Destination, in store: Store, feed: FeedSettings = FeedSettings(),
        progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }
    ) async throws(NarrationError) -> DeliveryOutcome {
        let title = (try? catalog.article(matching: job.articleID.rawValue).title) ?? job.file.lastPathComponent
        let claim = try DeliveryClaim.acquire(job.articleID, root: root, title: title)
        defer { withExtendedLifetime(claim) {} }
        var job = try currentForSending(job)
        let key = job.deliveryPath
        let sidecarKey = Self.sidecarKey(for: key)
        let (audioLocation, sidecarLocation) = (store.recordedLocation(of: key), store.recordedLocation(of: sidecarKey))
        let onRecord = try catalog.deliveries(of: job.articleID).filter { $0.destination == store.name }
        // Look before writing when an earlier attempt may have left the files, or when this very
        // file is on record there (submitted again).
        let mayBeThere = job.attempts > 0 || onRecord.contains { $0.audioLocation == audioLocation && $0.sha256 == job.sha256 }
        let stateBefore = job.state
        try beginAttempt(&job, to: destination, in: store, key: key)  // before the first byte
        let recorded = job
        let transfer = DeliveryTransfer(total: job.bytes + FileSystem.size(job.sidecarFile), upload: job.upload, progress: progress) {
            (upload) throws(NarrationError) in
            var saved = recorded
            saved.upload = upload
            try self.catalog.updateOutbox(saved.row)
        }
        let sidecar: Sidecar
        let alreadyStored: Bool
        var leftFeeds: Set<String> = []  // feeds that may still offer an earlier delivery of the article
        do throws(NarrationError) {
            // A copy that cannot be removed now stays on record, for the next delivery to try again.
            try? await removeStrayCopies(in: store)
            sidecar = try self.sidecar(of: job)
            guard try Checksum.sha256(of: job.file) == job.sha256 else { throw Self.changedSinceQueued(job.file) }
            let files = sidecar.files ?? []
            let folderKey = key.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            func fileKey(_ name: String) -> String { folderKey.isEmpty ? name : folderKey + "/" + name }
            var staged: [Store.Staged] = []
            // The files beside the audio are not counted in the progress, which is the audio's and its sidecar's.
            let besideAudio = DeliveryTransfer(total: 0)
            for file in files {
                let copy = try await store.stage(
                    DeliveryFile(
                        source: job.file.deletingLastPathComponent().appendingPathComponent(file.name), key: fileKey(file.name),
                        sha256: file.sha256, bytes: file.bytes, contentType: file.type,
                        metadata: ["sha256": file.sha256, "article-id": job.articleID.rawValue], reusesStoredCopy: mayBeThere),
                    transfer: besideAudio)
                staged += copy.map { [$0] } ?? []
            }
            let audio = try await store.stage(
                DeliveryFile(
                    source: job.file, key: key, sha256: job.sha256, bytes: job.bytes,
                    contentType: ExportFormat(rawValue: job.file.pathExtension.lowercased())?.mimeType ?? "application/octet-stream",
                    metadata: ["sha256": job.sha256, "article-id": job.articleID.rawValue], reusesStoredCopy: mayBeThere),
                transfer: transfer)
            alreadyStored = audio == nil
            staged += audio.map { [$0] } ?? []
            // What an earlier delivery of the article at this very place carried, from its sidecar
            // before this one replaces it: what this one does not carry must not stay beside it.
            let earlier = onRecord.contains { $0.sidecarLocation == sidecarLocation }
                ? ((try? await store.read(sidecarKey)) ?? nil).flatMap(Self.decodedSidecar) : nil
            let sidecarCopy = try await store.stage(
                DeliveryFile(
                    source: job.sidecarFile, key: sidecarKey, sha256: try Checksum.sha256(of: job.sidecarFile),
                    bytes: FileSystem.size(job.sidecarFile), contentType: "application/json"),
                transfer: transfer)
            staged += sidecarCopy.map { [$0] } ?? []
            try await store.commit(staged)
            job.upload = nil
            job.state = .delivered
            job.deliveredAt = Date()
            job.lastError = nil
            let storage = destination.objectStorage
            let delivery = DeliveryRow(
                articleId: job.articleID.rawValue, destination: store.name, jobId: job.id, audioLocation: audioLocation,
                sidecarLocation: sidecarLocation, sha256: job.sha256, bytes: job.bytes, deliveredAt: job.deliveredAt ?? Date(),
                endpoint: storage?.endpoint, region: storage?.region, pathStyle: storage?.pathStyle, credentialsFile: storage?.credentialsFile,
                credentialsProfile: storage?.credentialsProfile)
            switch try catalog.recordDelivery(job.row, delivery) {
            case .recorded(let replaced):
                let carried = Set(files.map(\.name))
                for file in earlier?.files ?? [] where !carried.contains(file.name) {
                    try? await store.delete(fileKey(file.name))
                }
                if earlier?.carries?.contains(DeliveryItem.feed.rawValue) == true {
                    leftFeeds.insert(FeedSettings.feedPath(forDeliveryPath: key))
                }
                if let replaced, let replacedKey = store.key(ofRecorded: replaced.audioLocation) {
                    leftFeeds.insert(FeedSettings.feedPath(forDeliveryPath: replacedKey))
                    try? await removeReplaced(replacedKey, replaced, keeping: key, sidecar: sidecarLocation, in: store)
                }
            case .stale(let row):
                // The article changed while the files were sent: what was sent must not stay.
                do throws(NarrationError) {
                    try await Self.removeCopy(key, ifSHA256: job.sha256, sidecar: sidecarKey, in: store)
                    try? catalog.endAttempt(job: job.id, destination: store.name)
                } catch {}  // the attempt stays on record: the next delivery removes the copy
                for file in files {
                    try? await Self.removeCopy(fileKey(file.name), ifSHA256: file.sha256, sidecar: nil, in: store)
                }
                discardFiles(of: [row], claimHeld: true)
                throw Self.withdrawn(title: title, reason: OutboxJob.RetirementReason(rawValue: row.retiredReason ?? "") ?? .edited)
            }
        } catch {
            job.upload = transfer.upload
            restore(&job, to: stateBefore, after: error)
            throw error
        }
        // Delivered and recorded: the feed links to it now, and a feed that offered an earlier
        // delivery this one replaced (in another publication, or now carried by no feed item)
        // offers it no more.
        let feedPath = FeedSettings.feedPath(forDeliveryPath: key)
        let carriesFeed = sidecar.carries?.contains(DeliveryItem.feed.rawValue) == true
        do throws(NarrationError) {
            if carriesFeed {
                _ = try await FeedPublisher.change(
                    in: store, feedPath: feedPath, channel: feed.channel(publication: sidecar.publication, feedPath: feedPath, defaultLanguage: "en"),
                    .publish(PodcastFeed.Item(sidecar: sidecar, deliveryPath: key, feedPath: feedPath, settings: feed, published: Date())))
            }
            for left in leftFeeds.sorted() where !(carriesFeed && left == feedPath) {
                _ = try await FeedPublisher.change(in: store, feedPath: left, channel: nil, .remove(guid: job.articleID.rawValue))
            }
        } catch {
            throw feedNotUpdated(&job, at: store.name, error)
        }
        return DeliveryOutcome(
            job: job, key: audioLocation, bytesSent: transfer.bytesSent, partsReused: transfer.partsReused, alreadyStored: alreadyStored)
    }

    /// Removes the article's earlier delivery at `replacedKey` that a new one at `key` replaced:
    /// its audio if still the one on record (with its sidecar, unless the new one's took its
    /// place), and, when it had another name, the files that went beside it.
    private func removeReplaced(
        _ replacedKey: String, _ replaced: DeliveryRow, keeping key: String, sidecar: String, in store: some DeliveryStore
    ) async throws(NarrationError) {
        let replacedSidecar = replaced.sidecarLocation == sidecar ? nil : store.key(ofRecorded: replaced.sidecarLocation)
        try await Self.removeCopy(replacedKey, ifSHA256: replaced.sha256, sidecar: replacedSidecar, in: store)
        // Keys are not paths on this machine: the extension is cut off as text.
        func stem(_ key: String) -> String { String(key.dropLast(URL(fileURLWithPath: key).pathExtension.count + 1)) }
        let oldStem = stem(replacedKey)
        guard oldStem != stem(key) else { return }
        let folder = oldStem.lastIndex(of: "/").map { String(oldStem[...$0]) } ?? ""
        for name in DeliveryItem.fileNames(stem: String(oldStem.dropFirst(folder.count))) {
            try? await store.delete(folder + name)
        }
    }
}
