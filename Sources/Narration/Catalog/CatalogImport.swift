import Foundation
import GRDB
import NarrationCore

extension Catalog {
    /// Appends imported chunks to the end of their article, in the order given, in one
    /// transaction whose last step is `moveFiles()` (renaming each chunk's partial file to its
    /// final name). If that throws, nothing changes: the article has none of them. The
    /// article's export, if it had one, is withdrawn in the same transaction.
    /// - Parameter chunks: chunks of one article, not yet in the catalog.
    /// - Returns: each chunk's index, in the order given, and the export withdrawn.
    func importChunks(
        _ chunks: [Chunk], into article: ArticleID, moveFiles: @escaping @Sendable () throws -> Void
    ) throws(NarrationError) -> (indexes: [ChunkIndex], withdrawn: WithdrawnExport?) {
        precondition(chunks.allSatisfy { $0.articleID == article }, "imported chunks belong to the article they go into")
        return try write { db in
            var order = try self.order(of: article, db)
            var indexes: [ChunkIndex] = []
            for chunk in chunks {
                let placed = try order.place(chunk.id, .append)
                try ChunkRow(chunk, position: placed.index.position).insert(db)
                indexes.append(placed.index)
            }
            // Every chunk's position from the order, as `commitTake` stores it: new rows go after
            // whatever positions the rows held before.
            for (position, id) in order.ids.enumerated() {
                try db.execute(sql: "UPDATE chunk SET position = ? WHERE id = ? AND position != ?", arguments: [position, id.rawValue, position])
            }
            let withdrawn = try self.withdrawExport(of: article, db)
            // History: the edit record for `narrate undo` goes here (chunks appended: their ids and indexes).
            try moveFiles()
            return (indexes, withdrawn)
        }
    }
}
