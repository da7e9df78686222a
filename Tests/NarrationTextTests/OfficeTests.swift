import Foundation
import NarrationCore
import NarrationText
import Testing

/// Word and OpenDocument files made at test time (their XML zipped by Python's zipfile, as a
/// word processor would) and read back into exact paragraphs and headings.
@Suite("Word and OpenDocument files")
struct OfficeTests {
    /// Zips `entries` (path, text) into `name` in `folder` with Python's zipfile; answers the path.
    static func zip(_ entries: [(String, String)], as name: String, in folder: TextFolder) throws -> String {
        let source = folder.url.appendingPathComponent("parts-\(name)")
        for (path, text) in entries {
            let file = source.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        let target = folder.url.appendingPathComponent(name).path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
                for path in sys.argv[3:]: z.write(sys.argv[2] + "/" + path, path)
            """, target, source.path] + entries.map(\.0)
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return target
    }

    static let wordDocument = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">
        <w:body>
        <w:p><w:pPr><w:pStyle w:val="Title"/></w:pPr><w:r><w:t>The Harbour Reopens</w:t></w:r></w:p>
        <w:p><w:r><w:t xml:space="preserve">After three years of </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>repairs</w:t></w:r><w:r><w:t>, the harbour opened.</w:t></w:r><w:del><w:r><w:delText>Deleted words.</w:delText></w:r></w:del></w:p>
        <w:p><w:pPr><w:pStyle w:val="Heading2"/></w:pPr><w:r><w:t>What changes</w:t></w:r></w:p>
        <w:p><w:r><w:t>Ferries run</w:t></w:r><w:r><w:tab/><w:t>twice a day.</w:t><w:br/><w:t>Parking moves.</w:t></w:r></w:p>
        <w:p/>
        <w:tbl><w:tr><w:tc><w:p><w:r><w:t>Cell one</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>Cell two</w:t></w:r></w:p></w:tc></w:tr></w:tbl>
        <w:p><w:r><w:fldChar w:fldCharType="begin"/><w:instrText> PAGE </w:instrText><w:fldChar w:fldCharType="end"/><w:t>Caf&#233; owners are pleased.</w:t></w:r></w:p>
        <w:sectPr/>
        </w:body>
        </w:document>
        """

    static let openDocumentContent = """
        <?xml version="1.0" encoding="UTF-8"?>
        <office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0">
        <office:body><office:text>
        <text:h text:outline-level="1">The Harbour Reopens</text:h>
        <text:p>After three years of <text:span text:style-name="T1">repairs</text:span>, the harbour opened.<text:note text:note-class="footnote"><text:note-citation>1</text:note-citation><text:note-body><text:p>A footnote.</text:p></text:note-body></text:note></text:p>
        <text:h text:outline-level="2">What changes</text:h>
        <text:list><text:list-item><text:p>Ferries run<text:tab/>twice a day.</text:p></text:list-item><text:list-item><text:p>Parking<text:s text:c="3"/>moves.<text:line-break/>From June.</text:p></text:list-item></text:list>
        <text:p/>
        <table:table><table:table-row><table:table-cell><text:p>Cell one</text:p></table:table-cell></table:table-row></table:table>
        <text:p>Caf&#233; owners are pleased.</text:p>
        </office:text></office:body>
        </office:document-content>
        """

    @Test("a .docx: Title and Heading styles as headings, runs joined, tabs and breaks as spaces, deletions and field codes left out")
    func word() throws {
        let folder = try TextFolder()
        let path = try Self.zip([("[Content_Types].xml", "<Types/>"), ("word/document.xml", Self.wordDocument)], as: "harbour.docx", in: folder)
        #expect(try ScriptReader.read(fileAt: path) == [
            heading("The Harbour Reopens"),
            paragraph("After three years of repairs, the harbour opened."),
            heading("What changes"),
            paragraph("Ferries run twice a day. Parking moves."),
            paragraph("Cell one"),
            paragraph("Cell two"),
            paragraph("Café owners are pleased."),
        ])
    }

    @Test("an .odt: text:h headings, text:p paragraphs in lists and tables, spans in order, footnotes left out")
    func openDocument() throws {
        let folder = try TextFolder()
        let path = try Self.zip([("mimetype", "application/vnd.oasis.opendocument.text"), ("content.xml", Self.openDocumentContent)], as: "harbour.odt", in: folder)
        #expect(try ScriptReader.read(fileAt: path) == [
            heading("The Harbour Reopens"),
            paragraph("After three years of repairs, the harbour opened."),
            heading("What changes"),
            paragraph("Ferries run twice a day."),
            paragraph("Parking moves. From June."),
            paragraph("Cell one"),
            paragraph("Café owners are pleased."),
        ])
    }

    @Test("encrypted, broken and empty files are refused with a sentence naming the file")
    func refusals() throws {
        let folder = try TextFolder()
        func refusal(_ path: String) -> String? {
            thrown { () throws(NarrationError) in try ScriptReader.read(fileAt: path) }?.message
        }
        let encrypted = try folder.write("secret.docx", bytes: [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1] + [UInt8](repeating: 0, count: 504))
        #expect(refusal(encrypted) == "\"secret.docx\" is protected with a password (or is an old .doc file): save it as a Word document without a password and try again.")
        let notZip = try folder.write("notes.odt", "just some words")
        #expect(refusal(notZip) == "\"notes.odt\" is not an OpenDocument text: it is not a zip archive. Save it again from the word processor and try again.")
        let noDocument = try Self.zip([("readme.txt", "hello")], as: "empty.docx", in: folder)
        #expect(refusal(noDocument) == "\"empty.docx\" is not a Word document: it has no word/document.xml.")
        let badXML = try Self.zip([("word/document.xml", "<w:document><w:body>")], as: "cut.docx", in: folder)
        #expect(refusal(badXML)?.hasPrefix("\"cut.docx\" is damaged: its word/document.xml cannot be read because it is not well-formed XML") == true)
        let locked = try Self.zip([("content.xml", "<x/>"), ("META-INF/manifest.xml", "<manifest:encryption-data/>")], as: "locked.odt", in: folder)
        #expect(refusal(locked) == "\"locked.odt\" is protected with a password: save it without one and try again.")
        let blank = try Self.zip([("word/document.xml", "<w:document xmlns:w=\"x\"><w:body><w:p/></w:body></w:document>")], as: "blank.docx", in: folder)
        #expect(refusal(blank) == "\"blank.docx\" has no text to read.")
    }
}
