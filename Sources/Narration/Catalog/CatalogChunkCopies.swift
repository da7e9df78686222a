import Foundation
import NarrationCore
import SQLEngines

/// The copies of chunks a reading service keeps in its recordings store (`RecordingStore`): the
/// table `chunk_copy` added by the migration `chunk-copies`, one row per chunk whose file the
/// store holds, written only after the store's copy was checked. The row outlives the chunk's
/// own row (a deletion moves the chunk to the trash and undo may bring it back), and goes with
/// its article. In SQL that SQLite and PostgreSQL both accept (snake_case names, `BIGINT`
/// seconds since 1970).
extension Catalog {
    static let chunkCopySchema = [
        """
        CREATE TABLE chunk_copy (
            chunk_id TEXT NOT NULL PRIMARY KEY,
            article_id TEXT NOT NULL REFERENCES article (id) ON DELETE CASCADE,
            object_key TEXT NOT NULL,
            bytes BIGINT NOT NULL,
            sha256 TEXT NOT NULL,
            stored_at BIGINT NOT NULL
        )
        """,
        "CREATE INDEX chunk_copy_by_article ON chunk_copy (article_id)",
    ]

    /// The chunks (`chunk c`) in articles' lists that the store holds no checked copy of yet: the
    /// list to copy, and the count the service's metrics show.
    static let awaitingCopy = "FROM chunk c WHERE NOT EXISTS (SELECT 1 FROM chunk_copy k WHERE k.chunk_id = c.id)"

    /// The chunks of every article (the ones in their lists, not the trash) that the store holds
    /// no checked copy of yet, oldest first.
    func chunksAwaitingCopy() throws(NarrationError) -> [(article: ArticleID, chunk: ChunkID)] {
        try reading { sql in
            try sql.rows("SELECT c.id, c.articleId \(Self.awaitingCopy) ORDER BY c.recordedAt, c.id").map { row in
                let chunk = try row.text("id")
                let article = try row.text("articleId")
                guard Identifier.isWellFormed(chunk), Identifier.isWellFormed(article) else {
                    throw NarrationError(.catalogCorrupt, "The catalog holds a chunk whose id \"\(Self.quoted(chunk))\" narrate never makes. \(Catalog.damagedFix)")
                }
                return (ArticleID(article), ChunkID(chunk))
            }
        }
    }

    /// Records that the store holds `copy`, checked; a second record of the same chunk keeps the first.
    func recordChunkCopy(_ copy: ChunkCopy) throws(NarrationError) {
        try writing { sql in
            try sql.execute(
                """
                INSERT INTO chunk_copy (chunk_id, article_id, object_key, bytes, sha256, stored_at) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (chunk_id) DO NOTHING
                """,
                .text(copy.chunk.rawValue), .text(copy.article.rawValue), .text(copy.key), .integer(Int64(copy.bytes)), .text(copy.sha256),
                .integer(Int64(copy.storedAt.timeIntervalSince1970)))
        }
    }

    /// Every copy recorded of `article`'s chunks, those deleted since included.
    func chunkCopies(of article: ArticleID) throws(NarrationError) -> [ChunkCopy] {
        try reading { sql in
            try sql.rows(
                "SELECT chunk_id, object_key, bytes, sha256, stored_at FROM chunk_copy WHERE article_id = ? ORDER BY stored_at, chunk_id",
                .text(article.rawValue)
            ).map { row in
                let chunk = try row.text("chunk_id")
                let bytes = try row.int("bytes")
                guard Identifier.isWellFormed(chunk), bytes >= 0 else {
                    throw NarrationError(.catalogCorrupt, "The catalog's copies of article \(article.rawValue) name values narrate never writes. \(Catalog.damagedFix)")
                }
                return ChunkCopy(
                    article: article, chunk: ChunkID(chunk), key: try row.text("object_key"), bytes: bytes, sha256: try row.text("sha256"),
                    storedAt: Date(timeIntervalSince1970: Double(try row.int("stored_at"))))
            }
        }
    }

    /// The store's copy of `chunk`, or nil when it has none recorded.
    func chunkCopy(of chunk: ChunkID) throws(NarrationError) -> ChunkCopy? {
        try reading { sql in
            guard
                let row = try sql.row(
                    "SELECT article_id, object_key, bytes, sha256, stored_at FROM chunk_copy WHERE chunk_id = ?", .text(chunk.rawValue))
            else { return nil }
            let article = try row.text("article_id")
            let bytes = try row.int("bytes")
            guard Identifier.isWellFormed(article), bytes >= 0 else {
                throw NarrationError(.catalogCorrupt, "The catalog's copy of chunk \(chunk.rawValue) names values narrate never writes. \(Catalog.damagedFix)")
            }
            return ChunkCopy(
                article: ArticleID(article), chunk: chunk, key: try row.text("object_key"), bytes: bytes, sha256: try row.text("sha256"),
                storedAt: Date(timeIntervalSince1970: Double(try row.int("stored_at"))))
        }
    }
}

extension Catalog {
    /// The ids of the chunks in `article`'s list, in order.
    func chunkIDs(of article: ArticleID) throws(NarrationError) -> [ChunkID] {
        try reading { sql in
            try sql.rows("SELECT id FROM chunk WHERE articleId = ? ORDER BY position", .text(article.rawValue)).map { row in
                let id = try row.text("id")
                guard Identifier.isWellFormed(id) else {
                    throw NarrationError(.catalogCorrupt, "The catalog holds a chunk whose id \"\(Self.quoted(id))\" narrate never makes. \(Catalog.damagedFix)")
                }
                return ChunkID(id)
            }
        }
    }
}
