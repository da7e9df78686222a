public import Foundation
public import NarrationCore
import ObjectStorage

/// What one round of copying chunks to the recordings store did.
public struct ChunkCopyRound: Sendable, Equatable {
    /// The copies made and checked in this round, in the order they were made.
    public var copied: [ChunkCopy] = []
    /// Chunks still without a copy whose file this host does not hold: another host's takes,
    /// which that host copies.
    public var heldElsewhere = 0

    public init() {}
}

extension NarrationLibrary {
    /// The largest chunk file copied in one piece (a take of three hours at 48 kHz, 16-bit mono).
    static let largestChunkCopy = 1 << 30

    /// How many chunks in articles' lists have no checked copy in the recordings store yet, on
    /// any host: what the service's metrics call the store's backlog.
    public func chunksAwaitingCopy() throws(NarrationError) -> Int {
        try serviceFigures().chunksAwaitingCopy
    }

    /// How many chunks (deleted ones too) have a checked copy recorded in the recordings store.
    public func chunkCopyCount() throws(NarrationError) -> Int {
        try catalog.reading { sql in try sql.row("SELECT COUNT(*) AS n FROM chunk_copy")?.int("n") ?? 0 }
    }

    /// Copies to `recordings` every chunk whose file this host holds and the store has no checked
    /// copy of, oldest first, and records each copy in the catalog once the store's copy is
    /// checked against the file's size and SHA-256. A chunk trimmed or deleted since it was listed
    /// is copied from the trash, where its file went; one whose file this host never held is left
    /// to the host that recorded it.
    /// - Parameters:
    ///   - includingTrash: also copy the files in this host's articles' trash that the store
    ///     lacks (chunks deleted before they were copied, which undo may bring back): a look into
    ///     every article's folder, for a host's first round and for `narrate migrate`.
    ///   - now: the time each copy is recorded at.
    /// - Throws: at the first chunk that could not be copied (the store unreachable or refusing,
    ///   a file that does not match its copy), leaving it and the rest for the next round; the
    ///   chunks copied before it stay recorded.
    public func copyChunks(
        to recordings: RecordingStore, includingTrash: Bool = false, now: @Sendable () -> Date = { Date() }
    ) async throws(NarrationError) -> ChunkCopyRound {
        var round = ChunkCopyRound()
        let catalog = self.catalog
        let root = self.root
        // The catalog and the files on this host's disk are blocking work, off the concurrency pool.
        var awaiting = try await BlockingWork.run(named: "narrate-copies", catalog.chunksAwaitingCopy)
        if includingTrash {
            awaiting += try await BlockingWork.run(named: "narrate-copies") { () throws(NarrationError) in try Self.trashAwaitingCopy(root, catalog) }
        }
        for (article, chunk) in awaiting {
            if let copy = try await Self.copy(chunk, of: article, root: root, catalog: catalog, to: recordings, now: now) {
                round.copied.append(copy)
            } else {
                round.heldElsewhere += 1
            }
        }
        return round
    }

