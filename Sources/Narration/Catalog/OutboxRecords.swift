import Foundation
import GRDB
import NarrationCore

/// An export in the outbox, as the catalog keeps it: what was exported (the article's fingerprint
/// at the time), where its files are, where it goes, and how its delivery is going.
///
/// The job's files live in `outbox/<id>/` and its remote path is `deliveryPath`: both come from
/// this row, never from the contents of a file (a sidecar can be edited by anyone).
struct OutboxRow: Codable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "outbox"
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
struct AttemptRow: Codable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "attempt"
    var jobId: String
    /// The destination as written: a folder's path or `s3://BUCKET/PREFIX`.
    var destination: String
    /// The audio's place there: a path (folder) or a key (object storage).
    var audioLocation: String
    var sha256: String
}

/// One article's current file at one destination: what a newer delivery replaces.
struct DeliveryRow: Codable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "delivery"
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

extension Catalog {
    static func registerOutboxMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v2-outbox") { db in
            try db.create(table: "outbox") { table in
                table.primaryKey("id", .text)
                table.column("articleId", .text).notNull().indexed().references("article", onDelete: .cascade)
                table.column("file", .text).notNull()
                table.column("sidecar", .text).notNull()
                table.column("sha256", .text).notNull()
                table.column("bytes", .integer).notNull()
                table.column("profile", .text).notNull()
                table.column("queuedAt", .datetime).notNull()
                table.column("state", .text).notNull()
                table.column("destination", .text)
                table.column("attempts", .integer).notNull()
                table.column("lastError", .text)
                table.column("deliveredAt", .datetime)
                table.column("remotePath", .text)
            }
        }
        migrator.registerMigration("v3-object-storage") { db in
            try db.alter(table: "outbox") { table in
                table.add(column: "endpoint", .text)
                table.add(column: "region", .text)
                table.add(column: "pathStyle", .boolean)
                table.add(column: "credentialsFile", .text)
                table.add(column: "credentialsProfile", .text)
                table.add(column: "uploadId", .text)
                table.add(column: "uploadKey", .text)
            }
        }
        // One article, one current export: jobs know what they were made from and own their
        // names; deliveries are kept per destination. Jobs of older versions shared one sidecar
        // per article and cannot be checked against the chunks, so they are retired, and their
        // articles reopened when they had not been delivered yet.
        migrator.registerMigration("v4-article-life") { db in
            try db.alter(table: "outbox") { table in
                table.add(column: "fileName", .text)
                table.add(column: "deliveryPath", .text)
                table.add(column: "fingerprint", .text)
                table.add(column: "retiredReason", .text)
            }
            try db.create(table: "attempt") { table in
                table.column("jobId", .text).notNull()
                table.column("destination", .text).notNull()
                table.column("audioLocation", .text).notNull()
                table.column("sha256", .text).notNull()
                table.primaryKey(["jobId", "destination"])
            }
            try db.create(table: "delivery") { table in
                table.column("articleId", .text).notNull().references("article", onDelete: .cascade)
                table.column("destination", .text).notNull()
                table.column("jobId", .text).notNull()
                table.column("audioLocation", .text).notNull()
                table.column("sidecarLocation", .text).notNull()
                table.column("sha256", .text).notNull()
                table.column("bytes", .integer).notNull()
                table.column("deliveredAt", .datetime).notNull()
                table.column("endpoint", .text)
                table.column("region", .text)
                table.column("pathStyle", .boolean)
                table.column("credentialsFile", .text)
                table.column("credentialsProfile", .text)
                table.primaryKey(["articleId", "destination"])
            }
            try db.execute(sql: "UPDATE article SET state = 'open' WHERE state = 'queued'")
            try db.execute(sql: "UPDATE article SET state = 'delivered' WHERE state = 'submitted'")
            try db.execute(sql: "UPDATE outbox SET state = 'retired', retiredReason = 'older' WHERE state != 'retired'")
        }
    }
}
