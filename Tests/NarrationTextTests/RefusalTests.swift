import Foundation
import NarrationCore
import NarrationText
import Testing

@Suite("Files that cannot be read")
struct RefusalTests {
    @Test("a binary file (a PNG) is named for what it is, whatever its name")
    func binary() throws {
        let folder = try TextFolder()
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
                            0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x10, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0xF3, 0xFF, 0x61]
        let path = try folder.write("notes.pdf", bytes: png)
        let error = thrown { () throws(NarrationError) in try ScriptReader.read(fileAt: path) }
        #expect(error == NarrationError(.textUnreadable, "\"notes.pdf\" is a PNG image, not a text: narrate reads plain text, Markdown or HTML in UTF-8, and Word, OpenDocument and PDF files named .docx, .odt or .pdf."))
        #expect(error?.subject == .file(path))
    }

    @Test("control characters without NUL bytes are not text either")
    func controlCharacters() {
        let bytes: [UInt8] = Array("ab".utf8) + [0x01, 0x02, 0x03, 0x04] + Array("cdefgh".utf8)
        let error = thrown { () throws(NarrationError) in try ScriptReader.read(bytes, format: .plain, name: "data.bin") }
        #expect(error?.message == "\"data.bin\" is not a text file: narrate reads plain text, Markdown or HTML in UTF-8, and Word, OpenDocument and PDF files named .docx, .odt or .pdf.")
    }

    @Test("UTF-16 is named as such")
    func utf16() {
        let bytes: [UInt8] = [0xFF, 0xFE] + Array("hi".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let error = thrown { () throws(NarrationError) in try ScriptReader.read(bytes, format: .plain, name: "wide.txt") }
        #expect(error?.message == "\"wide.txt\" is UTF-16, not UTF-8: save it as UTF-8 and try again.")
    }

    @Test("Latin-1 text names the first byte that is not UTF-8 and its offset")
    func latin1() throws {
        let folder = try TextFolder()
        let bytes = Array("A short note.\n\nMeet at the caf".utf8) + [0xE9] + Array(" at noon.\n".utf8)
        let path = try folder.write("old.txt", bytes: bytes)
        let error = thrown { () throws(NarrationError) in try ScriptReader.read(fileAt: path) }
        #expect(error == NarrationError(.textUnreadable, "\"old.txt\" is not UTF-8 (byte 0xE9 at offset 30): save it as UTF-8 and try again."))
        #expect(error?.kind == .textUnreadable)
        #expect(error?.subject == .file(path))
    }

    @Test("the offset counts the byte order mark, as the file has it")
    func offsetAfterBOM() {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("ab".utf8) + [0xC3, 0x28]
        let error = thrown { () throws(NarrationError) in try ScriptReader.read(bytes, format: .markdown, name: "x.md") }
        #expect(error?.message == "\"x.md\" is not UTF-8 (byte 0xC3 at offset 5): save it as UTF-8 and try again.")
    }

    @Test("an empty file and a file of white space have no text to read", arguments: [
        ("empty.txt", ""), ("blank.txt", " \n\t\r\n  \n"), ("empty.md", ""), ("blank.md", "\n\n   \n"), ("empty.html", ""), ("blank.html", "  \n "),
    ])
    func empty(name: String, text: String) throws {
        let folder = try TextFolder()
        let path = try folder.write(name, text)
        let error = thrown { () throws(NarrationError) in try ScriptReader.read(fileAt: path) }
        #expect(error == NarrationError(.textUnreadable, "\"\(name)\" has no text to read."))
    }

    @Test("a missing file is a file-system error naming the path and the reason")
    func missing() throws {
        let folder = try TextFolder()
        let path = folder.url.appendingPathComponent("gone.txt").path
        let error = thrown { () throws(NarrationError) in try ScriptReader.read(fileAt: path) }
        #expect(error == NarrationError(.fileSystem, "Cannot read \(path): No such file or directory."))
        #expect(error?.cause == .system(errno: 2))
        #expect(error?.subject == .file(path))
    }

    @Test("a folder is not a file to read")
    func folderPath() throws {
        let folder = try TextFolder()
        let error = thrown { () throws(NarrationError) in try ScriptReader.read(fileAt: folder.url.path) }
        #expect(error == NarrationError(.fileSystem, "Cannot read \(folder.url.path): Is a directory."))
    }
}
