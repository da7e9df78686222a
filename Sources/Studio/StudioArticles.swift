import Narration
import NarrationCore

/// The studio's way between articles: the new-article form as it opens, the list of articles to
/// go back to, and opening one from the list.
enum StudioArticles {
    /// The form for a new article, prefilled with config.toml's publication and narrator, else
    /// the last article's: an empty field is rarely meant.
    static func form(_ options: Studio.Options, library: NarrationLibrary) -> NewArticleForm {
        let recent = library.recentCredits()
        return NewArticleForm(
            publication: options.publication.isEmpty ? recent.publication : options.publication,
            narrator: options.narrator.isEmpty ? recent.narrator : options.narrator)
    }

    /// Whether there are articles to list.
    static func any(in library: NarrationLibrary) -> Bool {
        !((try? library.records.articles()) ?? []).isEmpty
    }

    /// The articles, `open` (the open one) selected, else the first.
    static func list(_ library: NarrationLibrary, open: Article?) throws(NarrationError) -> ArticleList {
        let rows = try library.records.articleSummaries().map { summary in
            ArticleList.Row(
                id: summary.article.id, title: summary.article.title, publication: summary.article.publication, state: summary.article.state,
                paragraphs: summary.paragraphs, paragraphsRead: summary.paragraphsRead, chunkCount: summary.chunkCount,
                seconds: summary.seconds, lastChange: summary.lastChange)
        }
        let selection = open.flatMap { open in rows.firstIndex { $0.id == open.id } } ?? 0
        return ArticleList(rows: rows, selection: selection, openArticle: open?.id)
    }

    /// The article `id` chosen in the list, made the one later commands default to (as after
    /// narrate use); what to say when it opens.
    /// - Throws: `unknownArticle`; a pruned article cannot be opened (its recordings were removed).
    static func choose(_ id: ArticleID, in library: NarrationLibrary) throws(NarrationError) -> (Article, StudioState.Notice) {
        let chosen = try library.article(id.rawValue)
        guard chosen.state != .pruned else {
            throw NarrationError(.usage, "“\(chosen.title)” is pruned: its recordings were removed, so it cannot be opened.")
        }
        try? library.use(chosen)
        let more = chosen.state == .open ? "" : " It is \(chosen.state.rawValue): a change to its chunks makes it open again."
        return (chosen, .init("Opened “\(chosen.title)”.\(more)"))
    }
}
