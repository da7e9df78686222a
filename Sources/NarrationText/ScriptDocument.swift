public import NarrationCore

/// An article's text as read from a file: its paragraphs, and the author and publication day the
/// file names, when it names them (an HTML page's byline and metadata; other formats name none).
public struct ScriptDocument: Sendable, Equatable {
    /// At least one paragraph.
    public var paragraphs: [ScriptParagraph]
    /// The article's author as the file names it ("Ann Smith", "Ann Smith and Bo Lee"), or nil.
    public var author: String?
    /// The day the article was published, `YYYY-MM-DD` (a real day, `ListenerDate.isWellFormed`), or nil.
    public var published: String?

    public init(paragraphs: [ScriptParagraph], author: String? = nil, published: String? = nil) {
        self.paragraphs = paragraphs
        self.author = author
        self.published = published
    }
}
