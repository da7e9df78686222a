import Foundation
public import NarrationCore

extension NarrationLibrary {
    /// Changes the article's title, publication, narrator or listener date, as one edit in its
    /// history; its export is withdrawn when anything changed.
    /// - Throws: a usage error for an empty title, a detail holding NUL or a date that is not
    ///   `YYYY-MM-DD`; `articleBusy`.
    public func changeDetails(of article: Article, _ change: DetailsChange) throws(NarrationError)
        -> (article: Article, changed: [String], withdrawn: WithdrawnExport?)
    {
        var change = change
        for (detail, value) in [("title", change.title), ("publication", change.publication), ("narrator", change.narrator)] {
            if let value { try ControlCharacters.requireNoNUL(value, in: detail) }
        }
        if let title = change.title {
            let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { throw NarrationError(.usage, "The title is empty.", remedy: .giveTitle) }
            change.title = trimmed
        }
        if let date = change.date { change.date = try ListenerDate.parse(date) }
        let lock = try ArticleLock.acquire(for: article, at: root.lockURL(article.id), purpose: .edit)
        defer { withExtendedLifetime(lock) {} }
        let result = try catalog.changeDetails(of: article.id, change)
        if result.withdrawn != nil { OutboxSweep.run(root: root, catalog: catalog) }
        return result
    }

    /// Moves the article to the trash the catalog knows: it leaves the listings and is no longer
    /// current; its chunks, files and history stay, and `undo` brings it back.
    /// - Parameter force: also when its export waits in the outbox undelivered (the export is
    ///   then withdrawn, and undo does not bring that back).
    /// - Throws: `articleBusy` while it is recorded or exported, or queued and undelivered without `force`.
    public func deleteArticle(_ article: Article, force: Bool) throws(NarrationError) -> WithdrawnExport? {
        let lock = try ArticleLock.acquire(for: article, at: root.lockURL(article.id), purpose: .edit)
        defer { withExtendedLifetime(lock) {} }
        if !force, let job = try catalog.undeliveredExport(of: article.id) {
            throw NarrationError(
                .articleBusy,
                "The article \"\(article.title)\" is queued (job \(job)) and not delivered yet.",
                subject: .article(article.id), remedy: .deliverOrDeleteAnyway)
        }
        let withdrawn = try catalog.moveToTrash(article, withdrawing: force)
        if withdrawn != nil { OutboxSweep.run(root: root, catalog: catalog) }
        return withdrawn
    }
}
