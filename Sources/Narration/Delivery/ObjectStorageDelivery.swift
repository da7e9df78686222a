public import Foundation
public import NarrationCore
public import ObjectStorage
import Synchronization

/// What one delivery to object storage did, beyond the job it updated.
public struct ObjectStorageDelivery: Sendable {
    public let job: OutboxJob
    /// The object's key, and its sidecar's beside it.
    public let key: String
    /// Bytes sent this time (audio and sidecar); less than the file when parts were already there.
    public let bytesSent: Int
    /// Parts of a multipart upload that an earlier, interrupted attempt had already sent.
    public let partsReused: Int
    /// The storage already held this exact file (an earlier attempt finished but was not recorded).
    public let alreadyStored: Bool
    /// Feeds (their paths below the destination) that may still offer an earlier delivery of the
    /// article that this one replaced.
    var leftFeeds: Set<String> = []
}

extension NarrationLibrary {
    /// Delivers a job to object storage: the audio object at
    /// `PREFIX/<publication>/<date>/<title>-<id>.<ext>` (one PUT, or a multipart upload of 8 MiB
    /// parts that resumes where an interrupted attempt stopped), checked by HEAD (size, ETag and
    /// our SHA-256 in its metadata), then the JSON sidecar beside it, checked the same way.
    /// Keys come from the job's catalog row, so a retry overwrites and never duplicates; the
    /// article's earlier object under another key is deleted once the new one is verified, so
    /// the bucket holds one object (and sidecar) per article.
    ///
    /// The job is claimed first and checked against the article as it is now (see the folder
    /// delivery). The attempt and its key are recorded before anything is sent, and the upload id
    /// as soon as it exists, so a crash or a dropped connection loses no more than the part in
    /// flight. A failure leaves the job queued with its error.
    /// - Parameters:
    ///   - progress: bytes sent and bytes to send, from the HTTP client's threads.
    ///   - now: the clock requests are signed with.
    /// - Throws: `fileCorrupt` if the outbox file changed since it was queued; `credentials`;
    ///   `storageUnreachable`/`storageUnavailable` (may pass), `storageRefused` (will not).
    ///
    /// The files the job carries beside the audio (the sidecar's `files`) are stored first, each
    /// checked by HEAD the same way; when the job carries a feed item, the publication's feed is
    /// changed last, once the delivery is recorded (see `FeedPublisher`), with `feed`'s settings.
    public func deliver(
        _ job: OutboxJob, to storage: S3Destination, credentials: S3Credentials, feed: FeedSettings = FeedSettings(),
        progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }, now: @escaping @Sendable () -> Date = { Date() }
    ) async throws(NarrationError) -> ObjectStorageDelivery {
        let title = (try? catalog.article(matching: job.articleID.rawValue).title) ?? job.file.lastPathComponent
        let claim = try DeliveryClaim.acquire(job.articleID, root: root, title: title)
        defer { withExtendedLifetime(claim) {} }
        var job = try currentForSending(job)
        let key = storage.key(for: job.deliveryPath)
        // Look before sending when an earlier attempt may have stored it, or when this very file
        // is on record as the article's object there (submitted again to the same bucket).
        let sha256 = job.sha256
        let onRecord = try catalog.deliveries(of: job.articleID).contains {
            $0.destination == storage.description && $0.audioLocation == key && $0.sha256 == sha256
        }
        let isRetry = job.attempts > 0 || onRecord
        let stateBefore = job.state
        let client = StorageConnection(destination: storage, credentials: credentials, now: now)
        do throws(NarrationError) {
            try beginAttempt(&job, to: .s3(storage), in: ObjectStorageDeliveryStore(client), key: job.deliveryPath)  // before the first byte
        } catch {
            await client.shutdown()
            throw error
        }
        let delivery: ObjectStorageDelivery
        let sidecar: Sidecar
        do throws(NarrationError) {
            sidecar = try self.sidecar(of: job)
            try await removeStrayCopies(in: ObjectStorageDeliveryStore(client))
            delivery = try await upload(&job, key: key, sidecar: sidecar, title: title, with: client, isRetry: isRetry, progress: progress)
        } catch {
            await client.shutdown()
            restore(&job, to: stateBefore, after: error)
            throw error
        }
        // Delivered and recorded: the feed links to it now, and a feed that offered an earlier
        // delivery this one replaced (in another publication, or now carried by no feed item)
        // offers it no more.
        let feedPath = FeedSettings.feedPath(forDeliveryPath: job.deliveryPath)
        let carriesFeed = sidecar.carries?.contains(DeliveryItem.feed.rawValue) == true
        if carriesFeed || !delivery.leftFeeds.isEmpty {
            do throws(NarrationError) {
                if carriesFeed {
                    _ = try await FeedPublisher.change(
                        in: ObjectStorageDeliveryStore(client), feedPath: feedPath,
                        channel: feed.channel(publication: sidecar.publication, feedPath: feedPath, defaultLanguage: "en"),
                        .publish(PodcastFeed.Item(sidecar: sidecar, deliveryPath: job.deliveryPath, feedPath: feedPath, settings: feed, published: Date())))
                }
                for left in delivery.leftFeeds.sorted() where !(carriesFeed && left == feedPath) {
                    _ = try await FeedPublisher.change(in: ObjectStorageDeliveryStore(client), feedPath: left, channel: nil, .remove(guid: job.articleID.rawValue))
                }
            } catch {
                await client.shutdown()
                var delivered = delivery.job
                throw feedNotUpdated(&delivered, at: storage.description, error)
            }
        }
        await client.shutdown()
        return delivery
    }

    /// Deletes an object (its full key in the bucket) if it is still the one with that SHA-256
    /// (never another delivery's object that took its key), and then its sidecar, when asked, if
    /// no object is left at that key (`removeCopy(_:ifSHA256:sidecar:in:)`).
    static func deleteObject(
        _ key: String, ifSHA256 sha256: String, deletingSidecar: Bool, with client: StorageConnection
    ) async throws(NarrationError) {
        try await removeCopy(key, ifSHA256: sha256, sidecar: deletingSidecar ? sidecarKey(for: key) : nil, in: ObjectStorageDeliveryStore(client, prefix: ""))
    }

    static func sidecarKey(for key: String) -> String {
        String(key.dropLast(URL(fileURLWithPath: key).pathExtension.count)) + "json"
    }

    private func upload(
        _ job: inout OutboxJob, key: String, sidecar: Sidecar, title: String, with client: StorageConnection, isRetry: Bool,
        progress: @escaping @Sendable (Int, Int) -> Void
    ) async throws(NarrationError) -> ObjectStorageDelivery {
        let storage = client.destination
        let folderKey = key.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        for file in sidecar.files ?? [] {
            try await storeVerified(
                file, from: job.file.deletingLastPathComponent().appendingPathComponent(file.name), key: folderKey + "/" + file.name,
                articleID: job.articleID, with: client, isRetry: isRetry)
        }
        let plan = UploadPlan(bytes: FileSystem.size(job.file))
        let (sha256, partMD5s) = try Checksum.digests(of: job.file, plan: plan)
        guard sha256 == job.sha256, plan.bytes == job.bytes else { throw Self.changedSinceQueued(job.file) }
        let sidecarData = try Checksum.read(0..<FileSystem.size(job.sidecarFile), of: job.sidecarFile)
        let sidecarKey = Self.sidecarKey(for: key)
        let expectedETag = plan.isMultipart ? Digest.multipartETag(partMD5s: partMD5s) : Digest.hex(partMD5s[0])
        let metadata = ["sha256": job.sha256, "article-id": job.articleID.rawValue]
        let contentType = ExportFormat(rawValue: job.file.pathExtension.lowercased())?.mimeType ?? "application/octet-stream"
        let sent = ByteCounter(total: plan.bytes + sidecarData.count, report: progress)

        func holdsThisFile(_ head: S3ObjectHead?) -> Bool {
            guard let head else { return false }
            return head.bytes == plan.bytes && head.metadata["sha256"] == job.sha256 && head.etag == expectedETag
        }
        var partsReused = 0
        // An earlier attempt may have stored the file and then failed to record it, or an earlier
        // delivery of the same bytes is there.
        let alreadyStored = isRetry ? holdsThisFile(try await client.headObject(key: key)) : false
        if alreadyStored {
            sent.skip(plan.bytes)
        } else if plan.isMultipart {
            partsReused = try await sendParts(
                of: &job, plan: plan, partMD5s: partMD5s, key: key, contentType: contentType, metadata: metadata, client: client, sent: sent)
        } else {
            let body = try Checksum.read(0..<plan.bytes, of: job.file)
            guard Digest.sha256Hex(body) == job.sha256 else { throw Self.changedWhileSending(job.file) }
            _ = try await client.putObject(key: key, body: body, contentType: contentType, metadata: metadata, progress: sent.add)
        }
        let head = try await client.headObject(key: key)
        guard holdsThisFile(head) else {
            throw NarrationError(
                .storageUnavailable,
                "\(storage.description)/… \(key) does not match the outbox file after the upload (\(Self.describe(head)) instead of \(plan.bytes) bytes, ETag \(expectedETag)).",
                remedy: .sendOutboxLater)
        }
        // What an earlier delivery of the article at this very key carried, from its sidecar
        // before this one replaces it: what this one does not carry must not stay beside it.
        var earlier: Sidecar?
        if try catalog.deliveries(of: job.articleID).contains(where: { $0.destination == storage.description && $0.sidecarLocation == sidecarKey }),
            let stored = try await client.getObject(key: sidecarKey)
        {
            earlier = Self.decodedSidecar(stored.body)
        }
        _ = try await client.putObject(key: sidecarKey, body: sidecarData, contentType: "application/json", progress: sent.add)
        let sidecarHead = try await client.headObject(key: sidecarKey)
        guard sidecarHead?.bytes == sidecarData.count, sidecarHead?.etag == Digest.hex(Digest.md5(sidecarData)) else {
            throw NarrationError(
                .storageUnavailable,
                "The sidecar \(sidecarKey) does not match after the upload (\(Self.describe(sidecarHead))).",
                remedy: .sendOutboxLater)
        }
        job.state = .delivered
        job.deliveredAt = Date()
        job.lastError = nil
        job.upload = nil
        let delivery = DeliveryRow(
            articleId: job.articleID.rawValue, destination: storage.description, jobId: job.id, audioLocation: key,
            sidecarLocation: sidecarKey, sha256: job.sha256, bytes: job.bytes, deliveredAt: job.deliveredAt ?? Date(),
            endpoint: storage.endpoint, region: storage.region, pathStyle: storage.pathStyle, credentialsFile: storage.credentialsFile,
            credentialsProfile: storage.credentialsProfile)
        var leftFeeds: Set<String> = []
        switch try catalog.recordDelivery(job.row, delivery) {
        case .recorded(let replaced):
            let carried = Set((sidecar.files ?? []).map(\.name))
            for file in earlier?.files ?? [] where !carried.contains(file.name) {
                try? await client.deleteObject(key: folderKey + "/" + file.name)
            }
            if earlier?.carries?.contains(DeliveryItem.feed.rawValue) == true {
                leftFeeds.insert(FeedSettings.feedPath(forDeliveryPath: job.deliveryPath))
            }
            if let replaced {
                let prefix = storage.prefix.isEmpty ? "" : storage.prefix + "/"
                if replaced.audioLocation.hasPrefix(prefix) {
                    leftFeeds.insert(FeedSettings.feedPath(forDeliveryPath: String(replaced.audioLocation.dropFirst(prefix.count))))
                }
            }
            if let replaced {
                let deleted = (try? await Self.deleteObject(
                    replaced.audioLocation, ifSHA256: replaced.sha256, deletingSidecar: replaced.sidecarLocation != sidecarKey, with: client)) != nil
                // Keys are not paths on this machine: cut the extension off as text.
                func stem(_ key: String) -> String { String(key.dropLast(URL(fileURLWithPath: key).pathExtension.count + 1)) }
                let oldStem = stem(replaced.audioLocation)
                if deleted, oldStem != stem(key), let slash = oldStem.lastIndex(of: "/") {
                    for name in DeliveryItem.fileNames(stem: String(oldStem[oldStem.index(after: slash)...])) {
                        try? await client.deleteObject(key: oldStem[...slash] + name)
                    }
                }
            }
        case .stale(let row):
            // The article changed while the file was sent: what was sent must not stay.
            if (try? await Self.deleteObject(key, ifSHA256: job.sha256, deletingSidecar: true, with: client)) != nil {
                try? catalog.endAttempt(job: job.id, destination: storage.description)
            }
            for file in sidecar.files ?? [] {
                try? await Self.deleteObject(folderKey + "/" + file.name, ifSHA256: file.sha256, deletingSidecar: false, with: client)
            }
            discardFiles(of: [row], claimHeld: true)
            throw Self.withdrawn(title: title, reason: OutboxJob.RetirementReason(rawValue: row.retiredReason ?? "") ?? .edited)
        }
        return ObjectStorageDelivery(
            job: job, key: key, bytesSent: sent.bytesSent, partsReused: partsReused, alreadyStored: alreadyStored, leftFeeds: leftFeeds)
    }

    /// Stores one file the job carries beside the audio at `key`, in one PUT with its SHA-256 in
    /// the metadata, and checks it by HEAD (size, ETag as its MD5, SHA-256); on a retry, one
    /// already there with that SHA-256 is not sent again.
    /// - Throws: `fileCorrupt` if the outbox file changed since it was queued.
    private func storeVerified(
        _ file: Sidecar.FileEntry, from source: URL, key: String, articleID: ArticleID, with client: StorageConnection, isRetry: Bool
    ) async throws(NarrationError) {
        let body = try Checksum.read(0..<FileSystem.size(source), of: source)
        guard Digest.sha256Hex(body) == file.sha256 else { throw Self.changedSinceQueued(source) }
        let md5 = Digest.hex(Digest.md5(body))
        func holds(_ head: S3ObjectHead?) -> Bool { head?.bytes == body.count && head?.etag == md5 && head?.metadata["sha256"] == file.sha256 }
        if isRetry, holds(try await client.headObject(key: key)) { return }
        _ = try await client.putObject(
            key: key, body: body, contentType: file.type, metadata: ["sha256": file.sha256, "article-id": articleID.rawValue])
        let head = try await client.headObject(key: key)
        guard holds(head) else {
            throw NarrationError(
                .storageUnavailable, "\(key) does not match the outbox file after the upload (\(Self.describe(head)) instead of \(body.count) bytes, ETag \(md5)).",
                remedy: .sendOutboxLater)
        }
    }

    /// Sends the parts the storage does not hold yet, continuing the job's upload when the
    /// storage still knows it, and completes it. - Returns: how many parts were already there.
    private func sendParts(
        of job: inout OutboxJob, plan: UploadPlan, partMD5s: [Data], key: String, contentType: String, metadata: [String: String],
        client: StorageConnection, sent: ByteCounter
    ) async throws(NarrationError) -> Int {
        let ranges = plan.parts
        var held: [Int: S3UploadedPart] = [:]
        var uploadID: String?
        if let earlier = job.upload {
            if earlier.key == key, let parts = try await client.listParts(key: key, uploadID: earlier.id) {
                uploadID = earlier.id
                for part in parts where (1...ranges.count).contains(part.number) {
                    let index = part.number - 1
                    if part.bytes == ranges[index].count && part.etag == Digest.hex(partMD5s[index]) { held[part.number] = part }
                }
            } else if earlier.key != key {
                try? await client.abortMultipartUpload(key: earlier.key, uploadID: earlier.id)
            }
        }
        if uploadID == nil {
            let id = try await client.createMultipartUpload(key: key, contentType: contentType, metadata: metadata)
            job.upload = (id, key)
            try catalog.updateOutbox(job.row)
            uploadID = id
        }
        guard let uploadID else { preconditionFailure("an upload id was found or made above") }
        var parts: [S3UploadedPart] = []
        for (index, range) in ranges.enumerated() {
            if let part = held[index + 1] {
                parts.append(part)
                sent.skip(range.count)
                continue
            }
            let body = try Checksum.read(range, of: job.file)
            guard Digest.md5(body) == partMD5s[index] else { throw Self.changedWhileSending(job.file) }
            let etag = try await client.uploadPart(key: key, uploadID: uploadID, number: index + 1, body: body, progress: sent.add)
            parts.append(S3UploadedPart(number: index + 1, etag: etag.isEmpty ? Digest.hex(partMD5s[index]) : etag, bytes: range.count))
        }
        _ = try await client.completeMultipartUpload(key: key, uploadID: uploadID, parts: parts)
        return held.count
    }

    static func changedWhileSending(_ file: URL) -> NarrationError {
        NarrationError(.fileCorrupt, "\(file.path) changed while it was being sent, so the delivery stopped. Queue the article again.")
    }

    private static func describe(_ head: S3ObjectHead?) -> String {
        guard let head else { return "nothing there" }
        return "\(head.bytes) bytes, ETag \(head.etag)"
    }
}

/// Bytes sent so far, counted from the HTTP client's threads, reported to a progress callback.
private final class ByteCounter: Sendable {
    private let total: Int
    private let report: @Sendable (Int, Int) -> Void
    private let done = Atomic<Int>(0)
    private let skipped = Atomic<Int>(0)

    init(total: Int, report: @escaping @Sendable (Int, Int) -> Void) {
        self.total = total
        self.report = report
    }

    /// Bytes handed to the network.
    var bytesSent: Int { done.load(ordering: .relaxed) - skipped.load(ordering: .relaxed) }

    @Sendable func add(_ bytes: Int) {
        let now = done.add(bytes, ordering: .relaxed).newValue
        report(Swift.min(now, total), total)
    }

    /// Bytes that needed no sending (already stored): counted towards progress, not as sent.
    func skip(_ bytes: Int) {
        _ = skipped.add(bytes, ordering: .relaxed)
        add(bytes)
    }
}
