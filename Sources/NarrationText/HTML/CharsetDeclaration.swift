/// The character set an HTML document declares for itself, found before parsing so that a
/// document that declares none is held to UTF-8.
///
/// Looked for as a browser does, in the document's first 64 KiB: `<meta charset="…">`,
/// `<meta http-equiv="Content-Type" content="text/html; charset=…">`, or an XML declaration's
/// `encoding="…"`.
enum CharsetDeclaration {
    /// The declared name as written (lowercased), or nil when the document declares none.
    static func find(in bytes: [UInt8]) -> String? {
        bytes.withUnsafeBufferPointer { buffer in
            let end = min(buffer.count, 65_536)
            var index = 0
            while index < end {
                guard buffer[index] == UInt8(ascii: "<") else { index += 1; continue }
                let isXMLDeclaration = index < 4 && startsTag("?xml", buffer, at: index + 1)
                guard isXMLDeclaration || startsTag("meta", buffer, at: index + 1) else { index += 1; continue }
                var close = index + 1
                while close < buffer.count, buffer[close] != UInt8(ascii: ">") { close += 1 }
                let tag = buffer[index..<close].map(TextBytes.lowercasedASCII)
                if let name = value(after: isXMLDeclaration ? "encoding" : "charset", in: tag[...]) { return name }
                index = close
            }
            return nil
        }
    }

    /// Whether `name` (lowercase ASCII) follows at `index`, in any case.
    private static func startsTag(_ name: String, _ buffer: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        var position = index
        for wanted in name.utf8 {
            guard position < buffer.count, TextBytes.lowercasedASCII(buffer[position]) == wanted else { return false }
            position += 1
        }
        return true
    }

    /// The name libxml2 (iconv) is to convert from, or nil for UTF-8. As in browsers, Latin-1 and
    /// ASCII labels mean windows-1252, and a UTF-16 label in a document that is bytes means UTF-8.
    static func libXML2Name(_ declared: String) -> String? {
        switch declared {
        case "utf-8", "utf8", "unicode-1-1-utf-8", "utf-16", "utf-16le", "utf-16be", "unicode": nil
        case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "l1", "us-ascii", "ascii", "cp1252", "windows-1252", "x-cp1252": "WINDOWS-1252"
        default: declared.uppercased()
        }
    }

    /// The value after `key` and `=` in a tag: quoted or not, up to a quote, space, `;` or `/`.
    private static func value(after key: String, in tag: ArraySlice<UInt8>) -> String? {
        let tagBytes = Array(tag)
        var from = 0
        while let found = TextBytes.firstIndex(of: Array(key.utf8), in: tagBytes, from: from, ignoringASCIICase: false) {
            var index = found + key.utf8.count
            from = index
            while index < tagBytes.count, TextBytes.isASCIIWhitespace(tagBytes[index]) { index += 1 }
            guard index < tagBytes.count, tagBytes[index] == UInt8(ascii: "=") else { continue }
            index += 1
            while index < tagBytes.count, TextBytes.isASCIIWhitespace(tagBytes[index]) || tagBytes[index] == UInt8(ascii: "\"") || tagBytes[index] == UInt8(ascii: "'") {
                index += 1
            }
            let stops: Set<UInt8> = Set("\"' ;/>\t\n\r".utf8)
            let end = tagBytes[index...].firstIndex(where: stops.contains) ?? tagBytes.count
            guard end > index, let name = String(validating: tagBytes[index..<end], as: UTF8.self) else { return nil }
            return name
        }
        return nil
    }
}
