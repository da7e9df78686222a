public import Foundation
public import NarrationCore

/// The studio's list of articles, to go back to one that is not finished: each article's title,
/// publication, state, paragraphs read of all, length and last change, and the one selected.
/// Pure: `Studio` fills it from the catalog, a front end draws it.
public struct ArticleList: Sendable, Equatable {
    /// One article of the list.
    public struct Row: Sendable, Equatable {
        public var id: ArticleID
        public var title: String
        public var publication: String
        public var state: ArticleState
        /// Paragraphs of the text (0 without a text), and how many a chunk reads.
        public var paragraphs: Int
        public var paragraphsRead: Int
        public var chunkCount: Int
        /// Seconds of audio in all chunks.
        public var seconds: Double
        public var lastChange: Date

        public init(
            id: ArticleID, title: String, publication: String, state: ArticleState, paragraphs: Int, paragraphsRead: Int, chunkCount: Int,
            seconds: Double, lastChange: Date
        ) {
            self.id = id
            self.title = title
            self.publication = publication
            self.state = state
            self.paragraphs = paragraphs
            self.paragraphsRead = paragraphsRead
            self.chunkCount = chunkCount
            self.seconds = seconds
            self.lastChange = lastChange
        }

        /// Whether the studio can open it: a pruned article's recordings are gone.
        public var canOpen: Bool { state != .pruned }

        /// "3 of 9 paragraphs read", or "no text" for an article read from paper.
        public var progress: String {
            paragraphs == 0 ? "no text" : "\(paragraphsRead) of \(paragraphs) paragraph\(paragraphs == 1 ? "" : "s") read"
        }
    }

    public var rows: [Row]
    /// The selected row's position (0-based).
    public var selection: Int
    /// The article open when the list was shown: leaving the list goes back to it.
    public var openArticle: ArticleID?

    public init(rows: [Row], selection: Int = 0, openArticle: ArticleID? = nil) {
        self.rows = rows
        self.selection = min(max(0, selection), max(0, rows.count - 1))
        self.openArticle = openArticle
    }

    /// The selected row, if there are rows.
    public var selected: Row? { rows.indices.contains(selection) ? rows[selection] : nil }

    /// The list with the selection moved by `delta`, kept inside it.
    public func moved(by delta: Int) -> ArticleList {
        var list = self
        list.selection = min(max(0, selection + delta), max(0, rows.count - 1))
        return list
    }
}
