public import NarrationCore

/// What a studio reads about the library, through the library rather than its catalog: the
/// articles, their summaries for a list, an article's reading plan and take checks, and the
/// number that changes when another command changes the catalog.
extension NarrationLibrary {
    /// Every article, most recently started first.
    public func articles() throws(NarrationError) -> [Article] {
        try catalog.articles()
    }

    /// Each article with its paragraphs read, chunks and length: what an article list shows.
    public func articleSummaries() throws(NarrationError) -> [ArticleSummary] {
        try catalog.articleSummaries()
    }

    /// The article's paragraphs and which chunks read them.
    public func readingPlan(of article: Article) throws(NarrationError) -> ReadingPlan {
        try catalog.readingPlan(of: article)
    }

    /// The take checks of the article's chunks, by chunk.
    public func takeChecks(of article: ArticleID) throws(NarrationError) -> [ChunkID: TakeCheck] {
        try catalog.takeChecks(of: article)
    }

    /// A number that changes whenever another process (another narrate command) changes the
    /// catalog: SQLite's `PRAGMA data_version`.
    public func catalogVersion() throws(NarrationError) -> Int {
        try catalog.dataVersion()
    }
}
