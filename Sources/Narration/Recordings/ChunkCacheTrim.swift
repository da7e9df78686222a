import Foundation
public import NarrationCore

/// What one trim of a host's chunk cache removed (or, dry, would remove).
public struct ChunkCacheTrim: Sendable, Equatable {
    /// Chunk files removed from the data folder, the trash's included.
    public var files = 0
    public var bytes = 0
    /// Articles left whole: still in work (not Published, Expired or Withdrawn on the desk, or
    /// not on the desk), or a take or an edit on this host using them.
    public var articlesLeft = 0
    /// Files kept because they are not the bytes the store holds (a copy missing, changed, or
    /// not recorded in the catalog yet).
    public var kept = 0
}

/// On a host of a reading service the data folder's chunks are a cache of the recordings store
/// (`RecordingStore`): every path that reads a chunk brings it home first
/// (`bringChunksHome(of:from:)`), so a host may free the space its chunks take once their
/// copies are safe.
extension NarrationLibrary {
    /// Removes from this host's data folder each chunk file (in an article's list or its trash)
    /// of a finished article (Published, Expired or Withdrawn on the desk) whose copy in
    /// `recordings` is recorded in the catalog and is, as the store says now, the same bytes as
    /// the file here (size and SHA-256 of both). A file with no recorded copy yet, or whose copy
    /// is missing or differs, stays.
    ///
    /// Articles still in work are left whole, and counted: a studio open on one reads its
    /// chunks' files (pre-roll, the export made ready), which only the pages' and the commands'
    /// paths bring home. So is an article a take or an edit on this host is using (its lock held).
    /// - Parameter dryRun: count what would go; remove nothing.
    /// - Throws: the catalog's and the store's errors (what was removed before stays removed:
    ///   each file only after its copy was checked).
    public func trimChunkCache(keeping recordings: RecordingStore, dryRun: Bool) async throws(NarrationError) -> ChunkCacheTrim {
        var trim = ChunkCacheTrim()
        let (catalog, root) = (self.catalog, self.root)
        let articles = try await BlockingWork.run(named: "narrate-cache") { () throws(NarrationError) in try catalog.articles() }
        for article in articles {
            let copies = try await BlockingWork.run(named: "narrate-cache") { () throws(NarrationError) in try catalog.chunkCopies(of: article.id) }
            let here = copies.compactMap { copy -> (ChunkCopy, URL)? in
                let file = [root.chunkURL(copy.chunk, of: article.id), root.trashedChunkURL(copy.chunk, of: article.id)].first(where: FileSystem.exists)
                return file.map { (copy, $0) }
            }
            guard !here.isEmpty else { continue }
            let desk = deskStore
            let state = try await BlockingWork.run(named: "narrate-cache") { () throws(NarrationError) in try desk.entry(article.id)?.state }
            guard let state, Self.finished.contains(state) else {
                trim.articlesLeft += 1
                continue
            }
            // No take or edit of this article may run here while its files go: it waits, or is skipped now.
            guard let lock = try ArticleLock.tryAcquire(root.lockURL(article.id), purpose: .prune) else {
                trim.articlesLeft += 1
                continue
            }
            defer { withExtendedLifetime(lock) {} }
            for (copy, file) in here {
                let local = try await BlockingWork.run(named: "narrate-cache") { () throws(NarrationError) -> (bytes: Int, sha256: String) in
                    (FileSystem.size(file), try Checksum.sha256(of: file))
                }
                guard local.bytes == copy.bytes, local.sha256 == copy.sha256,
                      let stored = try await recordings.store.head(copy.key), stored.bytes == copy.bytes, stored.sha256 == copy.sha256
                else {
                    trim.kept += 1
                    continue
                }
                if !dryRun { try FileSystem.remove(file) }
                trim.files += 1
                trim.bytes += copy.bytes
            }
        }
        return trim
    }

    /// The desk's states after which nothing is recorded into an article.
    static let finished: Set<DeskState> = [.published, .expired, .withdrawn]
}
