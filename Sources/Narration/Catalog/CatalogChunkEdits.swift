import Foundation
import SQLEngines
import NarrationCore

/// Edits of an article's chunk list that record no take: moving a chunk, and putting a chunk
/// made from another (trimmed, punched) in its place. Each is one transaction that records
/// itself in the history and withdraws the article's export; file moves run last.
extension Catalog {
    /// Moves the chunk at `index` so that it ends up at `destination`; those between shift by one.
    /// - Returns: the export withdrawn, if the article had one.
    /// - Throws: `chunkIndexOutOfRange` for either index.
    func moveChunk(at index: ChunkIndex, to destination: ChunkIndex, of article: ArticleID) throws(NarrationError) -> WithdrawnExport? {
        try writing(holding: article) { sql in
            let before = try self.chunkRows(of: article, sql)
            var order = try self.order(of: article, sql)
            try order.validate(destination)
            let id = try order.remove(at: index)
            var ids = order.ids
            ids.insert(id, at: destination.position)
            try self.store(ChunkOrder(ids), sql)
            try self.recordEdit(.move, of: article, summary: "Moved chunk \(index.number) to \(destination.number).", before: before, sql)
            return try self.withdrawExport(of: article, sql)
        }
    }

    /// Puts `replacement` (a new file made from the chunk `original`: trimmed, punched) in the
    /// original's place, in one transaction whose last step is `moveFiles()` (the new file to
    /// its name, the original's to the trash). The replacement keeps the original's paragraph.
    /// `finishingTake` names a take (a punch) whose registration ends with this edit; `audit`,
    /// a line of the service's audit log written in the same transaction (a proof-listener's cut).
    /// - Returns: the chunk's index and the export withdrawn.
    /// - Throws: `chunkIndexOutOfRange` when the original left the article meanwhile.
    func substituteChunk(
        _ original: ChunkID, with replacement: Chunk, kind: Edit.Kind, finishingTake: ChunkID? = nil, audit: AuditEntry? = nil,
        summary: @escaping @Sendable (ChunkIndex) -> String,
        moveFiles: @escaping @Sendable () throws -> Void
    ) throws(NarrationError) -> (index: ChunkIndex, withdrawn: WithdrawnExport?) {
        try writing(holding: replacement.articleID) { sql in
            let before = try self.chunkRows(of: replacement.articleID, sql)
            let order = try self.order(of: replacement.articleID, sql)
            guard let index = order.index(of: original), let old = before.first(where: { $0.id == original.rawValue }) else {
                throw NarrationError(.chunkIndexOutOfRange, "The chunk being changed was deleted meanwhile; nothing was changed.")
            }
            try self.setAsideTakeCheck(of: original, in: replacement.articleID, sql)
            try old.delete(sql)
            var row = ChunkRow(replacement, position: old.position)
            row.paragraphId = old.paragraphId
            try row.insert(sql)
            if let take = finishingTake { try PendingTakeRow.delete(sql, key: .text(take.rawValue)) }
            try self.recordEdit(kind, of: replacement.articleID, summary: summary(index), before: before, sql)
            if let audit { try Self.append(audit, sql) }
            let withdrawn = try self.withdrawExport(of: replacement.articleID, sql)
            try moveFiles()
            return (index, withdrawn)
        }
    }
}
