import Foundation
import Narration
import NarrationCore

/// The open article's chunks as last read from the library, with their level profiles (what the
/// sparklines draw), read from the chunks' files a few at a time.
struct StudioChunks {
    private(set) var entries: [NarrationLibrary.ChunkEntry] = []
    private var levels: [ChunkID: [Decibels]] = [:]
    /// Chunks with a readable file whose level profile has not been read yet.
    private var unmeasured = 0

    var ids: [ChunkID] { entries.map(\.chunk.id) }
    var count: Int { entries.count }
    var isEmpty: Bool { entries.isEmpty }

    /// Reads the article's chunks again.
    mutating func load(_ article: Article, library: NarrationLibrary) throws(NarrationError) {
        entries = try library.chunkEntries(of: article)
        unmeasured = entries.count { levels[$0.chunk.id] == nil && !$0.fileMissing }
    }

    /// No article is open.
    mutating func clear() {
        entries = []
    }

    /// The chunk at `position`, if there is one.
    func entry(at position: Int) -> NarrationLibrary.ChunkEntry? {
        entries.indices.contains(position) ? entries[position] : nil
    }

    /// Where chunk `index` is in the list, by article index.
    func position(of index: ChunkIndex) -> Int? { entries.firstIndex { $0.index == index } }

    /// Where the chunk `id` is, as its article index.
    func index(of id: ChunkID) -> ChunkIndex? { entries.firstIndex { $0.chunk.id == id }.map { ChunkIndex(position: $0) } }

    /// The frames of the chunks before chunk `index`: where it starts in the article.
    func frames(before index: ChunkIndex) -> FrameCount {
        entries.prefix { $0.index < index }.reduce(0) { $0 + $1.chunk.frames }
    }

    var totalFrames: FrameCount { entries.reduce(0) { $0 + $1.chunk.frames } }

    /// The rows the list shows, with the paragraph each chunk reads, its open hints and cuts.
    func rows(format: AudioFormat, plan: StudioReadingPlan) -> [StudioState.ChunkRow] {
        entries.map { entry in
            var row = StudioState.ChunkRow(
                index: entry.index, duration: format.seconds(entry.chunk.frames), peak: entry.chunk.peak,
                levels: levels[entry.chunk.id] ?? [], recovered: entry.chunk.recovered, missing: entry.fileMissing)
            row.hints = plan.hints(of: entry.chunk.id)
            if let read = plan.paragraph(reading: entry) {
                (row.paragraph, row.paragraphText) = (read.number, read.text)
            }
            row.suggestedParagraph = plan.suggestedParagraph(of: entry.chunk.id, reading: row.paragraph)
            row.cuts = plan.cuts(of: entry).count
            return row
        }
    }

    /// Reads the level profile of a new take from its file.
    mutating func measureTake(_ chunk: ChunkID, file: URL) -> [Decibels] {
        let profile = ChunkLevels.profile(of: file) ?? []
        levels[chunk] = profile
        return profile
    }

    /// The chunk's profile is no longer needed (the chunk was deleted).
    mutating func forget(_ chunk: ChunkID) {
        levels[chunk] = nil
    }

    /// Reads the level profiles of up to `limit` chunks near `position` that have none yet.
    /// - Returns: the profiles read, by position in the list.
    mutating func measure(around position: Int, limit: Int) -> [(position: Int, levels: [Decibels])] {
        guard unmeasured > 0 else { return [] }  // the common case, 20 times a second
        var measured: [(Int, [Decibels])] = []
        for distance in 0..<entries.count where measured.count < limit {
            for candidate in Set([position - distance, position + distance]) where entries.indices.contains(candidate) {
                let entry = entries[candidate]
                guard levels[entry.chunk.id] == nil, !entry.fileMissing else { continue }
                let profile = ChunkLevels.profile(of: entry.file) ?? []
                levels[entry.chunk.id] = profile
                measured.append((candidate, profile))
                unmeasured -= 1
            }
        }
        return measured
    }
}
