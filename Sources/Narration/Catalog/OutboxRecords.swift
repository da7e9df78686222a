import Foundation
import NarrationCore

/// An export in the outbox, as the catalog keeps it: what was exported (the article's fingerprint
/// at the time), where its files are, where it goes, and how its delivery is going.
///
/// The job's files live in `outbox/<id>/` and its remote path is `deliveryPath`: both come from
/// this row, never from the contents of a file (a sidecar can be edited by anyone).
struct OutboxRow: CatalogRecord, Equatable {
    static let table = "outbox"
    static let key = ["id"]
    var id: String
    var articleId: String
    /// The audio file's absolute path when it was queued (kept for older narrate versions; the
    /// path used is `outbox/<id>/<fileName>`).
    var file: String
    var sidecar: String
    var sha256: String
    var bytes: Int
    var profile: String
    var queuedAt: Date
    /// `exporting`, `queued`, `delivered` or `retired` (see `OutboxJob.State`).
    var state: String
    var destination: String?
    var attempts: Int
    var lastError: String?
    var deliveredAt: Date?
    /// Where the last delivery went; while `state` is queued, where the attempt under way writes.
    var remotePath: String?
    // Object storage: how to reach it again on `outbox push`, and the multipart upload under way.
    var endpoint: String?
    var region: String?
    var pathStyle: Bool?
    var credentialsFile: String?
    var credentialsProfile: String?
    var uploadId: String?
    var uploadKey: String?
    // Since v4: the job's own names, and what it was made from.
    /// The audio file's name inside `outbox/<id>/`; nil for a job of an older narrate.
    var fileName: String?
    /// `<publication>/<date>/<file>` below the destination.
    var deliveryPath: String?
    /// `ArticleFingerprint` of the article when it was queued.
    var fingerprint: String?
    /// Why a retired job was retired (`RetirementReason`).
    var retiredReason: String?
}

/// A delivery attempt under way, or one that was killed: where it writes a job's file at a
/// destination. Recorded before the first byte and dropped when that delivery is recorded, so
/// that a copy a killed attempt left is found again. Once the job is retired, the next delivery
/// to that destination removes the copy.
struct AttemptRow: CatalogRecord, Equatable {
    static let table = "attempt"
    static let key = ["jobId", "destination"]
    var jobId: String
    /// The destination as written: a folder's path or `s3://BUCKET/PREFIX`.
    var destination: String
    /// The audio's place there: a path (folder) or a key (object storage).
    var audioLocation: String
    var sha256: String
}

/// One article's current file at one destination: what a newer delivery replaces.
struct DeliveryRow: CatalogRecord, Equatable {
    static let table = "delivery"
    static let key = ["articleId", "destination"]
    var articleId: String
    /// The destination as written: a folder's path or `s3://BUCKET/PREFIX`.
    var destination: String
    var jobId: String
    /// The audio's place there: a path (folder) or a key (object storage); the sidecar's beside it.
    var audioLocation: String
    var sidecarLocation: String
    var sha256: String
    var bytes: Int
    var deliveredAt: Date
    var endpoint: String?
    var region: String?
    var pathStyle: Bool?
    var credentialsFile: String?
    var credentialsProfile: String?
}
