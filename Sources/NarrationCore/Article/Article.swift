public import struct Foundation.Date

/// An article being narrated: its metadata and its fixed recording format.
public struct Article: Hashable, Sendable {
    public var id: ArticleID
    public var title: String
    public var publication: String
    public var narrator: String
    public var format: AudioFormat
    public var createdAt: Date
    public var state: ArticleState
    /// The date listeners see (`YYYY-MM-DD`, set by `narrate edit --date`); nil means the day
    /// its first chunk was recorded.
    public var date: String?

    public init(
        id: ArticleID, title: String, publication: String, narrator: String,
        format: AudioFormat, createdAt: Date, state: ArticleState = .open, date: String? = nil
    ) {
        self.id = id
        self.title = title
        self.publication = publication
        self.narrator = narrator
        self.format = format
        self.createdAt = createdAt
        self.state = state
        self.date = date
    }
}

/// Where an article is in its life: being narrated (open), its current export waiting in the
/// outbox (queued), that export delivered and checked at a destination (delivered), or
/// delivered and its recordings removed (`narrate prune`). Any edit of the chunks makes it open
/// again and withdraws its export.
public enum ArticleState: String, Sendable, Codable, CaseIterable {
    case open
    case queued
    case delivered
    case pruned
}
