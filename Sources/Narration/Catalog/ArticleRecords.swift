public import NarrationCore

/// One article's records as the catalog keeps them, read-only: its chunks, their order, its text's
/// paragraphs, what is left to read, the takes' checks and its edits. What the listings (chunks,
/// script, history, export's checks) show; nothing here changes anything or opens a chunk's file
/// (`NarrationLibrary.chunkEntries(of:)` checks the files).
///
/// Get one from `NarrationLibrary.records(of:)`. Each call reads the catalog as it is then, so a
/// view kept a while sees the changes of other commands.
public struct ArticleRecords: Sendable {
    /// The article the records are of, as it was when the view was made.
    public let article: Article
    let catalog: Catalog

    /// The article's chunks in order, as the catalog lists them.
    public func chunks() throws(NarrationError) -> [Chunk] {
        try catalog.chunks(of: article)
    }

    /// The order of the article's chunks: which chunk id is at each index.
    public func order() throws(NarrationError) -> ChunkOrder {
        try catalog.order(of: article.id)
    }

    /// How many chunks the article has.
    public func chunkCount() throws(NarrationError) -> Int {
        try order().ids.count
    }

    /// The paragraphs of the article's text in order; none without a text.
    public func paragraphs() throws(NarrationError) -> [Paragraph] {
        try catalog.paragraphs(of: article.id)
    }

    /// The article's paragraphs, each with the chunks that read it, as a listing shows them.
    public func paragraphEntries() throws(NarrationError) -> [ParagraphEntry] {
        let paragraphs = try paragraphs()
        guard !paragraphs.isEmpty else { return [] }
        let chunks = try chunks()
        return paragraphs.map { paragraph in
            let own = chunks.enumerated().filter { $0.element.paragraphID == paragraph.id }
            return ParagraphEntry(
                paragraph: paragraph, chunks: own.map { ChunkIndex(position: $0.offset) },
                frames: own.reduce(0) { $0 + $1.element.frames }, format: article.format)
        }
    }

    /// Which paragraph each chunk reads, which are left to read, and which is next.
    public func readingPlan() throws(NarrationError) -> ReadingPlan {
        try catalog.readingPlan(of: article)
    }

    /// The checks of the article's takes against its text, by chunk.
    public func takeChecks() throws(NarrationError) -> [ChunkID: TakeCheck] {
        try catalog.takeChecks(of: article.id)
    }
}
