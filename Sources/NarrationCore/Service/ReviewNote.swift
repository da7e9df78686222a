public import Foundation

/// A proof-listener's note pinned to a paragraph and a time of an article's audio, and the
/// pickup it asks of the volunteer. Notes are never deleted: a pickup is marked done, and the
/// note stays as a record of the review.
public struct ReviewNote: Sendable, Equatable {
    /// What the note says.
    public enum Content: Sendable, Equatable {
        /// A slip: what the volunteer said, and what the text says.
        case saidShouldBe(said: ReviewNoteText, shouldBe: ReviewNoteText)
        /// Anything else: "a door slams behind the reading", "too fast here".
        case remark(ReviewNoteText)
    }

    /// Whether the volunteer has done what the note asks.
    public enum Pickup: Sendable, Equatable {
        case open
        /// Done by `account` at `at`, with the edit `edit` of the article's history (the take or
        /// punch that fixed it).
        case done(edit: Int, by: AccountName, at: Date)
    }

    /// The note's number in the service, counting up from 1 (0 for a note not yet stored).
    public let id: Int64
    public let article: ArticleID
    /// The paragraph of the article's text, from 1.
    public let paragraph: Int
    /// Where in the article's audio the proof-listener was, in milliseconds from its start.
    public let milliseconds: Int64
    public let content: Content
    public let author: AccountName
    public let createdAt: Date
    /// The send-back that made the note a pickup; nil while the article is still in review.
    public var sendBack: Int64?
    public var pickup: Pickup

    public init(
        id: Int64 = 0, article: ArticleID, paragraph: Int, milliseconds: Int64, content: Content, author: AccountName, createdAt: Date,
        sendBack: Int64? = nil, pickup: Pickup = .open
    ) {
        self.id = id
        self.article = article
        self.paragraph = paragraph
        self.milliseconds = milliseconds
        self.content = content
        self.author = author
        self.createdAt = createdAt
        self.sendBack = sendBack
        self.pickup = pickup
    }

    /// A new note, its paragraph and time checked against the article: `paragraph` from 1 to
    /// `paragraphCount`, `seconds` finite, not negative and not past `articleSeconds`.
    /// - Throws: `usage` naming the number and the range it must fall in.
    public static func checked(
        article: ArticleID, paragraph: Int, seconds: Double, content: Content, author: AccountName, createdAt: Date,
        paragraphCount: Int, articleSeconds: Double
    ) throws(NarrationError) -> ReviewNote {
        guard paragraphCount > 0 else {
            throw .usage("The article has no text, so a note has no paragraph to be pinned to: attach the article's text first.")
        }
        guard (1...paragraphCount).contains(paragraph) else {
            throw .usage("There is no paragraph \(paragraph): the article's paragraphs are 1 to \(paragraphCount).")
        }
        let length = Timecode.tenths(articleSeconds)
        guard seconds.isFinite, seconds >= 0, seconds <= articleSeconds else {
            throw .usage("A note's time must be a number of seconds from 0 to the article's length, \(length) (\(Self.shown(articleSeconds)) s); \(Self.shown(seconds)) is not.")
        }
        return ReviewNote(
            article: article, paragraph: paragraph, milliseconds: Int64((seconds * 1000).rounded()), content: content, author: author,
            createdAt: createdAt)
    }

    /// Where the note is pinned, in seconds from the start of the article's audio.
    public var seconds: Double { Double(milliseconds) / 1000 }

    public var isOpen: Bool { pickup == .open }

    /// The note in one line: "said "there" should be "their"", or the remark.
    public var summary: String {
        switch content {
        case .saidShouldBe(let said, let shouldBe): "said \"\(said)\", should be \"\(shouldBe)\""
        case .remark(let text): text.rawValue
        }
    }

    /// A time as a message shows it: up to three decimals, never an exponent ("1e+300" shows as is).
    public static func shown(_ seconds: Double) -> String {
        guard seconds.isFinite, abs(seconds) < 1e9 else { return "\(seconds)" }
        var text = String(format: "%.3f", seconds)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
