public import Foundation
public import NarrationCore

extension NarrationLibrary {
    /// Delivers a job to a folder (a mounted share, say): the audio and its sidecar copied
    /// atomically to `<publication>/<date>/` beneath it, the copy's SHA-256 checked before it is
    /// renamed into place (an audio file already there with the same SHA-256 is not copied
    /// again), the delivery recorded. The article's earlier file there, if it had
    /// another name, is removed once the new one is in place, so the folder holds one file per
    /// article.
    ///
    /// Copies that attempts of retired jobs left there are removed before, by
    /// `deliver(_:to:retrying:)` (`removeStrayCopies(in:)`).
    ///
    /// The job is claimed first (a second delivery of the same article says it is busy and sends
    /// nothing), checked against the article as it is now (a stale job is withdrawn, never sent),
    /// and its attempt and destination are recorded before the first byte is copied. A failure
    /// leaves the job queued with its error and attempt count.
    /// - Throws: `articleBusy`; `exportWithdrawn`; `fileCorrupt` if the outbox file changed since
    ///   it was queued; `fileSystem`, `diskFull` for the destination.
    ///
    /// The files the job carries beside the audio (transcripts, chapters, books: the sidecar's
    /// `files`) are copied first, each checked against its SHA-256 the same way; when the job
    /// carries a feed item, the publication's feed is changed last, once the delivery is recorded
    /// (see `FeedPublisher`), with `feed`'s settings.
    @discardableResult
    public func deliver(_ job: OutboxJob, toFolder folder: URL, feed: FeedSettings = FeedSettings()) throws(NarrationError) -> OutboxJob {
        let title = (try? catalog.article(matching: job.articleID.rawValue).title) ?? job.file.lastPathComponent
        let claim = try DeliveryClaim.acquire(job.articleID, root: root, title: title)
        defer { withExtendedLifetime(claim) {} }
        var job = try currentForSending(job)
        let folder = folder.standardizedFileURL
        let target = folder.appendingPathComponent(job.deliveryPath).standardizedFileURL
        guard !job.deliveryPath.isEmpty, target.path.hasPrefix(folder.path + "/") else {
            preconditionFailure("a job's delivery path is checked to be relative when it is read")
        }
        let sidecarTarget = target.deletingPathExtension().appendingPathExtension("json")
        let stateBefore = job.state
        try beginAttempt(&job, to: .folder(folder.path), in: FolderDeliveryStore(root: folder), key: job.deliveryPath)  // before the first byte
        let sidecar: Sidecar
        var leftFeeds: Set<String> = []  // feeds that may still offer an earlier delivery of the article
        do throws(NarrationError) {
            guard try Checksum.sha256(of: job.file) == job.sha256 else { throw Self.changedSinceQueued(job.file) }
            try FileSystem.createFolders(target.deletingLastPathComponent(), below: folder)
            FileSystem.removeAbandonedPartials(in: target.deletingLastPathComponent())
            sidecar = try self.sidecar(of: job)
            // What an earlier delivery of the article at this very place carried, from its sidecar
            // before this one replaces it: what this one does not carry must not stay beside it.
            let earlier = Self.readSidecar(sidecarTarget)
            // Every file is copied beside its place first, and renamed into place only once all
            // are written: a full disk leaves none of them there (nor an earlier delivery's
            // files replaced). A delivery of the same export there already (submitted again, or an
            // attempt killed after its copy) is read back rather than copied again.
            var staged: [StagedCopy] = []
            for file in sidecar.files ?? [] {
                staged += try stageVerified(
                    job.file.deletingLastPathComponent().appendingPathComponent(file.name), sha256: file.sha256, bytes: file.bytes,
                    to: target.deletingLastPathComponent().appendingPathComponent(file.name))
            }
            staged += try stageVerified(job.file, sha256: job.sha256, bytes: job.bytes, to: target)
            staged.append(try StagedCopy(job.sidecarFile, to: sidecarTarget))
            for copy in staged { try copy.commit() }
            job.state = .delivered
            job.deliveredAt = Date()
            let delivery = DeliveryRow(
                articleId: job.articleID.rawValue, destination: folder.path, jobId: job.id, audioLocation: target.path,
                sidecarLocation: sidecarTarget.path, sha256: job.sha256, bytes: job.bytes, deliveredAt: job.deliveredAt ?? Date())
            switch try catalog.recordDelivery(job.row, delivery) {
            case .recorded(let replaced):
                let carried = Set((sidecar.files ?? []).map(\.name))
                for file in earlier?.files ?? [] where !carried.contains(file.name) {
                    try? FileSystem.remove(target.deletingLastPathComponent().appendingPathComponent(file.name))
                }
                if earlier?.carries?.contains(DeliveryItem.feed.rawValue) == true {
                    leftFeeds.insert(FeedSettings.feedPath(forDeliveryPath: job.deliveryPath))
                }
                if let replaced, replaced.audioLocation.hasPrefix(folder.path + "/") {
                    leftFeeds.insert(FeedSettings.feedPath(forDeliveryPath: String(replaced.audioLocation.dropFirst(folder.path.count + 1))))
                }
                if let replaced {
                    let old = URL(fileURLWithPath: replaced.audioLocation)
                    let replacedCarried = Self.removeCopy(
                        at: old, ifSHA256: replaced.sha256,
                        sidecar: replaced.sidecarLocation == delivery.sidecarLocation ? nil : URL(fileURLWithPath: replaced.sidecarLocation))
                    if replacedCarried, old.deletingPathExtension() != target.deletingPathExtension() {
                        let stem = old.deletingPathExtension().lastPathComponent
                        for name in DeliveryItem.fileNames(stem: stem) {
                            try? FileSystem.remove(old.deletingLastPathComponent().appendingPathComponent(name))
                        }
                    }
                }
            case .stale(let row):
                // The article changed while the file was copied: what was copied must not stay.
                if Self.removeCopy(at: target, ifSHA256: job.sha256, sidecar: sidecarTarget) {
                    try? catalog.endAttempt(job: job.id, destination: folder.path)
                }
                for file in sidecar.files ?? [] {
                    let copy = target.deletingLastPathComponent().appendingPathComponent(file.name)
                    if (try? Checksum.sha256(of: copy)) == file.sha256 { try? FileSystem.remove(copy) }
                }
                discardFiles(of: [row], claimHeld: true)
                throw Self.withdrawn(title: title, reason: OutboxJob.RetirementReason(rawValue: row.retiredReason ?? "") ?? .edited)
            }
        } catch {
            restore(&job, to: stateBefore, after: error)
            throw error
        }
        // Delivered and recorded: the feed links to it now, and a feed that offered an earlier
        // delivery this one replaced (in another publication, or now carried by no feed item)
        // offers it no more.
        let feedPath = FeedSettings.feedPath(forDeliveryPath: job.deliveryPath)
        let carriesFeed = sidecar.carries?.contains(DeliveryItem.feed.rawValue) == true
        do throws(NarrationError) {
            if carriesFeed {
                _ = try FeedPublisher.change(
                    inFolder: folder, feedPath: feedPath,
                    channel: feed.channel(publication: sidecar.publication, feedPath: feedPath, defaultLanguage: "en"),
                    .publish(PodcastFeed.Item(sidecar: sidecar, deliveryPath: job.deliveryPath, feedPath: feedPath, settings: feed, published: Date())))
            }
            for left in leftFeeds.sorted() where !(carriesFeed && left == feedPath) {
                _ = try FeedPublisher.change(inFolder: folder, feedPath: left, channel: nil, .remove(guid: job.articleID.rawValue))
            }
        } catch {
            throw feedNotUpdated(&job, at: folder.path, error)
        }
        return job
    }

