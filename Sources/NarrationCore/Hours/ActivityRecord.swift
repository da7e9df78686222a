public import Foundation

/// One thing an account did in the reading service, as the server records it for hours: who,
/// what, on which article, and when.
public struct ActivityRecord: Sendable, Equatable {
    /// What the account did.
    public enum Kind: String, Sendable, CaseIterable, Codable {
        /// Reading or editing an article's text and details. Continues a session; does not start one.
        case preparation
        /// A take kept; its length is the audio recorded.
        case take
        /// A take or punch made for a proof-listener's note; its length is the audio recorded.
        case pickup
        /// A proof-listener listening or annotating; its length is the audio heard (0 for a note
        /// pinned without listening).
        case review
    }

    public let account: AccountName
    public let kind: Kind
    /// The audio recorded or heard; zero for a preparation.
    public let length: ActivitySeconds
    /// The article it concerns, where there is one.
    public let article: ArticleID?
    /// When it ended: a take when it was kept, a review when listening stopped. It began `length`
    /// earlier.
    public let at: Date

    public init(account: AccountName, kind: Kind, length: ActivitySeconds = .zero, article: ArticleID?, at: Date) {
        self.account = account
        self.kind = kind
        self.length = length
        self.article = article
        self.at = at
    }
}
