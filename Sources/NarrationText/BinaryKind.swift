/// What a binary file is, told by its first bytes (its "magic number"), so that a file given as
/// an article's text is refused by name: "photo.png" is a PNG image, not a text that is "not
/// UTF-8". Only formats a volunteer is likely to pick by mistake are named: images, documents,
/// archives and recordings.
enum BinaryKind {
    /// "a PNG image", "a PDF document", … for bytes that start as such a file does; nil otherwise.
    static func name(of bytes: [UInt8]) -> String? {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && bytes[offset..<offset + prefix.count].elementsEqual(prefix)
        }
        func starts(_ prefix: String, at offset: Int = 0) -> Bool { starts(Array(prefix.utf8), at: offset) }

        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "a PNG image" }
        if starts([0xFF, 0xD8, 0xFF]) { return "a JPEG image" }
        if starts("GIF87a") || starts("GIF89a") { return "a GIF image" }
        if starts("RIFF"), starts("WEBP", at: 8) { return "a WebP image" }
        if starts("RIFF"), starts("WAVE", at: 8) { return "a WAV recording" }
        if starts("FORM"), starts("AIFF", at: 8) || starts("AIFC", at: 8) { return "an AIFF recording" }
        if starts("ftyp", at: 4) {
            if starts("heic", at: 8) || starts("heix", at: 8) || starts("mif1", at: 8) { return "a HEIC image" }
            return starts("M4A ", at: 8) ? "an M4A recording" : "an MP4 file"
        }
        if starts("%PDF-") { return "a PDF document" }
        if starts([0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) { return "an older Word or Office document (.doc, .xls, .ppt)" }
        if starts([0x50, 0x4B, 0x03, 0x04]) { return zipName(bytes) }
        if starts([0x1F, 0x8B]) { return "a gzip archive" }
        if starts("7z") && starts([0xBC, 0xAF, 0x27, 0x1C], at: 2) { return "a 7-Zip archive" }
        if starts("Rar!") { return "a RAR archive" }
        if starts("fLaC") { return "a FLAC recording" }
        if starts("OggS") { return "an Ogg recording" }
        if starts("ID3"), bytes.count > 4, (2...4).contains(bytes[3]), bytes[4] == 0 { return "an MP3 recording" }
        if bytes.count > 2, bytes[0] == 0xFF, bytes[1] & 0xE0 == 0xE0, bytes[1] & 0x06 != 0 { return "an MP3 recording" }
        if starts([0x7F, 0x45, 0x4C, 0x46]) { return "a program" }
        return nil
    }

    /// A ZIP archive's kind: the office documents and e-books that are ZIP archives are told by
    /// the names of the files inside (in the first 64 KiB) or their `mimetype` entry.
    private static func zipName(_ bytes: [UInt8]) -> String {
        let head = Array(bytes.prefix(64 << 10))
        func holds(_ text: String) -> Bool {
            TextBytes.firstIndex(of: Array(text.utf8), in: head, from: 0, ignoringASCIICase: false) != nil
        }
        if holds("word/") { return "a Word document (.docx)" }
        if holds("application/vnd.oasis.opendocument.text") { return "an OpenDocument text (.odt)" }
        if holds("application/epub+zip") { return "an EPUB book" }
        if holds("xl/") || holds("application/vnd.oasis.opendocument.spreadsheet") { return "a spreadsheet" }
        if holds("ppt/") || holds("application/vnd.oasis.opendocument.presentation") { return "a presentation" }
        return "a ZIP archive"
    }
}