    /// The sidecar at `url`, if there is one narrate can read (a symbolic link there is not
    /// followed: it is someone else's, not a sidecar narrate wrote).
    static func readSidecar(_ url: URL) -> Sidecar? {
        guard let bytes = try? FileSystem.ownContents(of: url) else { return nil }
        return decodedSidecar(Data(bytes))
    }

    /// Copies `source` beside `target`, its copy checked against `sha256`, to be renamed into
    /// place with the delivery's other files; none when a regular file already there has that
    /// size and SHA-256 (a symbolic link there is never read: it is replaced).
    /// - Throws: `fileCorrupt` when the copy does not match; `fileSystem`, `diskFull`, `foreignFile`.
    private func stageVerified(_ source: URL, sha256: String, bytes: Int, to target: URL) throws(NarrationError) -> [StagedCopy] {
        if FileSystem.foreignFile(at: target) == nil, FileSystem.size(target) == bytes, (try? Checksum.sha256(of: target)) == sha256 { return [] }
        let copy = try StagedCopy(source, to: target) { (copy) throws(NarrationError) in
            guard try Checksum.sha256(of: copy) == sha256 else {
                throw NarrationError(.fileCorrupt, "The copy at \(target.path) did not match the outbox file, so it was not put in place. Try again.")
            }
        }
        return [copy]
    }

    /// Whether `location` is the article's current audio file (or, with `sidecar`, its current
    /// sidecar) at `destination`: then it is not a stray copy.
    func isDeliveredFile(_ location: String, at destination: String, article: String, sidecar: Bool = false) throws(NarrationError) -> Bool {
        try catalog.deliveries(of: ArticleID(article)).contains {
            $0.destination == destination && (sidecar ? $0.sidecarLocation : $0.audioLocation) == location
        }
    }

    /// Removes an audio file from a folder destination if it is still the file with that SHA-256
    /// (never another delivery's file that took its place), and then `sidecar`, if given, when no
    /// audio is left at that name. A sidecar that a newer delivery wrote at the same name is not given.
    /// - Returns: whether no copy with that SHA-256 is left there.
    @discardableResult
    static func removeCopy(at audio: URL, ifSHA256 sha256: String, sidecar: URL?) -> Bool {
        if FileSystem.exists(audio) {
            guard (try? Checksum.sha256(of: audio)) == sha256 else { return true }
            guard (try? FileSystem.remove(audio)) != nil else { return false }
        }
        if let sidecar { try? FileSystem.remove(sidecar) }
        FileSystem.syncDirectory(audio.deletingLastPathComponent())
        return true
    }

    static func changedSinceQueued(_ file: URL) -> NarrationError {
        NarrationError(
            .fileCorrupt,
            "\(file.path) changed since it was queued (its SHA-256 no longer matches), so it was not delivered. Queue the article again.")
    }
}
