/// Who may do what in a reading service: one pure function, asked by the server for every
/// request and message (pages only hide what it would refuse anyway).
///
/// | role | may |
/// |---|---|
/// | volunteer | view, record and send articles assigned to or claimed by them; view and claim open ones |
/// | proof-listener | view, review and approve (or send back) articles ready for review |
/// | coordinator | view every article; assign and manage articles not in review; add articles; every account's hours; and, like a volunteer, narrate their own and claim open ones |
/// | admin | everything a coordinator may, and manage accounts and settings |
///
/// Review and approval belong to proof-listeners alone, so that no one approves by a role that
/// was given for something else. A disabled account may do nothing at all.
public enum Permissions {
    /// Whether `account` may do `action` to an article that stands to it as `article`; nil is
    /// no particular article (the desk, adding a new one, accounts, settings, hours).
    public static func may(_ account: Account, _ action: ServiceAction, _ article: ArticleRelation?) -> Bool {
        guard account.isEnabled else { return false }
        let own = article == .assignedToThem || article == .claimedByThem
        switch (account.role, action) {
        case (.volunteer, .view): return own || article == .open
        case (.volunteer, .record), (.volunteer, .send): return own
        case (.volunteer, .claim): return article == .open
        case (.volunteer, _): return false

        case (.proofListener, .view), (.proofListener, .review), (.proofListener, .approve): return article == .readyForReview
        case (.proofListener, _): return false

        case (.coordinator, .manageAccounts), (.coordinator, .manageSettings): return false
        case (.coordinator, _), (.admin, _): break
        }
        // Coordinators and admins.
        switch action {
        case .view: return article != nil
        case .record, .send: return own
        case .claim: return article == .open
        case .assign: return article != nil && article != .readyForReview
        case .manageArticles: return article != .readyForReview
        case .review, .approve: return false
        case .manageAccounts, .manageSettings: return account.role == .admin && article == nil
        case .viewAllHours: return article == nil
        }
    }
}
