public import Narration
public import NarrationCore

/// How an article stands to a signed-in account, as the server asks before it lets the account
/// hear or change the article; `Permissions.may` then decides with the account's role.
///
/// The desk (assignments and claims) answers this for a reading service; `NarratorArticleAccess`
/// stands in until it does.
public protocol ArticleAccess: Sendable {
    /// The relation of `account` to the article `article`, or nil when there is no such article.
    func relation(of account: Account, to article: ArticleID) throws(NarrationError) -> ArticleRelation?
}

/// A stand-in for the desk, for the time before assignments are kept: an article whose narrator
/// is the account's name counts as assigned to that account, an article without a narrator as
/// open, any other as someone else's. It is the one place this rule lives, and goes when the
/// desk answers `ArticleAccess`.
public struct NarratorArticleAccess: ArticleAccess {
    let library: NarrationLibrary

    public init(library: NarrationLibrary) { self.library = library }

    public func relation(of account: Account, to article: ArticleID) throws(NarrationError) -> ArticleRelation? {
        let found: Article
        do throws(NarrationError) {
            found = try library.article(article.rawValue)
        } catch where error.kind == .unknownArticle {
            return nil
        }
        return Self.relation(narrator: found.narrator, account: account.name)
    }

    /// The rule itself: the narrator's name against the account's.
    static func relation(narrator: String, account: AccountName) -> ArticleRelation {
        if narrator.isEmpty { return .open }
        return narrator == account.rawValue ? .assignedToThem : .someoneElses
    }
}
