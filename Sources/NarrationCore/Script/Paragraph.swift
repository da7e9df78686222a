/// The identifier of a paragraph of an article's text. A paragraph keeps its id while the text
/// around it changes, so that the takes bound to it stay bound.
public struct ParagraphID: Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static func random() -> ParagraphID { ParagraphID(Identifier.random(length: 10)) }
    public var description: String { rawValue }
}

/// A paragraph of an article's text as the catalog keeps it: its place in the text (numbered
/// from 1, as volunteers count) and its words.
public struct Paragraph: Hashable, Sendable {
    public let id: ParagraphID
    /// 1 for the first paragraph of the text.
    public let number: Int
    public let kind: ScriptParagraph.Kind
    public let text: String
    public let wordCount: Int
    /// Whether the volunteer chose not to read it (a share bar, an advertisement): it is not
    /// read, not unread, and in no chapter, transcript or book.
    public let isSkipped: Bool

    public init(id: ParagraphID, number: Int, kind: ScriptParagraph.Kind, text: String, wordCount: Int, isSkipped: Bool = false) {
        self.id = id
        self.number = number
        self.kind = kind
        self.text = text
        self.wordCount = wordCount
        self.isSkipped = isSkipped
    }

    public var content: ScriptParagraph { ScriptParagraph(kind: kind, text: text) }
}
