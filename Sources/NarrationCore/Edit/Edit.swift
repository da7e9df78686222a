public import struct Foundation.Date

/// One change to an article that its history records and `narrate undo` can reverse: the
/// catalog keeps the article's chunk list before and after each edit (and its details, or
/// whether it was deleted), while the files of chunks that left the list wait in its trash.
public struct Edit: Sendable, Equatable {
    /// What kind of change it was.
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// A take added at the end (or for the next paragraph).
        case record
        /// A take in place of a chunk.
        case rerecord
        /// A take inserted before (or after) a chunk.
        case insert
        /// A paragraph read again: its chunks replaced by one take.
        case reread
        /// A take adopted after a crash.
        case recover
        /// Punch-and-roll: a chunk's end replaced from a time on.
        case punch
        case delete
        case move
        case trim
        /// Audio files added as chunks.
        case `import`
        /// The article's title, publication, narrator or listener date changed.
        case details
        /// A new text attached: chunks rebound and reordered. Not undone: attach the old text again.
        case text
        /// The article moved to the trash.
        case deleteArticle = "delete-article"
        /// Paragraphs skipped (not to be read) or unskipped.
        case skip
        /// A chunk put on another paragraph of the text (and among that paragraph's chunks).
        case rebind
        /// Restarts the take check proposed cut out of a take (`ProposedCut`).
        case cut

        /// The word `narrate history` shows.
        public var label: String {
            switch self {
            case .record: "record"
            case .rerecord: "re-record"
            case .insert: "insert"
            case .reread: "read again"
            case .recover: "recovered"
            case .punch: "punch"
            case .delete: "delete"
            case .move: "move"
            case .trim: "trim"
            case .import: "import"
            case .details: "details"
            case .text: "new text"
            case .deleteArticle: "delete article"
            case .skip: "skip"
            case .rebind: "take moved"
            case .cut: "restart cut"
            }
        }

        /// Whether `undo` can reverse this kind.
        public var canUndo: Bool { self != .text }
    }

    /// The edit's number, increasing over the whole library.
    public let number: Int
    public let article: ArticleID
    public let kind: Kind
    /// One sentence saying what changed, as it was then: "Deleted chunk 3 (00:00:12.400)."
    public let summary: String
    public let madeAt: Date
    /// When `undo` reversed it; nil while it stands.
    public let undoneAt: Date?

    public init(number: Int, article: ArticleID, kind: Kind, summary: String, madeAt: Date, undoneAt: Date?) {
        self.number = number
        self.article = article
        self.kind = kind
        self.summary = summary
        self.madeAt = madeAt
        self.undoneAt = undoneAt
    }
}
