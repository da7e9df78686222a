extension NarrationError {
    /// `actor` may not do `action` to the article `article` (by its id alone, so that a refusal
    /// tells nothing of an article its asker may not see).
    public static func notPermitted(_ actor: ServiceActor, _ action: ServiceAction, article: ArticleID?) -> NarrationError {
        let what = article.map { "the article \($0)" } ?? "the desk"
        return NarrationError(.notPermitted, "\(actor.named) may not \(action.verb) \(what).")
    }

    /// The article `article` has no service record: it was never put on the desk.
    public static func notOnDesk(_ article: ArticleID) -> NarrationError {
        NarrationError(.unknownArticle, "The article \(article) is not on the desk: it was started in the personal studio, not added to the service.")
    }

    /// Someone else changed the article between reading it and changing it.
    public static func deskChangedMeanwhile(_ article: ArticleID) -> NarrationError {
        NarrationError(.deskRefused, "The article \(article) was changed by someone else at the same moment: look at it again and retry.")
    }
}

extension ServiceAction {
    /// The action as "may not …" says it.
    public var verb: String {
        switch self {
        case .view: "see"
        case .record: "record"
        case .send: "send"
        case .claim: "claim"
        case .assign: "assign or leave open"
        case .review: "review"
        case .approve: "approve or send back"
        case .manageArticles: "add, change or withdraw"
        case .manageAccounts: "manage accounts on"
        case .manageSettings: "change the settings of"
        case .viewAllHours: "see every account's hours on"
        }
    }
}
