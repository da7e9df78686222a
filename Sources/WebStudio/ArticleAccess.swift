public import Narration
public import NarrationCore

/// How an article stands to a signed-in account, as the server asks before it lets the account
/// hear or change the article; `Permissions.may` then decides with the account's role.
public protocol ArticleAccess: Sendable {
    /// The relation of `account` to the article `article`, or nil when there is no such article.
    func relation(of account: Account, to article: ArticleID) throws(NarrationError) -> ArticleRelation?

    /// Whether `article` is still `account`'s to narrate: given to or claimed by them and not
    /// withdrawn, whatever step of its life it has reached (sent for review, published). False
    /// once it went to someone else, was left open or withdrawn.
    func isStillHeld(_ article: ArticleID, by account: Account) throws(NarrationError) -> Bool
}

extension ArticleAccess {
    /// Nothing is held where there is no desk.
    public func isStillHeld(_ article: ArticleID, by account: Account) throws(NarrationError) -> Bool { false }
}

/// The desk answers: an article on the desk stands to an account as its desk record says
/// (`DeskEntry.relation(to:)`: assigned or claimed by them, open, ready for review, or someone
/// else's). An article of the library that is not on the desk is nobody's to narrate: it is
/// someone else's to every account, so only coordinators and admins may see it.
public struct DeskArticleAccess: ArticleAccess {
    let library: NarrationLibrary
    let desk: any DeskStore

    public init(library: NarrationLibrary, desk: any DeskStore) {
        self.library = library
        self.desk = desk
    }

    public func relation(of account: Account, to article: ArticleID) throws(NarrationError) -> ArticleRelation? {
        if let entry = try desk.entry(article) { return entry.relation(to: account.name) }
        do throws(NarrationError) {
            _ = try library.article(article.rawValue)
        } catch where error.kind == .unknownArticle {
            return nil
        }
        return Self.offDesk
    }

    public func isStillHeld(_ article: ArticleID, by account: Account) throws(NarrationError) -> Bool {
        guard let entry = try desk.entry(article) else { return false }
        return entry.assignee == account.name && entry.state != .withdrawn
    }

    /// How an article that is not on the desk stands to every account.
    static let offDesk = ArticleRelation.someoneElses
}
