import Foundation
import NarrationCore
import NarrationText
import Testing

@Suite("Plain text")
struct PlainTextTests {
    @Test("paragraphs split at blank lines; wrapped lines joined; CRLF, a BOM and runs of white space accepted")
    func paragraphs() throws {
        let folder = try TextFolder()
        let text = "\u{FEFF}First  line of the\r\nfirst paragraph.\r\n\r\n\r\n  \t \r\nSecond\tparagraph,\r\n   indented wrap.\r\n\r\nΗ Αθήνα είναι η πρωτεύουσα.\r\n\r\nالقاهرة عاصمة مصر.\r\n\r\n東京は日本の首都です。\r\n\r\n\r\n"
        let paragraphs = try folder.read("article.txt", text)
        #expect(paragraphs == [
            paragraph("First line of the first paragraph."),
            paragraph("Second paragraph, indented wrap."),
            paragraph("Η Αθήνα είναι η πρωτεύουσα."),
            paragraph("القاهرة عاصمة مصر."),
            paragraph("東京は日本の首都です。"),
        ])
        #expect(paragraphs.map(\.wordCount) == [6, 4, 5, 3, 10])
    }

    @Test("no heading is guessed: a short first line is a paragraph like any other")
    func noHeadings() throws {
        let folder = try TextFolder()
        #expect(try folder.read("a.text", "TITLE\n\nBody text.\n") == [paragraph("TITLE"), paragraph("Body text.")])
    }

    @Test("a lone CR ends a line too; LF files without a final newline")
    func lineEnds() throws {
        let folder = try TextFolder()
        #expect(try folder.read("a.txt", "one\rtwo\r\rthree") == [paragraph("one two"), paragraph("three")])
    }

    @Test("a file without a known extension is plain text unless it starts like HTML")
    func formatFromContent() throws {
        let folder = try TextFolder()
        #expect(try folder.read("ARTICLE", "<b>not html</b> just angle brackets\n\nnext") == [
            paragraph("<b>not html</b> just angle brackets"), paragraph("next"),
        ])
        #expect(try folder.read("page.saved", "  \n<!DOCTYPE html><HTML><body><p>Hello <i>there</i></p></body></HTML>") == [
            paragraph("Hello there"),
        ])
        #expect(try folder.read("notes.TXT", "<p>kept as text</p>") == [paragraph("<p>kept as text</p>")])
    }

    @Test("the format from a file name", arguments: [
        ("a.txt", ScriptFormat.plain), ("a.TEXT", .plain), ("a.md", .markdown), ("b.Markdown", .markdown),
        ("c.html", .html), ("c.HTM", .html), ("d.xhtml", .html),
    ] as [(String, ScriptFormat)])
    func formatFromName(name: String, format: ScriptFormat) {
        #expect(ScriptFormat.from(fileName: name) == format)
    }

    @Test("no format from other extensions, none, or a dot file", arguments: ["a.rtf", "README", ".txt", "dir.md/file"])
    func noFormatFromName(name: String) {
        #expect(ScriptFormat.from(fileName: name) == nil)
    }

    @Test("bytes read with a name given in place of a file")
    func bytes() throws {
        #expect(try ScriptReader.read(Array("a\n\nb".utf8), format: .plain, name: "pasted") == [paragraph("a"), paragraph("b")])
        let error = thrown { () throws(NarrationError) in try ScriptReader.read([], format: .markdown, name: "pasted") }
        #expect(error?.message == "\"pasted\" has no text to read.")
        #expect(error?.subject == .file("pasted"))
    }
}
