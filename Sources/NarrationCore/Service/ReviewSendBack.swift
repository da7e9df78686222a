public import Foundation

/// An article sent back to its volunteer with pickups: who sent it, when, and the article's
/// chunks as they were then (the snapshot `ReviewChanges` compares with what is there later).
/// The notes pinned since the last send-back are its pickups.
public struct ReviewSendBack: Sendable, Equatable {
    /// Its number in the service, counting up from 1 (0 for one not yet stored).
    public let id: Int64
    public let article: ArticleID
    public let by: AccountName
    public let at: Date
    /// The number of the article's last edit in its history then (0 when it had none): the
    /// edits after it are what the volunteer did since.
    public let lastEdit: Int
    public let chunks: [ReviewChunk]

    public init(id: Int64 = 0, article: ArticleID, by: AccountName, at: Date, lastEdit: Int, chunks: [ReviewChunk]) {
        self.id = id
        self.article = article
        self.by = by
        self.at = at
        self.lastEdit = lastEdit
        self.chunks = chunks
    }
}
