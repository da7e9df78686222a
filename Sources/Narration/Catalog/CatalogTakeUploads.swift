import Foundation
import SQLEngines
import NarrationCore

/// Takes uploaded from a browser (`TakeUpload`): the table `take_upload` added by the migration
/// `take-uploads`, one row per take a page began, kept after the take is committed so that a
/// page asking again about its take hears that it is on the server rather than starting it anew.
/// In SQL that SQLite and PostgreSQL both accept (snake_case names, `BIGINT` seconds since 1970).
extension Catalog {
    static let takeUploadSchema = [
        """
        CREATE TABLE take_upload (
            upload_key TEXT NOT NULL PRIMARY KEY,
            chunk_id TEXT NOT NULL UNIQUE,
            article_id TEXT NOT NULL REFERENCES article (id) ON DELETE CASCADE,
            account TEXT,
            started_at BIGINT NOT NULL
        )
        """,
        "CREATE INDEX take_upload_by_article ON take_upload (article_id)",
    ]

    /// Records that the take `chunk` comes from a page as `upload`, in the transaction that
    /// registers the take itself.
    static func insertUpload(_ upload: TakeUploadTag, chunk: ChunkID, article: ArticleID, at date: Date, _ sql: any SQLTransaction) throws {
        try sql.execute(
            "INSERT INTO take_upload (upload_key, chunk_id, article_id, account, started_at) VALUES (?, ?, ?, ?, ?)",
            .text(upload.key.rawValue), .text(chunk.rawValue), .text(article.rawValue), upload.account.map { .text($0) } ?? .null,
            .integer(Int64(date.timeIntervalSince1970)))
    }

    /// What the catalog knows of the upload `key`: nil when no page began a take with it.
    func takeUpload(_ key: TakeUploadKey) throws(NarrationError) -> TakeUploadRecord? {
        try reading { sql in
            guard
                let row = try sql.row(
                    """
                        SELECT u.chunk_id, u.article_id, u.account,
                            (SELECT COUNT(*) FROM pendingTake p WHERE p.chunkId = u.chunk_id) AS pending,
                            (SELECT COUNT(*) FROM chunk c WHERE c.id = u.chunk_id) AS kept
                        FROM take_upload u WHERE u.upload_key = ?
                        """,
                    .text(key.rawValue))
            else { return nil }
            let chunk = try row.text("chunk_id")
            let article = try row.text("article_id")
            guard Identifier.isWellFormed(chunk), Identifier.isWellFormed(article) else {
                throw NarrationError(.catalogCorrupt, "The catalog holds an uploaded take whose id \"\(Self.quoted(chunk))\" narrate never makes. \(Catalog.damagedFix)")
            }
            let pending = try row.int("pending")
            let kept = try row.int("kept")
            return TakeUploadRecord(
                key: key, chunk: ChunkID(chunk), article: ArticleID(article), account: try row.optionalText("account"),
                stage: pending > 0 ? .uploading : kept > 0 ? .committed : .ended)
        }
    }

    /// The takes still being uploaded into `article`, oldest first.
    func uploads(into article: ArticleID) throws(NarrationError) -> [TakeUploadRecord] {
        try reading { sql in
            try sql.rows(
                """
                    SELECT u.upload_key, u.chunk_id, u.account FROM take_upload u JOIN pendingTake p ON p.chunkId = u.chunk_id
                    WHERE u.article_id = ? ORDER BY u.started_at, u.upload_key
                    """,
                .text(article.rawValue)
            ).compactMap { row in
                let chunk = try row.text("chunk_id")
                guard let key = TakeUploadKey(try row.text("upload_key")), Identifier.isWellFormed(chunk) else { return nil }
                return TakeUploadRecord(key: key, chunk: ChunkID(chunk), article: article, account: try row.optionalText("account"), stage: .uploading)
            }
        }
    }

    /// The chunks of takes still being uploaded from a page: recovery leaves them to their upload.
    func uploadingChunks() throws(NarrationError) -> Set<ChunkID> {
        try reading { sql in
            let ids = try sql.rows("SELECT u.chunk_id FROM take_upload u JOIN pendingTake p ON p.chunkId = u.chunk_id").map { try $0.text("chunk_id") }
            return Set(ids.filter(Identifier.isWellFormed).map(ChunkID.init))
        }
    }

    /// Where the pending take `chunk` was meant to go and the paragraph it reads; nil when it
    /// is not pending.
    func pendingTake(_ chunk: ChunkID) throws(NarrationError) -> (target: TakeTarget, paragraph: ParagraphID?)? {
        try pendingTakes().first { $0.chunk == chunk }.map { ($0.target, $0.paragraph) }
    }
}
