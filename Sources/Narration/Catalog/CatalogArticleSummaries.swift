public import Foundation
public import NarrationCore

/// One article as the studios' article list shows it: enough to choose one to go back to.
public struct ArticleSummary: Sendable, Equatable {
    public var article: Article
    public var chunkCount: Int
    /// Seconds of audio in all chunks.
    public var seconds: Double
    /// How many paragraphs the article's text has (0 without a text), and how many of them a
    /// chunk reads.
    public var paragraphs: Int
    public var paragraphsRead: Int
    /// When the article last changed: its latest edit, else when it was made.
    public var lastChange: Date

    public init(article: Article, chunkCount: Int, seconds: Double, paragraphs: Int, paragraphsRead: Int, lastChange: Date) {
        self.article = article
        self.chunkCount = chunkCount
        self.seconds = seconds
        self.paragraphs = paragraphs
        self.paragraphsRead = paragraphsRead
        self.lastChange = lastChange
    }
}

extension Catalog {
    /// Every article not in the trash with its length, paragraphs read and last change, the one
    /// changed last first.
    public func articleSummaries() throws(NarrationError) -> [ArticleSummary] {
        let articles = try articles()
        let totals = try chunkTotals()
        let counts = try reading { sql in
            func table(_ query: String) throws -> [String: Int] {
                var result: [String: Int] = [:]
                for row in try sql.rows(query) {
                    if let id = row.checked({ try $0.text("articleId") }), let count = row.checked({ try $0.int("count") }) { result[id] = count }
                }
                return result
            }
            let paragraphs = try table("SELECT articleId, COUNT(*) AS count FROM paragraph GROUP BY articleId")
            let read = try table(
                "SELECT chunk.articleId AS articleId, COUNT(DISTINCT chunk.paragraphId) AS count FROM chunk JOIN paragraph ON paragraph.id = chunk.paragraphId GROUP BY chunk.articleId")
            var changes: [String: Date] = [:]
            for row in try sql.rows("SELECT articleId, MAX(madeAt) AS madeAt FROM edit GROUP BY articleId") {
                if let id = row.checked({ try $0.text("articleId") }), let date = row.checked({ try $0.text("madeAt") }).flatMap(CatalogTime.date) {
                    changes[id] = date
                }
            }
            return (paragraphs, read, changes)
        }
        return articles.map { article in
            let id = article.id.rawValue
            let total = totals[article.id] ?? (0, 0)
            return ArticleSummary(
                article: article, chunkCount: total.chunks, seconds: article.format.seconds(total.frames), paragraphs: counts.0[id] ?? 0,
                paragraphsRead: counts.1[id] ?? 0, lastChange: max(article.createdAt, counts.2[id] ?? article.createdAt))
        }
        .sorted { $0.lastChange > $1.lastChange }
    }
}
