import Narration
import NarrationCore
import Studio

/// What both studios start from, the terminal's (`narrate studio`) and the web's (`narrate
/// serve`): the session's options from the command line and config.toml, and the article to open.
enum StudioSessionSetup {
    /// - Parameter confirmsEverySend: whether q and s always ask (the terminal), or only when
    ///   paragraphs are unread (the web page, whose buttons say what they do).
    static func options(
        _ settings: Settings, captureDevice: String?, playbackDevice: String?, profile: ProfileOption, destination: DestinationOptions,
        confirmsEverySend: Bool = true
    ) throws(NarrationError) -> Studio.Options {
        var options = Studio.Options(
            captureDevice: captureDevice ?? settings.device, playbackDevice: playbackDevice ?? settings.device,
            profile: try profile.resolve(settings), destination: try destination.resolve(settings),
            retry: RetrySchedule(attempts: 4, first: 2, limit: 30), publication: settings.publication,
            narrator: settings.narrator, format: .speech, language: settings.language)
        options.confirmsEverySend = confirmsEverySend
        return options
    }

    /// `--article` (any article but a pruned one), else the current article if it is still open;
    /// nil starts with the list of articles (the form when there are none).
    static func startingArticle(_ target: ArticleOption, in library: NarrationLibrary) throws(NarrationError) -> Article? {
        if let id = target.article {
            let article = try library.article(id)
            guard article.state != .pruned else {
                throw .usage("The article \(article.id) \"\(article.title)\" is pruned: its recordings were removed, so the studio cannot open it.")
            }
            return article
        }
        guard let current = try library.records.currentArticle(), current.state == .open else { return nil }
        return current
    }
}
