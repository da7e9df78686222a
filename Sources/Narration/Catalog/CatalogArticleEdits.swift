import Foundation
import SQLEngines
import NarrationCore

/// What `narrate edit` may change about an article; nil leaves a detail as it is.
public struct DetailsChange: Sendable {
    public var title: String?
    public var publication: String?
    public var narrator: String?
    /// `YYYY-MM-DD`, checked by `ListenerDate`.
    public var date: String?

    public init(title: String? = nil, publication: String? = nil, narrator: String? = nil, date: String? = nil) {
        self.title = title
        self.publication = publication
        self.narrator = narrator
        self.date = date
    }
}

/// Edits of the article itself: its details, and moving it to the trash. Both are in its history.
extension Catalog {
    /// The article with exactly this id, in use or (with `includingTrash`) in the trash.
    /// - Throws: `unknownArticle`.
    func article(id: ArticleID, includingTrash: Bool) throws(NarrationError) -> Article {
        let row = try reading { sql in try ArticleRow.one(sql, key: .text(id.rawValue)) }
        guard let row, includingTrash || row.deletedAt == nil else { throw NarrationError.unknownArticle(id.rawValue) }
        return try row.article()
    }

    /// Changes the article's details in one transaction, recorded in its history; the export, if
    /// it had one, is withdrawn (its tags said otherwise).
    /// - Returns: the article as it is now, the names of the details that changed (none when all
    ///   were as given), and the export withdrawn.
    func changeDetails(of article: ArticleID, _ change: DetailsChange) throws(NarrationError)
        -> (article: Article, changed: [String], withdrawn: WithdrawnExport?)
    {
        try writing(holding: article) { sql in
            guard let row = try ArticleRow.one(sql, key: .text(article.rawValue)) else { throw NarrationError.unknownArticle(article.rawValue) }
            var updated = row
            if let title = change.title { updated.title = title }
            if let publication = change.publication { updated.publication = publication }
            if let narrator = change.narrator { updated.narrator = narrator }
            if let date = change.date { updated.listenerDate = date }
            let old = ArticleDetails(row)
            let new = ArticleDetails(updated)
            var changed: [String] = []
            if old.title != new.title { changed.append("title") }
            if old.publication != new.publication { changed.append("publication") }
            if old.narrator != new.narrator { changed.append("narrator") }
            if old.listenerDate != new.listenerDate { changed.append("date") }
            guard !changed.isEmpty else { return (try row.article(), [], nil) }
            try sql.execute(
                "UPDATE article SET title = ?, publication = ?, narrator = ?, listenerDate = ? WHERE id = ?",
                .text(new.title), .text(new.publication), .text(new.narrator), new.listenerDate.map { .text($0) } ?? .null, .text(article.rawValue))
            let before = try self.chunkRows(of: article, sql)
            let sentence = changed.map { name -> String in
                switch name {
                case "title": "the title to \"\(Self.quoted(new.title, limit: 60))\""
                case "publication": "the publication to \"\(Self.quoted(new.publication, limit: 40))\""
                case "narrator": "the narrator to \"\(Self.quoted(new.narrator, limit: 40))\""
                default: "the date to \(new.listenerDate ?? "the day it was recorded")"
                }
            }
            try self.recordEdit(
                .details, of: article, summary: "Changed \(sentence.joined(separator: ", ")).", before: before, details: (old, new), sql)
            let withdrawn = try self.withdrawExport(of: article, sql)
            return (try updated.article(), changed, withdrawn)
        }
    }

    /// The export of the article that waits in the outbox, not delivered yet, if any.
    func undeliveredExport(of article: ArticleID) throws(NarrationError) -> String? {
        try reading { sql in
            try sql.row(
                "SELECT id FROM outbox WHERE articleId = ? AND state = ? LIMIT 1", .text(article.rawValue), .text(OutboxJob.State.queued.rawValue)
            )?.text("id")
        }
    }

    /// Moves the article to the trash: it leaves the listings and stops being current; its
    /// chunks and files stay as they are, and `undo` brings it back. With `withdrawing`, its
    /// export leaves the outbox in the same transaction.
    func moveToTrash(_ article: Article, withdrawing: Bool) throws(NarrationError) -> WithdrawnExport? {
        try writing(holding: article.id) { sql in
            try sql.execute("UPDATE article SET deletedAt = ? WHERE id = ?", .text(CatalogTime.text(Date())), .text(article.id.rawValue))
            let withdrawn = withdrawing ? try self.withdrawExport(of: article.id, sql) : nil
            try sql.execute("DELETE FROM setting WHERE key = ? AND value = ?", .text(Self.currentArticleKey), .text(article.id.rawValue))
            let chunks = try self.chunkRows(of: article.id, sql)
            try self.recordEdit(
                .deleteArticle, of: article.id,
                summary: "Deleted the article \"\(Self.quoted(article.title, limit: 60))\" (\(chunks.count) chunk\(chunks.count == 1 ? "" : "s")).",
                before: chunks, sql)
            return withdrawn
        }
    }
}
