public import NarrationCore

/// Edits of how the article's text is read, in the library: skipping paragraphs, and putting a
/// take on the paragraph it really reads. Each holds the article's lock while the catalog edits.
extension NarrationLibrary {
    /// Skips (or unskips) paragraphs `numbers` of the article (see `Catalog.skipParagraphs`).
    /// Skipping changes no recording, so the article's export stays as it is.
    /// - Throws: `usage` for a paragraph that does not exist or that a take reads; `articleBusy`.
    public func skipParagraphs(_ numbers: [Int], skipping: Bool, of article: Article) throws(NarrationError) -> SkipChange {
        let lock = try ArticleLock.acquire(for: article, at: root.lockURL(article.id), purpose: .edit)
        defer { withExtendedLifetime(lock) {} }
        return try catalog.skipParagraphs(numbers, skipping: skipping, of: article)
    }

    /// Puts chunk `index` on paragraph `number` (see `Catalog.rebindChunk`); undo puts it back.
    /// - Throws: `chunkIndexOutOfRange`; `usage` for a paragraph that does not exist or is
    ///   skipped, or that the chunk reads already; `articleBusy`.
    public func rebindChunk(at index: ChunkIndex, toParagraph number: Int, of article: Article) throws(NarrationError) -> RebindResult {
        let lock = try ArticleLock.acquire(for: article, at: root.lockURL(article.id), purpose: .edit)
        defer { withExtendedLifetime(lock) {} }
        let result = try catalog.rebindChunk(at: index, toParagraph: number, of: article)
        if result.withdrawn != nil { OutboxSweep.run(root: root, catalog: catalog) }
        return result
    }
}
