public import Foundation
import Glibc
public import NarrationCore

/// A file in the outbox: exported, checksummed, and either waiting for delivery or delivered.
public struct OutboxJob: Sendable, Equatable {
    public enum State: String, Sendable { case queued, delivered }

    public let id: String
    public let articleID: ArticleID
    public let file: URL
    public let sidecarFile: URL
    public let sha256: String
    public let bytes: Int
    public let profile: String
    public let queuedAt: Date
    public var state: State
    public var attempts: Int
    public var lastError: String?
    public var deliveredAt: Date?
    public var remotePath: String?
    /// Where the last attempt went, with what it needs to go there again.
    public var target: Destination?
    /// A multipart upload begun and not yet completed: its id and the key it writes.
    var upload: (id: String, key: String)?

    /// The last destination, as the volunteer wrote it: a folder or s3://BUCKET/PREFIX.
    public var destination: String? { target?.description }

    init(_ row: OutboxRow) {
        id = row.id
        articleID = ArticleID(row.articleId)
        file = URL(fileURLWithPath: row.file)
        sidecarFile = URL(fileURLWithPath: row.sidecar)
        sha256 = row.sha256
        bytes = row.bytes
        profile = row.profile
        queuedAt = row.queuedAt
        state = State(rawValue: row.state) ?? .queued
        attempts = row.attempts
        lastError = row.lastError
        deliveredAt = row.deliveredAt
        remotePath = row.remotePath
        if let destination = row.destination {
            if destination.hasPrefix("s3://") {
                target = (try? S3Destination(
                    url: destination, endpoint: row.endpoint, region: row.region, pathStyle: row.pathStyle ?? false,
                    credentialsFile: row.credentialsFile, credentialsProfile: row.credentialsProfile)).map(Destination.s3)
            } else {
                target = .folder(destination)
            }
        }
        if let id = row.uploadId, let key = row.uploadKey { upload = (id, key) }
    }

    public static func == (lhs: OutboxJob, rhs: OutboxJob) -> Bool { lhs.row == rhs.row }

    var row: OutboxRow {
        var storage: S3Destination?
        if case .s3(let destination) = target { storage = destination }
        return OutboxRow(
            id: id, articleId: articleID.rawValue, file: file.path, sidecar: sidecarFile.path, sha256: sha256, bytes: bytes,
            profile: profile, queuedAt: queuedAt, state: state.rawValue, destination: target?.description, attempts: attempts,
            lastError: lastError, deliveredAt: deliveredAt, remotePath: remotePath, endpoint: storage?.endpoint, region: storage?.region,
            pathStyle: storage?.pathStyle, credentialsFile: storage?.credentialsFile, credentialsProfile: storage?.credentialsProfile,
            uploadId: upload?.id, uploadKey: upload?.key)
    }
}

extension NarrationLibrary {
    /// `outbox/` under the data root: what `queue` exported and `submit` delivers.
    public var outboxURL: URL { root.url.appendingPathComponent("outbox", isDirectory: true) }

