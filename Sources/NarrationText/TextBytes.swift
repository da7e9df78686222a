import NarrationCore

/// What a file's bytes are before any format reads them: text or binary, UTF-8 or not, and the
/// sentences that refuse them. Every refusal is a `textUnreadable` error naming the file.
enum TextBytes {
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// What narrate reads as an article's text, as the refusals say it.
    static let readableFormats = "plain text, Markdown or HTML in UTF-8, and Word, OpenDocument and PDF files named .docx, .odt or .pdf"

    /// The name and path a refusal speaks of: the file's name in the sentence, its path as the subject.
    struct Source {
        let name: String
        let path: String

        func refusal(_ sentence: String) -> NarrationError {
            NarrationError(.textUnreadable, sentence, subject: .file(path))
        }

        var notText: NarrationError {
            refusal("\"\(name)\" is not a text file: narrate reads \(TextBytes.readableFormats).")
        }

        /// A file whose first bytes say what it is (`BinaryKind`): "a PNG image".
        func binary(_ kind: String) -> NarrationError {
            refusal("\"\(name)\" is \(kind), not a text: narrate reads \(TextBytes.readableFormats).")
        }

        var nothingToRead: NarrationError { refusal("\"\(name)\" has no text to read.") }

        func notUTF8(byte: UInt8, offset: Int) -> NarrationError {
            let hex = String(byte, radix: 16, uppercase: true)
            return refusal("\"\(name)\" is not UTF-8 (byte 0x\(hex.count < 2 ? "0" + hex : hex) at offset \(offset)): save it as UTF-8 and try again.")
        }

        func utf16(_ form: String) -> NarrationError {
            refusal("\"\(name)\" is \(form), not UTF-8: save it as UTF-8 and try again.")
        }
    }

    /// Refuses bytes that are not text: UTF-16 or UTF-32 (by their byte order mark), a file whose
    /// first bytes name its kind (an image, a document, an archive, a recording: `BinaryKind`),
    /// any NUL byte, or more than one byte in ten a control character other than tab, line feed,
    /// form feed, carriage return and escape.
    static func requireText(_ bytes: [UInt8], _ source: Source) throws(NarrationError) {
        if bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) || bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) { throw source.utf16("UTF-32") }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) { throw source.utf16("UTF-16") }
        if let kind = BinaryKind.name(of: bytes) { throw source.binary(kind) }
        let (hasNUL, controls) = bytes.withUnsafeBufferPointer { buffer in
            var controls = 0
            var index = 0
            while index < buffer.count {
                switch buffer[index] {
                case 0x00: return (true, controls)
                case 0x09, 0x0A, 0x0C, 0x0D, 0x1B: break
                case 0x01...0x1F, 0x7F: controls += 1
                default: break
                }
                index += 1
            }
            return (false, controls)
        }
        if hasNUL || controls * 10 > bytes.count { throw source.notText }
    }

    /// The text of UTF-8 bytes, without a leading byte order mark.
    /// - Throws: `textUnreadable` naming the first byte that is not UTF-8 and its offset in the file.
    static func decodeUTF8(_ bytes: [UInt8], _ source: Source) throws(NarrationError) -> String {
        let start = bytes.starts(with: byteOrderMark) ? 3 : 0
        let body = bytes[start...]
        // The standard library's validation is fast in any build; the slow search for the bad
        // byte runs only when there is one.
        if let text = String(validating: body, as: UTF8.self) { return text }
        let offset = firstInvalidUTF8(body) ?? start
        throw source.notUTF8(byte: bytes[offset], offset: offset)
    }

    /// The index of the first byte of the first ill-formed UTF-8 sequence, or nil when all are well formed.
    static func firstInvalidUTF8(_ bytes: ArraySlice<UInt8>) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = bytes.startIndex
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    static func lowercasedASCII(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
    }

    /// Where `needle` (lowercase ASCII) first occurs in `bytes` at or after `start`.
    static func firstIndex(of needle: [UInt8], in bytes: [UInt8], from start: Int, ignoringASCIICase: Bool) -> Int? {
        guard !needle.isEmpty, bytes.count >= needle.count else { return nil }
        var index = start
        while index <= bytes.count - needle.count {
            var matched = true
            for (offset, wanted) in needle.enumerated() {
                let byte = ignoringASCIICase ? lowercasedASCII(bytes[index + offset]) : bytes[index + offset]
                if byte != wanted { matched = false; break }
            }
            if matched { return index }
            index += 1
        }
        return nil
    }
}

/// Collects paragraphs from text that arrives in pieces, collapsing white space.
struct ParagraphCollector {
    private(set) var paragraphs: [ScriptParagraph] = []
    private var pending: [UInt8] = []

    /// Adds text to the paragraph under way.
    mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { pending.append(contentsOf: $0) }
    }

    /// Adds UTF-8 bytes to the paragraph under way.
    mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) { pending.append(contentsOf: bytes) }

    /// Ends the paragraph under way as `kind`: its runs of white space become one space and it is
    /// trimmed; an empty paragraph is dropped.
    mutating func end(as kind: ScriptParagraph.Kind) {
        guard !pending.isEmpty else { return }
        let text = pending.withUnsafeBufferPointer(UTF8Text.collapsingWhitespace)
        pending.removeAll(keepingCapacity: true)
        if !text.isEmpty { paragraphs.append(ScriptParagraph(kind: kind, text: text)) }
    }
}