    /// Brings home from `recordings` the file of every chunk in `article`'s list that this host
    /// lacks, each checked against the SHA-256 the catalog recorded for its copy before it is put
    /// in place (a temporary file, forced to disk, renamed); and the article's other copies (its
    /// deleted chunks, which undo may bring back) into its trash, when neither place holds them.
    /// Files that are here are not touched, so this is cheap to call before every use of an article.
    /// - Returns: how many files were brought home.
    /// - Throws: `chunkFileMissing` for a chunk neither here nor in the store; `fileCorrupt` when
    ///   the store's bytes are not the ones recorded; the store's errors.
    @discardableResult
    public func bringChunksHome(of article: ArticleID, from recordings: RecordingStore) async throws(NarrationError) -> Int {
        let catalog = self.catalog
        let root = self.root
        let (missing, trashed) = try await BlockingWork.run(named: "narrate-copies") { () throws(NarrationError) in
            let listed = try catalog.chunkIDs(of: article)
            let missing = listed.filter { !FileSystem.exists(root.chunkURL($0, of: article)) }
            let trashed = try catalog.chunkCopies(of: article).filter { copy in
                !listed.contains(copy.chunk) && !FileSystem.exists(root.chunkURL(copy.chunk, of: article))
                    && !FileSystem.exists(root.trashedChunkURL(copy.chunk, of: article))
            }
            return (missing, trashed)
        }
        var brought = 0
        for copy in trashed {
            guard let data = try await recordings.store.read(copy.key), data.count == copy.bytes, Digest.sha256Hex(data) == copy.sha256 else {
                continue  // a deleted chunk's copy that is gone or changed: undo says the file is missing, as it would
            }
            try await BlockingWork.run(named: "narrate-copies") { () throws(NarrationError) in
                try root.prepareArticle(article)
                try FileSystem.writeAtomically(data, to: root.trashedChunkURL(copy.chunk, of: article))
            }
            brought += 1
        }
        for chunk in missing {
            let copy = try await BlockingWork.run(named: "narrate-copies") { () throws(NarrationError) in try catalog.chunkCopy(of: chunk) }
            guard let copy, let data = try await recordings.store.read(copy.key) else {
                throw NarrationError(
                    .chunkFileMissing,
                    "Chunk \(chunk.rawValue) of this article is neither in \(root.chunksURL(article).path) nor in the recordings store \(recordings.name): the host that recorded it has not copied it yet.")
            }
            guard data.count == copy.bytes, Digest.sha256Hex(data) == copy.sha256 else {
                throw NarrationError(
                    .fileCorrupt, "The recordings store's copy of chunk \(chunk.rawValue) is not the one recorded (\(data.count) bytes, SHA-256 differs); it was not used.")
            }
            try await BlockingWork.run(named: "narrate-copies") { () throws(NarrationError) in
                try root.prepareArticle(article)
                try FileSystem.writeAtomically(data, to: root.chunkURL(chunk, of: article))
            }
            brought += 1
        }
        return brought
    }

    /// Copies one chunk and records its checked copy; nil when this host holds no file of it.
    private static func copy(
        _ chunk: ChunkID, of article: ArticleID, root: DataRoot, catalog: Catalog, to recordings: RecordingStore, now: @Sendable () -> Date
    ) async throws(NarrationError) -> ChunkCopy? {
        let places = [root.chunkURL(chunk, of: article), root.trashedChunkURL(chunk, of: article)]
        guard let data = try await BlockingWork.run(named: "narrate-copies", { () throws(NarrationError) in try chunkBytes(at: places) }) else {
            return nil
        }
        let key = RecordingStore.key(of: chunk, in: article)
        let sha256 = Digest.sha256Hex(data)
        let stored = try await recordings.store.write(
            data, to: key, contentType: "audio/wav", metadata: ["article": article.rawValue, "chunk": chunk.rawValue])
        guard stored.bytes == data.count, stored.sha256 == sha256 else {
            throw NarrationError(
                .fileCorrupt, "The recordings store's copy of chunk \(chunk.rawValue) does not match its file (\(stored.bytes) bytes, not \(data.count)); it will be copied again.")
        }
        let copy = ChunkCopy(article: article, chunk: chunk, key: key, bytes: data.count, sha256: sha256, storedAt: now())
        try await BlockingWork.run(named: "narrate-copies") { () throws(NarrationError) in try catalog.recordChunkCopy(copy) }
        return copy
    }

    /// The chunk files in this host's articles' trash that the store holds no copy of.
    private static func trashAwaitingCopy(_ root: DataRoot, _ catalog: Catalog) throws(NarrationError) -> [(article: ArticleID, chunk: ChunkID)] {
        var found: [(article: ArticleID, chunk: ChunkID)] = []
        for article in try catalog.everyArticleID() {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: root.trashURL(article).path)) ?? []
            for name in names.sorted() where name.hasSuffix(".wav") {
                let id = String(name.dropLast(4))
                guard Identifier.isWellFormed(id), try catalog.chunkCopy(of: ChunkID(id)) == nil else { continue }
                found.append((article, ChunkID(id)))
            }
        }
        return found
    }

    /// The bytes of the first of `places` that holds a file, or nil when none does.
    private static func chunkBytes(at places: [URL]) throws(NarrationError) -> Data? {
        for place in places {
            if let bytes = try FileSystem.ownContents(of: place, limit: largestChunkCopy) { return Data(bytes) }
        }
        return nil
    }
}
