import Foundation
import SQLEngines
import NarrationCore

extension Catalog {
    /// Appends imported chunks to the end of their article, in the order given, in one
    /// transaction whose last step is `moveFiles()` (renaming each chunk's partial file to its
    /// final name). If that throws, nothing changes: the article has none of them. The
    /// article's export, if it had one, is withdrawn in the same transaction, and the import is
    /// one edit in the article's history (undo takes all its chunks back).
    /// - Parameter chunks: chunks of one article, not yet in the catalog.
    /// - Returns: each chunk's index, in the order given, and the export withdrawn.
    func importChunks(
        _ chunks: [Chunk], into article: ArticleID, moveFiles: @escaping @Sendable () throws -> Void
    ) throws(NarrationError) -> (indexes: [ChunkIndex], withdrawn: WithdrawnExport?) {
        precondition(!chunks.isEmpty && chunks.allSatisfy { $0.articleID == article }, "an import brings chunks of the article they go into")
        return try writing(holding: article) { sql in
            let before = try self.chunkRows(of: article, sql)
            var order = try self.order(of: article, sql)
            var indexes: [ChunkIndex] = []
            for chunk in chunks {
                let placed = try order.place(chunk.id, .append)
                try ChunkRow(chunk, position: placed.index.position).insert(sql)
                indexes.append(placed.index)
            }
            try self.store(order, sql)
            let frames = chunks.reduce(0) { $0 + $1.frames }
            let length = Timecode.precise(chunks.first.map { $0.format.seconds(frames) } ?? 0)
            let which = indexes.count == 1 ? "chunk \(indexes[0].number)" : "chunks \(indexes[0].number)–\(indexes[indexes.count - 1].number)"
            try self.recordEdit(
                .import, of: article, summary: "Imported \(chunks.count) file\(chunks.count == 1 ? "" : "s") as \(which) (\(length)).", before: before, sql)
            let withdrawn = try self.withdrawExport(of: article, sql)
            try moveFiles()
            return (indexes, withdrawn)
        }
    }
}
