/// The kinds of text file an article's script can be read from.
public enum ScriptFormat: String, Sendable, CaseIterable {
    /// Plain text: paragraphs separated by blank lines.
    case plain
    /// Markdown: headings, lists and paragraphs; emphasis, code and links reduced to their words.
    case markdown
    /// HTML, as a browser saves a page: the article (or the body) read into headings and paragraphs.
    case html
    /// A Word document (`.docx`): its paragraphs and headings (styles Title, Heading 1…9).
    case docx
    /// An OpenDocument text (`.odt`): its paragraphs and headings.
    case odt
    /// A PDF (`.pdf`): its lines joined into paragraphs and headings by their layout.
    case pdf

    /// The format a file name's extension names (case is ignored), or nil for any other extension
    /// or none: `.txt`/`.text` plain, `.md`/`.markdown` Markdown, `.html`/`.htm`/`.xhtml` HTML,
    /// `.docx` Word, `.odt` OpenDocument, `.pdf` PDF.
    public static func from(fileName: String) -> ScriptFormat? {
        let base = fileName.split(separator: "/").last ?? ""
        guard let dot = base.lastIndex(of: "."), dot != base.startIndex else { return nil }
        switch base[base.index(after: dot)...].lowercased() {
        case "txt", "text": return .plain
        case "md", "markdown": return .markdown
        case "html", "htm", "xhtml": return .html
        case "docx": return .docx
        case "odt": return .odt
        case "pdf": return .pdf
        default: return nil
        }
    }

    /// The format a text's content shows: HTML when it starts with `<` (after a byte order mark and
    /// white space) and contains `<html`, `<body` or `<p` in any case; plain text otherwise.
    /// Markdown is never guessed: without its extension it reads well enough as plain text.
    public static func from(content bytes: [UInt8]) -> ScriptFormat {
        var start = bytes.starts(with: TextBytes.byteOrderMark) ? 3 : 0
        while start < bytes.count, TextBytes.isASCIIWhitespace(bytes[start]) { start += 1 }
        guard start < bytes.count, bytes[start] == UInt8(ascii: "<") else { return .plain }
        let markers = ["<html", "<body", "<p"].map { Array($0.utf8) }
        return markers.contains { TextBytes.firstIndex(of: $0, in: bytes, from: start, ignoringASCIICase: true) != nil } ? .html : .plain
    }
}
