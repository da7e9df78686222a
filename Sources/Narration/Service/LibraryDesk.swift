public import NarrationCore
import NarrationText

extension NarrationLibrary {
    /// Where the reading service's desk is kept: this library's catalog. Front ends make a
    /// `DeskService` over it.
    public var deskStore: any DeskStore { catalog }

    /// Makes a new article for the desk, with `text` when given: the text is read first, so that
    /// a text that cannot be read makes no article. For `DeskService.add`'s `makingArticle`.
    /// The article is recorded in `format` (the speech format, `AudioFormat.speech`, unless the
    /// coordinator chose another), credits no narrator yet, and becomes the library's current
    /// article, as `newArticle` makes every new one.
    /// - Throws: `usage` for an empty title or a NUL in a detail; `textUnreadable` and
    ///   `fileSystem` for a text that cannot be read.
    public func makeDeskArticle(_ new: DeskService.NewArticle, text: DeskText?, format: AudioFormat = .speech) throws(NarrationError) -> Article {
        let paragraphs: (paragraphs: [ScriptParagraph], name: String)?
        switch text {
        case .file(let path): paragraphs = (try ScriptReader.read(fileAt: path), path)
        case .pasted(let bytes):
            paragraphs = (try ScriptReader.read(bytes, format: ScriptFormat.from(content: bytes), name: "pasted text"), "pasted text")
        case nil: paragraphs = nil
        }
        let article = try newArticle(title: new.title, publication: new.publication, narrator: "", format: format)
        if let paragraphs { _ = try attachText(paragraphs.paragraphs, to: article, file: paragraphs.name) }
        return article
    }
}

/// The text of an article put on the desk.
public enum DeskText: Sendable, Equatable {
    /// A file: .txt, .md, .html, .docx, .odt or .pdf (`ScriptReader`).
    case file(String)
    /// Text pasted in, as its bytes (checked to be UTF-8 text): plain text, or HTML when it
    /// starts like a page.
    case pasted([UInt8])
}
