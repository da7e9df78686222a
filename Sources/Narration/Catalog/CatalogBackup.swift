import Foundation
import GRDB
import NarrationCore

extension Catalog {
    /// Writes a consistent copy of the whole catalog, every table whatever its migration, to the
    /// new file `path`, with SQLite's online backup (`sqlite3_backup_*`, through GRDB's
    /// `backup(to:)`): the pages are copied inside one read transaction, so the copy is the
    /// catalog as one moment saw it, never a file copied under a writer. A writer that commits
    /// meanwhile (a take being committed) waits at most for that copy, within its busy timeout.
    ///
    /// Takes being recorded are registered in the catalog but not committed: they are dropped
    /// from the copy, which holds committed chunks only.
    /// - Throws: `foreignFile` when `path` or its journal is a symbolic link; `diskFull`;
    ///   `dataRootNotWritable` when the copy cannot be written.
    func snapshot(to path: String) throws(NarrationError) {
        try Self.refuseLinks(at: path)
        let database = try sqliteDatabase()
        do {
            let copy = try DatabaseQueue(path: path)
            try database.backup(to: copy)
            try copy.write { db in try db.execute(sql: "DELETE FROM pendingTake") }
            try copy.close()
        } catch {
            throw Self.translate(error, path: path)
        }
    }

    /// Every chunk the catalog holds, in every article (deleted ones too, whose chunks stay for
    /// undo), with the article it belongs to.
    /// - Throws: `catalogCorrupt` for a row narrate never writes.
    func everyChunk() throws(NarrationError) -> [(article: ArticleID, chunk: Chunk)] {
        let (articles, chunks) = try reading { sql in
            (try ArticleRow.all(sql), try ChunkRow.all(sql, orderedBy: "articleId, position"))
        }
        var formats: [String: AudioFormat] = [:]
        for row in articles { formats[row.id] = try row.article().format }
        return try chunks.map { (row) throws(NarrationError) in
            guard let format = formats[row.articleId] else {
                throw NarrationError(.catalogCorrupt, "The catalog holds chunk \(Catalog.quoted(row.id)) of an article it does not list. \(Self.damagedFix)")
            }
            return (ArticleID(row.articleId), try row.chunk(format: format))
        }
    }

    /// Every article's id, deleted ones too: the folders a library needs.
    func everyArticleID() throws(NarrationError) -> [ArticleID] {
        let ids = try reading { sql in try sql.rows("SELECT id FROM article ORDER BY id").map { try $0.text("id") } }
        return try ids.map { (id) throws(NarrationError) in
            guard Identifier.isWellFormed(id) else {
                throw NarrationError(.catalogCorrupt, "The catalog holds an article whose id \"\(Self.quoted(id))\" narrate never makes. \(Self.damagedFix)")
            }
            return ArticleID(id)
        }
    }

    /// The SHA-256 of each export the outbox table lists, by its path below the data root
    /// (`outbox/<job id>/<file name>`).
    func exportChecksums() throws(NarrationError) -> [String: String] {
        let rows = try reading { sql in try OutboxRow.all(sql, where: "fileName IS NOT NULL") }
        var checksums: [String: String] = [:]
        for row in rows {
            // Only compared with the paths found in the outbox folder: never made into a path.
            guard let name = row.fileName, !row.sha256.isEmpty else { continue }
            checksums["outbox/\(row.id)/\(name)"] = row.sha256
        }
        return checksums
    }
}
