public import NarrationCore

/// The library's records, read-only: its articles, the current one, the history of edits and
/// the volunteer's activity. What `list`, `history` and `hours` show; nothing here changes
/// anything.
///
/// Get it from `NarrationLibrary.records`; one article's records are `NarrationLibrary.records(of:)`.
public struct LibraryRecords: Sendable {
    let catalog: Catalog

    /// Every article not in the trash, newest first.
    public func articles() throws(NarrationError) -> [Article] {
        try catalog.articles()
    }

    /// Every article not in the trash with its length, paragraphs read and last change, the one
    /// changed last first.
    public func articleSummaries() throws(NarrationError) -> [ArticleSummary] {
        try catalog.articleSummaries()
    }

    /// The number of chunks and their total frames of every article that has chunks, by id.
    public func chunkTotals() throws(NarrationError) -> [ArticleID: (chunks: Int, frames: FrameCount)] {
        try catalog.chunkTotals()
    }

    /// The article later commands default to, if there is one and it is not in the trash.
    public func currentArticle() throws(NarrationError) -> Article? {
        try catalog.currentArticle()
    }

    /// The titles of these articles, those in the trash included, by id.
    public func titles(of articles: Set<ArticleID>) throws(NarrationError) -> [ArticleID: String] {
        try catalog.titles(of: articles)
    }

    /// Edits, newest first: of one article (its deletion included), or of every article with
    /// nil; at most `limit`.
    public func history(of article: ArticleID?, limit: Int? = nil) throws(NarrationError) -> [Edit] {
        try catalog.history(of: article, limit: limit)
    }

    /// The edits an undo without an article chooses from, newest first, at most `limit`: the
    /// current article's own, and the deletions of every other article.
    public func historyAroundCurrent(limit: Int) throws(NarrationError) -> [Edit] {
        let current = try catalog.currentArticle()
        let deletions = try catalog.history(of: nil, kinds: [.deleteArticle], limit: limit)
        let own = try current.map { (article) throws(NarrationError) in try catalog.history(of: article.id, limit: limit) } ?? []
        return Array((own + deletions.filter { $0.article != current?.id }).sorted { $0.number > $1.number }.prefix(limit))
    }

    /// Every take, edit and export as a moment of the volunteer's work, for the hours they gave.
    public func activity() throws(NarrationError) -> [VolunteerHours.Event] {
        try catalog.activity()
    }

    /// A number that changes whenever another process has changed the catalog since this one
    /// last looked (SQLite's `PRAGMA data_version`): cheap enough to ask every second.
    public func dataVersion() throws(NarrationError) -> Int {
        try catalog.dataVersion()
    }
}
