import NarrationCore
import NarrationText
import Testing

/// Binary files given as an article's text are named by their first bytes.
@Suite("Binary files named for what they are")
struct BinaryFileTests {
    static let zipHeader: [UInt8] = [0x50, 0x4B, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00]

    @Test("images, documents, archives and recordings", arguments: [
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00], "a PNG image"),
        ([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8), "a JPEG image"),
        (Array("GIF89a".utf8) + [0x01, 0x00], "a GIF image"),
        (Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WEBPVP8 ".utf8), "a WebP image"),
        ([0, 0, 0, 0x18] + Array("ftypheic".utf8), "a HEIC image"),
        (Array("%PDF-1.4\n".utf8), "a PDF document"),
        (zipHeader + Array("[Content_Types].xml word/document.xml".utf8), "a Word document (.docx)"),
        (zipHeader + Array("mimetypeapplication/vnd.oasis.opendocument.text".utf8), "an OpenDocument text (.odt)"),
        (zipHeader + Array("mimetypeapplication/epub+zip".utf8), "an EPUB book"),
        (zipHeader + Array("notes.txt".utf8), "a ZIP archive"),
        ([0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1, 0x00], "an older Word or Office document (.doc, .xls, .ppt)"),
        (Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WAVEfmt ".utf8), "a WAV recording"),
        (Array("FORM".utf8) + [0, 0, 0, 0x24] + Array("AIFFCOMM".utf8), "an AIFF recording"),
        (Array("ID3".utf8) + [0x03, 0x00, 0x00], "an MP3 recording"),
        ([0xFF, 0xFB, 0x90, 0x64, 0x00], "an MP3 recording"),
        (Array("fLaC".utf8) + [0, 0, 0, 0x22], "a FLAC recording"),
        (Array("OggS".utf8) + [0, 2], "an Ogg recording"),
        ([0, 0, 0, 0x20] + Array("ftypM4A ".utf8), "an M4A recording"),
        ([0x1F, 0x8B, 0x08, 0x00], "a gzip archive"),
    ] as [([UInt8], String)])
    func named(bytes: [UInt8], kind: String) {
        let error = thrown { () throws(NarrationError) in try ScriptReader.read(bytes, format: .plain, name: "file.txt") }
        #expect(error == NarrationError(.textUnreadable, "\"file.txt\" is \(kind), not a text: narrate reads plain text, Markdown or HTML in UTF-8, and Word, OpenDocument and PDF files named .docx, .odt or .pdf."))
    }

    @Test("texts that merely start with similar letters are read as texts")
    func texts() throws {
        for text in ["ID3 tags are read by players.", "PK is a bank code.", "RIFF raff.", "GIF images move.", "%PDF is a prefix."] {
            #expect(try ScriptReader.read(Array(text.utf8), format: .plain, name: "note.txt") == [paragraph(text)])
        }
    }

    @Test("UTF-16 is still named UTF-16, not taken for an MP3 by its byte order mark")
    func utf16() {
        let bytes: [UInt8] = [0xFF, 0xFE] + Array("hi".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let error = thrown { () throws(NarrationError) in try ScriptReader.read(bytes, format: .plain, name: "wide.txt") }
        #expect(error?.message == "\"wide.txt\" is UTF-16, not UTF-8: save it as UTF-8 and try again.")
    }
}