    /// Exports the article with `profile` into the outbox, writes its JSON sidecar (with the
    /// file's SHA-256), marks the article queued and clears the current article, ready for the
    /// next one. The chunks are kept.
    public func queue(
        _ article: Article, profile: DeliveryProfile, progress: (FrameCount, FrameCount) -> Void = { _, _ in }
    ) throws(NarrationError) -> (job: OutboxJob, sidecar: Sidecar) {
        try FileSystem.createDirectory(outboxURL)
        let exportStarted = Date()  // every chunk recorded before this is in the export (prune relies on it)
        let name = Sidecar.fileName(title: article.title, articleID: article.id.rawValue, format: profile.format)
        let audio = outboxURL.appendingPathComponent(name)
        let result = try export(article, to: audio, settings: ExportSettings(profile: profile), progress: progress)
        let entries = try chunkEntries(of: article)
        var chunkList: [Sidecar.ChunkEntry] = []
        for (index, chapter) in result.plan.chapters.enumerated() {
            chunkList.append(Sidecar.ChunkEntry(
                index: index + 1, start: article.format.seconds(chapter.startFrame),
                duration: article.format.seconds(chapter.endFrame - chapter.startFrame)))
        }
        let sidecar = Sidecar(
            articleId: article.id.rawValue, title: article.title, publication: article.publication, narrator: article.narrator,
            date: result.plan.tags.date, duration: article.format.seconds(result.frames), file: name, format: profile.format.rawValue,
            profile: profile.name, bytes: result.bytes, sha256: try Checksum.sha256(of: audio), chunks: chunkList,
            recordingSeconds: article.format.seconds(entries.reduce(0) { $0 + $1.chunk.frames }),
            queuedAt: Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))  // whole seconds, as ISO 8601 stores it
        let sidecarURL = audio.deletingPathExtension().appendingPathExtension("json")
        try FileSystem.writeAtomically(Self.encode(sidecar), to: sidecarURL)
        let job = OutboxJob(OutboxRow(
            id: Identifier.random(length: 10), articleId: article.id.rawValue, file: audio.path, sidecar: sidecarURL.path,
            sha256: sidecar.sha256, bytes: sidecar.bytes, profile: profile.name, queuedAt: exportStarted, state: "queued",
            destination: nil, attempts: 0, lastError: nil, deliveredAt: nil, remotePath: nil))
        try catalog.addToOutbox(job.row, articleState: .queued, clearCurrent: true)
        return (job, sidecar)
    }

    /// Every job in the outbox, oldest first.
    public func outboxJobs() throws(NarrationError) -> [OutboxJob] {
        try catalog.outbox().map(OutboxJob.init)
    }

    /// Delivers a job to a folder (a mounted share, say): both files copied atomically to
    /// `<publication>/<date>/` beneath it, the copy's checksum verified, the delivery recorded.
    /// A failure leaves the job queued with its error and attempt count.
    /// - Throws: `fileCorrupt` if the outbox file changed since it was queued; `fileSystem`,
    ///   `diskFull` for the destination.
    @discardableResult
    public func deliver(_ job: OutboxJob, toFolder folder: URL) throws(NarrationError) -> OutboxJob {
        var job = try stored(job)
        job.target = .folder(folder.path)
        job.attempts += 1
        do throws(NarrationError) {
            let current = try Checksum.sha256(of: job.file)
            guard current == job.sha256 else {
                throw NarrationError(
                    .fileCorrupt,
                    "\(job.file.path) changed since it was queued (its SHA-256 no longer matches), so it was not delivered. Queue the article again.")
            }
            let sidecar = try readSidecar(job.sidecarFile)
            let target = folder.appendingPathComponent(sidecar.deliveryPath)
            try FileSystem.createDirectory(target.deletingLastPathComponent())
            try FileSystem.copyAtomically(job.file, to: target)
            try FileSystem.copyAtomically(job.sidecarFile, to: target.deletingPathExtension().appendingPathExtension("json"))
            guard try Checksum.sha256(of: target) == job.sha256 else {
                unlink(target.path)
                throw NarrationError(.fileCorrupt, "The copy at \(target.path) does not match the outbox file; it was removed. Try again.")
            }
            job.state = .delivered
            job.deliveredAt = Date()
            job.lastError = nil
            job.remotePath = target.path
            try catalog.updateOutbox(job.row, articleState: .submitted)
            return job
        } catch {
            job.lastError = error.message
            try? catalog.updateOutbox(job.row)
            throw error
        }
    }

    /// The job as the catalog has it now (attempts, upload under way), which may be newer than
    /// the caller's copy.
    func stored(_ job: OutboxJob) throws(NarrationError) -> OutboxJob {
        guard let row = try catalog.outboxRow(id: job.id) else {
            throw NarrationError(.fileSystem, "\(job.file.lastPathComponent) is no longer in the outbox; queue the article again.")
        }
        return OutboxJob(row)
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

func readSidecar(_ url: URL) throws(NarrationError) -> Sidecar {
    do {
        return try JSONDecoder.narrate.decode(Sidecar.self, from: Data(contentsOf: url))
    } catch {
        throw NarrationError(.fileCorrupt, "The sidecar \(url.path) could not be read (\(error)); queue the article again.")
    }
}
