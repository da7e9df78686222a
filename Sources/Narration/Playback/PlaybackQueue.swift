public import NarrationAudio
public import NarrationCore

extension NarrationLibrary {
    /// What a player would play, checked before any sound is made.
    public struct PlaybackPlan: Sendable {
        public let items: [PlaybackItem]
        /// Chunks left out because their file is missing or unreadable (with `skipMissing`).
        public let skipped: [(index: ChunkIndex, reason: NarrationError)]
        /// How many chunks the article has.
        public let articleChunkCount: Int
    }

    /// Chunks `from`…`to` of the article (all of them by default), each file checked: present,
    /// readable, in the article's format and as long as the catalog says.
    /// - Throws: `emptyArticle`; `chunkIndexOutOfRange`; `usage` when `from` is after `to`;
    ///   `chunkFileMissing` / `fileCorrupt` naming the chunk, unless `skipMissing`.
    public func playbackPlan(
        of article: Article, from: ChunkIndex?, to: ChunkIndex?, skipMissing: Bool
    ) throws(NarrationError) -> PlaybackPlan {
        let entries = try chunkEntries(of: article)
        guard !entries.isEmpty else {
            throw .emptyArticle(article, nothingTo: "play")
        }
        let order = ChunkOrder(entries.map(\.chunk.id))
        let first = from ?? ChunkIndex(1)
        let last = to ?? ChunkIndex(entries.count)
        try order.validate(first)
        try order.validate(last)
        guard first <= last else { throw .usage("Chunk \(first), the first to play, comes after chunk \(last), the last; give the first chunk first.") }
        var items: [PlaybackItem] = []
        var skipped: [(ChunkIndex, NarrationError)] = []
        for entry in entries[first.position...last.position] {
            do {
                try verifyFile(of: entry, format: article.format, then: .playAroundIt)
                items.append(PlaybackItem(index: entry.index, file: entry.file, frames: entry.chunk.frames))
            } catch {
                guard skipMissing else { throw error }
                skipped.append((entry.index, error))
            }
        }
        guard !items.isEmpty else {
            throw NarrationError(.chunkFileMissing, "None of chunks \(first)–\(last) can be played: their files are missing or damaged.")
        }
        return PlaybackPlan(items: items, skipped: skipped, articleChunkCount: entries.count)
    }

    /// Opens the playback device for `plan`; the player does not start until `play`.
    public func preparePlayback(
        of article: Article, plan: PlaybackPlan, device: String, speed: Double, volume: Double,
        definitions: ALSADefinitions? = nil
    ) throws(NarrationError) -> QueuePlayer {
        try preparePlayback(of: article, plan: plan, speed: speed, volume: volume) { (format) throws(NarrationError) in
            try PlaybackDevice(name: device, format: format, definitions: definitions)
        }
    }

    /// Opens the output `open` makes in the article's format for `plan` (the studio's device, or
    /// an in-memory output in tests); the player does not start until `play`.
    public func preparePlayback(
        of article: Article, plan: PlaybackPlan, speed: Double, volume: Double,
        output open: (AudioFormat) throws(NarrationError) -> any PlaybackOutput
    ) throws(NarrationError) -> QueuePlayer {
        guard (0.5...2).contains(speed) else { throw .usage("Speed \(speed) is out of range; use 0.5 to 2.0.") }
        guard (0...1).contains(volume) else { throw .usage("Volume \(volume) is out of range; use 0 to 1.") }
        let output = try open(article.format)
        return QueuePlayer(items: plan.items, format: article.format, device: output, speed: speed, volume: volume)
    }
}
