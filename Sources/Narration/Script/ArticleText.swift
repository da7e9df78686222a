import Foundation
public import NarrationCore

/// The article's text in the library: attaching or replacing it, and reading it with the state
/// of each paragraph.
extension NarrationLibrary {
    /// Attaches `text` to the article, replacing any text it had (see `Catalog.replaceText`).
    /// - Throws: `textUnreadable` for a text without paragraphs, `articleBusy` while the article
    ///   is being recorded or edited.
    public func attachText(_ text: [ScriptParagraph], to article: Article, file: String) throws(NarrationError) -> TextChange {
        guard !text.isEmpty else {
            throw NarrationError(.textUnreadable, "\"\(URL(fileURLWithPath: file).lastPathComponent)\" has no text to read.", subject: .file(file))
        }
        let lock = try ArticleLock.acquire(for: article, at: root.lockURL(article.id), purpose: .edit)
        defer { withExtendedLifetime(lock) {} }
        let change = try catalog.replaceText(of: article.id, with: text)
        if change.withdrawn != nil { OutboxSweep.run(root: root, catalog: catalog) }
        return change
    }
}

/// A paragraph of the article's text with the chunks that read it.
public struct ParagraphEntry: Sendable, Equatable {
    public let paragraph: Paragraph
    /// The chunks that read it, in the article's order.
    public let chunks: [ChunkIndex]
    public let frames: FrameCount
    public let format: AudioFormat

    /// Whether any take reads it.
    public var isRead: Bool { !chunks.isEmpty }
    /// The length of its takes in seconds.
    public var duration: Double { format.seconds(frames) }
}
