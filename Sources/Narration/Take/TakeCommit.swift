import Foundation
import NarrationCore

/// Puts a finished take file into its article: one catalog transaction whose last step renames
/// the take's file to its final name and moves replaced takes to the trash (a punch is joined
/// to its chunk first: `PunchCommit`). Shared by the recorder and by recovery.
enum TakeCommit {
    /// - Parameter source: the take's file now; renamed to the chunk's final name unless it has it.
    static func commit(
        _ chunk: Chunk, target: TakeTarget, from source: URL, root: DataRoot, catalog: Catalog
    ) throws(NarrationError) -> (index: ChunkIndex, replaced: [ChunkID], withdrawn: WithdrawnExport?, chunk: Chunk) {
        if case .punch(let original, let frame) = target {
            return try PunchCommit.commit(chunk, over: original, at: frame, from: source, root: root, catalog: catalog)
        }
        let article = chunk.articleID
        let destination = root.chunkURL(chunk.id, of: article)
        let placed = try catalog.commitTake(chunk, target: target) { replaced in
            if source != destination {
                try FileSystem.move(source, to: destination)
            }
            for replaced in replaced {
                let old = root.chunkURL(replaced, of: article)
                if FileSystem.exists(old) {
                    try FileSystem.move(old, to: root.trashedChunkURL(replaced, of: article))
                }
            }
        }
        FileSystem.syncDirectory(root.chunksURL(article))
        return (placed.index, placed.replaced, placed.withdrawn, chunk)
    }
}
