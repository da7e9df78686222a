public import Foundation
public import NarrationCore

/// An export in the outbox: exported, checksummed, and waiting for delivery, delivered, or retired.
///
/// An article has at most one current job (exporting, queued or delivered). Queuing it again,
/// or any edit of its chunks, retires the current one; a retired job is never sent.
public struct OutboxJob: Sendable, Equatable {
    public enum State: String, Sendable {
        /// Being exported by a `queue` that holds the article; not yet in the outbox.
        case exporting
        /// Waiting to be delivered.
        case queued
        /// Delivered and checked at `destination` (and perhaps at others before it).
        case delivered
        /// No longer the article's export: never sent again; its files leave the outbox.
        case retired
    }

    /// Why a job was retired.
    public enum RetirementReason: String, Sendable {
        /// The article's chunks changed after it was queued.
        case edited
        /// The article was queued again.
        case requeued
        /// `outbox remove`.
        case removed
        /// Made by an older narrate, which could not tell what it was made from.
        case older
    }

    public let id: String
    public let articleID: ArticleID
    /// `outbox/<id>/<title>-<article id>.<ext>`.
    public let file: URL
    /// The JSON sidecar beside it.
    public let sidecarFile: URL
    public let sha256: String
    public let bytes: Int
    public let profile: String
    public let queuedAt: Date
    public var state: State
    public var retiredReason: RetirementReason?
    public var attempts: Int
    public var lastError: String?
    public var deliveredAt: Date?
    public var remotePath: String?
    /// Where the last attempt went, with what it needs to go there again.
    public var target: Destination?
    /// `<publication>/<date>/<title>-<article id>.<ext>` below a destination.
    public let deliveryPath: String
    /// What the article was when this was exported (`ArticleFingerprint`).
    let fingerprint: String?
    /// A multipart upload begun and not yet completed: its id and the key it writes.
    var upload: (id: String, key: String)?
    private let legacyFile: String
    private let legacySidecar: String

    /// The last destination, as the volunteer wrote it: a folder or s3://BUCKET/PREFIX.
    public var destination: String? { target?.description }

    /// Whether this is the article's current export (not retired, and exported).
    public var isCurrent: Bool { state == .queued || state == .delivered }

    /// The job a catalog row describes, its files placed in `outbox`.
    /// - Throws: `catalogCorrupt` for a row whose names could reach outside the outbox or the
    ///   destination (`..`, `/`), which narrate never writes.
    init(_ row: OutboxRow, outbox: URL) throws(NarrationError) {
        guard Identifier.isWellFormed(row.id), Identifier.isWellFormed(row.articleId) else {
            throw NarrationError(.catalogCorrupt, "The catalog holds an outbox job whose id \"\(Catalog.quoted(row.id))\" narrate never makes. \(Catalog.damagedFix)")
        }
        id = row.id
        articleID = ArticleID(row.articleId)
        if let name = row.fileName {
            guard SafeFileName.isSafeComponent(Substring(name)), let path = row.deliveryPath, SafeFileName.isSafeRelativePath(path) else {
                throw NarrationError(
                    .catalogCorrupt,
                    "The catalog's outbox job \(row.id) names a file narrate never makes (\"\(Catalog.quoted(row.deliveryPath ?? name))\"). \(Catalog.damagedFix)")
            }
            let folder = outbox.appendingPathComponent(row.id, isDirectory: true)
            file = folder.appendingPathComponent(name)
            sidecarFile = file.deletingPathExtension().appendingPathExtension("json")
            deliveryPath = path
        } else {
            file = URL(fileURLWithPath: row.file)
            sidecarFile = URL(fileURLWithPath: row.sidecar)
            deliveryPath = ""
        }
        legacyFile = row.file
        legacySidecar = row.sidecar
        sha256 = row.sha256
        bytes = row.bytes
        profile = row.profile
        queuedAt = row.queuedAt
        state = State(rawValue: row.state) ?? .retired
        retiredReason = row.retiredReason.flatMap(RetirementReason.init)
        attempts = row.attempts
        lastError = row.lastError
        deliveredAt = row.deliveredAt
        remotePath = row.remotePath
        fingerprint = row.fingerprint
        target = Self.destination(
            row.destination, endpoint: row.endpoint, region: row.region, pathStyle: row.pathStyle,
            credentialsFile: row.credentialsFile, credentialsProfile: row.credentialsProfile)
        if let id = row.uploadId, let key = row.uploadKey { upload = (id, key) }
    }

    /// A destination as the catalog stores it: its description and, for object storage, how to reach it.
    static func destination(
        _ description: String?, endpoint: String?, region: String?, pathStyle: Bool?, credentialsFile: String?, credentialsProfile: String?
    ) -> Destination? {
        guard let description else { return nil }
        guard description.hasPrefix("s3://") else { return .folder(description) }
        return (try? S3Destination(
            url: description, endpoint: endpoint, region: region, pathStyle: pathStyle ?? false,
            credentialsFile: credentialsFile, credentialsProfile: credentialsProfile)).map(Destination.s3)
    }

    public static func == (lhs: OutboxJob, rhs: OutboxJob) -> Bool { lhs.row == rhs.row }

    var row: OutboxRow {
        let storage = target?.objectStorage
        return OutboxRow(
            id: id, articleId: articleID.rawValue, file: legacyFile, sidecar: legacySidecar, sha256: sha256, bytes: bytes,
            profile: profile, queuedAt: queuedAt, state: state.rawValue, destination: target?.description, attempts: attempts,
            lastError: lastError, deliveredAt: deliveredAt, remotePath: remotePath, endpoint: storage?.endpoint, region: storage?.region,
            pathStyle: storage?.pathStyle, credentialsFile: storage?.credentialsFile, credentialsProfile: storage?.credentialsProfile,
            uploadId: upload?.id, uploadKey: upload?.key, fileName: deliveryPath.isEmpty ? nil : file.lastPathComponent,
            deliveryPath: deliveryPath.isEmpty ? nil : deliveryPath, fingerprint: fingerprint, retiredReason: retiredReason?.rawValue)
    }
}
