import Foundation
import GRDB
import NarrationCore

/// A file waiting in (or delivered from) the outbox.
struct OutboxRow: Codable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "outbox"
    var id: String
    var articleId: String
    var file: String
    var sidecar: String
    var sha256: String
    var bytes: Int
    var profile: String
    var queuedAt: Date
    var state: String
    var destination: String?
    var attempts: Int
    var lastError: String?
    var deliveredAt: Date?
    var remotePath: String?
    // Object storage: how to reach it again on `outbox push`, and the multipart upload under way.
    var endpoint: String?
    var region: String?
    var pathStyle: Bool?
    var credentialsFile: String?
    var credentialsProfile: String?
    var uploadId: String?
    var uploadKey: String?
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
    }
}
