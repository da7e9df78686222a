public import Foundation
public import NarrationCore
import ObjectStorage

extension NarrationLibrary {
    /// `outbox/` under the data root: one folder per job, `<job id>/`, holding the export and its
    /// sidecar.
    public var outboxURL: URL { root.url.appendingPathComponent("outbox", isDirectory: true) }

    /// Exports the article with `profile` into the outbox, writes its JSON sidecar (with the
    /// file's SHA-256), makes it the article's one current export (retiring an earlier one, whose
    /// files leave the outbox), marks the article queued and clears the current article, ready
    /// for the next one. The chunks are kept.
    ///
    /// The job is in the catalog before its folder exists and the article stays locked until it
    /// is queued, so a failed or killed queue leaves nothing in the outbox that the catalog does
    /// not know (the next command removes a killed queue's folder).
    /// - Parameter ready: the article's export kept nearly made by the studio: only what changed
    ///   since is encoded and measured.
    ///
    /// The files the profile carries beside the audio (`DeliveryProfile.carries`) are made into
    /// the job's folder too and listed in the sidecar with their SHA-256: the transcripts, the
    /// JSON chapters of a feed item, an EPUB and a zipped DAISY book (in `language`). An article
    /// without a text has no transcript or book to carry, and carries the rest.
    /// - Parameter sendingUnread: whether to queue the article while paragraphs of its text are
    ///   neither read nor skipped; when false, such an article is refused (`articleUnfinished`,
    ///   naming them) and nothing is written.
    public func queue(
        _ article: Article, profile: DeliveryProfile, language: String = "en", ready: ReadyExport? = nil, sendingUnread: Bool = false,
        progress: (FrameCount, FrameCount) -> Void = { _, _ in }
    ) throws(NarrationError) -> (job: OutboxJob, sidecar: Sidecar) {
        let lock = try ArticleLock.acquire(for: article, at: root.lockURL(article.id), purpose: .queue)
        defer { withExtendedLifetime(lock) {} }
        let article = try catalog.article(matching: article.id.rawValue)  // as it is now, under the lock
        let entries = try chunkEntries(of: article)
        guard !entries.isEmpty else { throw .emptyArticle(article, nothingTo: "queue") }
        if !sendingUnread { try catalog.readingPlan(of: article).requireFinished() }
        try FileSystem.createDirectory(outboxURL)
        let exportStarted = Date()  // every chunk recorded before this is in the export
        let id = Identifier.random(length: 10)
        let name = Sidecar.fileName(title: article.title, articleID: article.id.rawValue, format: profile.format)
        let folder = outboxURL.appendingPathComponent(id, isDirectory: true)
        let audio = folder.appendingPathComponent(name)
        let sidecarURL = audio.deletingPathExtension().appendingPathExtension("json")
        let date = tags(for: article, entries: entries).date
        var row = OutboxRow(
            id: id, articleId: article.id.rawValue, file: audio.path, sidecar: sidecarURL.path, sha256: "", bytes: 0,
            profile: profile.name, queuedAt: exportStarted, state: OutboxJob.State.exporting.rawValue, destination: nil, attempts: 0,
            lastError: nil, deliveredAt: nil, remotePath: nil, fileName: name,
            deliveryPath: Sidecar.deliveryPath(publication: article.publication, date: date, file: name),
            fingerprint: try catalog.fingerprint(of: article.id))
        try catalog.addExportingJob(row)
        do throws(NarrationError) {
            try FileSystem.createDirectory(folder)
            let result = try exportLocked(
                article, entries: entries, to: audio, settings: ExportSettings(profile: profile), ready: ready, progress: progress)
            var chunkList: [Sidecar.ChunkEntry] = []
            for (index, chapter) in result.plan.chunks.enumerated() {
                chunkList.append(Sidecar.ChunkEntry(
                    index: index + 1, start: article.format.seconds(chapter.startFrame),
                    duration: article.format.seconds(chapter.endFrame - chapter.startFrame)))
            }
            var sidecar = Sidecar(
                articleId: article.id.rawValue, title: article.title, publication: article.publication, narrator: article.narrator,
                date: result.plan.tags.date, duration: article.format.seconds(result.frames), file: name, format: profile.format.rawValue,
                profile: profile.name, bytes: result.bytes, sha256: try Checksum.sha256(of: audio), chunks: chunkList,
                recordingSeconds: article.format.seconds(entries.reduce(0) { $0 + $1.chunk.frames }),
                queuedAt: Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))  // whole seconds, as ISO 8601 stores it
            sidecar.chapters = result.chapters
            let stem = audio.deletingPathExtension().lastPathComponent
            var files: [Sidecar.FileEntry] = []
            var carried: Set<DeliveryItem> = [.audio]
            /// Writes one of the files the delivery carries beside the audio, and lists it.
            func add(_ item: DeliveryItem, _ index: Int, _ data: Data) throws(NarrationError) {
                let (suffix, role, type) = item.files[index]
                let url = folder.appendingPathComponent(stem + suffix)
                try FileSystem.writeAtomically(data, to: url)
                files.append(Sidecar.FileEntry(name: url.lastPathComponent, role: role, type: type, bytes: data.count, sha256: Digest.sha256Hex(data)))
                carried.insert(item)
            }
            if let transcript = result.plan.transcript {
                var names: [String] = []
                for (index, format) in Transcript.Format.allCases.enumerated() {
                    let data = Data(transcript.text(format).utf8)
                    if profile.carries.contains(.transcript) {
                        try add(.transcript, index, data)
                    } else {
                        try FileSystem.writeAtomically(data, to: folder.appendingPathComponent(stem + "." + format.fileExtension))
                    }
                    names.append(stem + "." + format.fileExtension)
                }
                sidecar.paragraphs = Sidecar.ParagraphEntry.entries(result.plan)
                sidecar.transcripts = names
            }
            if profile.carries.contains(.feed) {
                try add(.feed, 0, ChapterList(plan: result.plan, fileName: name).json)
            }
            if result.plan.transcript != nil {
                for (item, format) in [(DeliveryItem.epub, BookFormat.epub), (.daisy, .daisy)] where profile.carries.contains(item) {
                    let (suffix, role, type) = item.files[0]
                    let url = folder.appendingPathComponent(stem + suffix)
                    var settings = ExportSettings(profile: profile)
                    settings.language = language
                    _ = try exportBookLocked(article, entries: entries, as: format, to: url, settings: settings)
                    files.append(Sidecar.FileEntry(
                        name: url.lastPathComponent, role: role, type: type, bytes: FileSystem.size(url), sha256: try Checksum.sha256(of: url)))
                    carried.insert(item)
                }
            }
            if profile.carries != [.audio] {
                sidecar.carries = carried.sorted().map(\.rawValue)
                sidecar.files = files
            }
            try FileSystem.writeAtomically(Self.encode(sidecar), to: sidecarURL)
            row.sha256 = sidecar.sha256
            row.bytes = sidecar.bytes
            row.state = OutboxJob.State.queued.rawValue
            let retired = try catalog.finishQueuing(row, clearCurrent: true)
            discardFiles(of: retired)
            return (try OutboxJob(row, outbox: outboxURL), sidecar)
        } catch {
            try? FileSystem.removeTree(folder)
            try? catalog.deleteJob(id)
            throw error
        }
    }

    /// Every job in the outbox, oldest first, retired ones included.
    public func outboxJobs() throws(NarrationError) -> [OutboxJob] {
        try catalog.outbox().map { (row) throws(NarrationError) in try OutboxJob(row, outbox: outboxURL) }
    }

    /// The article's current export (queued or delivered), if it has one.
    public func currentJob(of article: ArticleID) throws(NarrationError) -> OutboxJob? {
        try outboxJobs().last { $0.articleID == article && $0.isCurrent }
    }

    /// What a destination holds of an article: its one current file there.
    public struct Delivery: Sendable, Equatable {
        /// The destination as written: a folder or s3://BUCKET/PREFIX.
        public let destination: String
        /// The file's path, or `s3://bucket/key`.
        public let location: String
        public let deliveredAt: Date
        /// Whether it is the article's current export (nothing changed since it was delivered).
        public let isCurrent: Bool
    }

    /// Every article's deliveries, one per destination, oldest first.
    public func deliveries() throws(NarrationError) -> [ArticleID: [Delivery]] {
        let current = Set(try outboxJobs().filter(\.isCurrent).map(\.id))
        var deliveries: [ArticleID: [Delivery]] = [:]
        for row in try catalog.allDeliveries() {
            var location = row.audioLocation
            if let storage = OutboxJob.destination(
                row.destination, endpoint: row.endpoint, region: row.region, pathStyle: row.pathStyle, credentialsFile: nil, credentialsProfile: nil
            )?.objectStorage {
                location = "s3://\(storage.bucket)/\(row.audioLocation)"
            }
            deliveries[ArticleID(row.articleId), default: []].append(
                Delivery(destination: row.destination, location: location, deliveredAt: row.deliveredAt, isCurrent: current.contains(row.jobId)))
        }
        return deliveries
    }

    /// The job `text` names: its id, or the only id that starts with it.
    /// - Throws: `usage` when none or several match.
    public func job(matching text: String) throws(NarrationError) -> OutboxJob {
        let lowered = text.lowercased()
        let jobs = try outboxJobs()
        if let exact = jobs.first(where: { $0.id == lowered }) { return exact }
        let matches = jobs.filter { $0.id.hasPrefix(lowered) }
        guard Identifier.isWellFormed(lowered), matches.count == 1, let only = matches.first else {
            throw matches.count > 1
                ? .usage("\"\(text)\" matches \(matches.count) outbox jobs (\(matches.map(\.id).joined(separator: ", "))); give more of the id.")
                : NarrationError(.usage, "No outbox job has the id \"\(text)\".", remedy: .listOutboxJobs)
        }
        return only
    }

    /// Drops a job from the outbox: it is retired (never sent), its files are removed, and its
    /// article, if this was its export, is open again. What a destination already holds stays.
    /// - Throws: `articleBusy` while the job is being sent.
    @discardableResult
    public func removeJob(_ job: OutboxJob) throws(NarrationError) -> OutboxJob {
        let title = (try? catalog.article(matching: job.articleID.rawValue).title) ?? job.file.lastPathComponent
        let claim = try DeliveryClaim.acquire(job.articleID, root: root, title: title)
        defer { withExtendedLifetime(claim) {} }
        guard let before = try catalog.retireJob(job.id, reason: .removed) else { return job }
        if before.fileName != nil { try FileSystem.removeTree(outboxURL.appendingPathComponent(before.id, isDirectory: true)) }
        return try stored(job)
    }

    /// Removes the outbox folders of retired jobs that nobody is sending.
    /// - Parameter claimHeld: the caller holds the articles' delivery claim (a delivery that found
    ///   its job withdrawn): a second claim from the same process would be refused, so none is taken.
    func discardFiles(of retired: [OutboxRow], claimHeld: Bool = false) {
        for row in retired where row.fileName != nil {
            let claim = claimHeld ? nil : DeliveryClaim.tryAcquire(ArticleID(row.articleId), root: root)
            guard claimHeld || claim != nil else { continue }
            try? FileSystem.removeTree(outboxURL.appendingPathComponent(row.id, isDirectory: true))
            withExtendedLifetime(claim) {}
        }
    }

    /// The job as the catalog has it now (state, attempts, upload under way), which may be newer
    /// than the caller's copy.
    func stored(_ job: OutboxJob) throws(NarrationError) -> OutboxJob {
        guard let row = try catalog.outboxRow(id: job.id) else {
            throw NarrationError(.exportWithdrawn, "\(job.file.lastPathComponent) is no longer in the outbox; queue the article again.")
        }
        return try OutboxJob(row, outbox: outboxURL)
    }

    static func encode(_ sidecar: Sidecar) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return (try? encoder.encode(sidecar)) ?? Data()
    }
}

extension JSONDecoder {
    static var narrate: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
