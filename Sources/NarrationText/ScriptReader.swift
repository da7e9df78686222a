import Foundation
public import NarrationCore

/// Reads an article's text from a file into the paragraphs a volunteer reads aloud.
///
/// Six formats are read (`ScriptFormat`): plain text, Markdown and HTML, all in UTF-8 (an HTML
/// page may declare another character set, which libxml2 converts); Word (`.docx`), OpenDocument
/// (`.odt`) and PDF files. Every paragraph comes out as `ScriptParagraph` text: markup gone,
/// white space collapsed, empty paragraphs dropped.
public enum ScriptReader {
    /// Reads the file at `path`. Its format comes from its extension (`.txt`/`.text` plain,
    /// `.md`/`.markdown` Markdown, `.html`/`.htm`/`.xhtml` HTML, `.docx`, `.odt`, `.pdf`, in any case) or, for any other
    /// extension or none, from its content (`ScriptFormat.from(content:)`: HTML when it starts with
    /// `<` and holds `<html`, `<body` or `<p`; plain text otherwise).
    ///
    /// - Returns: at least one paragraph.
    /// - Throws: `fileSystem` when the file cannot be read (naming the path and the system's
    ///   reason, the `errno` kept as the cause); `textUnreadable` (subject: the path) when it is not
    ///   text, not UTF-8 or has nothing to read, in a sentence that names the file.
    public static func read(fileAt path: String) throws(NarrationError) -> [ScriptParagraph] {
        try readDocument(fileAt: path).paragraphs
    }

    /// Reads the file at `path` as `read(fileAt:)` does, with the author and publication day the
    /// file names (an HTML page's byline and metadata).
    public static func readDocument(fileAt path: String) throws(NarrationError) -> ScriptDocument {
        let bytes: [UInt8]
        do {
            bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            // Foundation keeps the system's error underneath its own; its failure reason is strerror's words.
            let underlying = ((error as? CocoaError)?.underlying).map { $0 as NSError }
            let posix = underlying?.domain == NSPOSIXErrorDomain ? underlying : nil
            let reason = posix?.localizedFailureReason ?? (error as NSError).localizedDescription
            throw NarrationError(
                .fileSystem, "Cannot read \(path): \(reason.hasSuffix(".") ? String(reason.dropLast()) : reason).",
                subject: .file(path), cause: posix.map { .system(errno: Int32($0.code)) })
        }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let format = ScriptFormat.from(fileName: name) ?? ScriptFormat.from(content: bytes)
        return try read(bytes, format: format, source: TextBytes.Source(name: name, path: path))
    }

    /// Reads `bytes` as `format`; `name` is the file name the refusals speak of (and their subject).
    ///
    /// - Returns: at least one paragraph.
    /// - Throws: `textUnreadable` when the bytes are not text (a NUL byte, UTF-16, or many control
    ///   characters), are not UTF-8 (naming the first bad byte and its offset), declare a character
    ///   set that cannot be converted, or hold no paragraph.
    public static func read(_ bytes: [UInt8], format: ScriptFormat, name: String) throws(NarrationError) -> [ScriptParagraph] {
        try read(bytes, format: format, source: TextBytes.Source(name: name, path: name)).paragraphs
    }

    private static func read(_ bytes: [UInt8], format: ScriptFormat, source: TextBytes.Source) throws(NarrationError) -> ScriptDocument {
        let document: ScriptDocument
        switch format {
        case .docx: document = ScriptDocument(paragraphs: try OfficeText.word(bytes, source))
        case .odt: document = ScriptDocument(paragraphs: try OfficeText.openDocument(bytes, source))
        case .pdf:
            // A file named .pdf that does not start like one (a PNG renamed, a text) is judged by its content.
            guard PDFText.looksLikePDF(bytes) else { return try readText(bytes, format: ScriptFormat.from(content: bytes), source: source) }
            document = ScriptDocument(paragraphs: try PDFText.paragraphs(of: bytes, source))
        default: document = try readText(bytes, format: format, source: source)
        }
        guard !document.paragraphs.isEmpty else { throw source.nothingToRead }
        return document
    }

    /// Text formats: refused unless the bytes are text.
    private static func readText(_ bytes: [UInt8], format: ScriptFormat, source: TextBytes.Source) throws(NarrationError) -> ScriptDocument {
        try TextBytes.requireText(bytes, source)
        let document: ScriptDocument
        switch format {
        case .plain: document = ScriptDocument(paragraphs: PlainText.paragraphs(of: try TextBytes.decodeUTF8(bytes, source)))
        case .markdown: document = ScriptDocument(paragraphs: try MarkdownText.paragraphs(of: try TextBytes.decodeUTF8(bytes, source), source))
        case .html, .docx, .odt, .pdf: document = try HTMLText.document(of: bytes, source)
        }
        return document
    }
}
