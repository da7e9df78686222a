/// A document type declaration's internal subset (`<!DOCTYPE html [ <!ENTITY …> ]>`), which
/// libxml2's HTML parser does not know: it would read the declarations' end, "]>", as the page's
/// first paragraph. The subset is removed before parsing; entities it declares stay unexpanded.
enum DoctypeSubset {
    /// `bytes` without the internal subset of a `<!DOCTYPE` that comes first (after white space,
    /// comments and an XML declaration); the same bytes when there is none. A subset that never
    /// ends takes the rest of the document with it.
    static func removed(from bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var index = bytes.startIndex
        // Before the DOCTYPE: white space, comments, an XML declaration.
        while index < bytes.endIndex {
            if TextBytes.isASCIIWhitespace(bytes[index]) { index += 1; continue }
            if starts(bytes, at: index, with: "<!--") { index = end(of: "-->", in: bytes, from: index + 4); continue }
            if starts(bytes, at: index, with: "<?") { index = end(of: "?>", in: bytes, from: index + 2); continue }
            break
        }
        guard starts(bytes, at: index, with: "<!doctype") else { return bytes }
        var quote: UInt8?
        var cursor = index + 9
        while cursor < bytes.endIndex {
            let byte = bytes[cursor]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return bytes
            } else if byte == UInt8(ascii: "[") {
                let close = endOfSubset(in: bytes, from: cursor + 1)
                var result = Array(bytes[bytes.startIndex..<cursor])
                result.append(contentsOf: bytes[close...])
                return result[...]
            }
            cursor += 1
        }
        return bytes
    }

    /// The index just after the `]` that closes a subset opened before `start` (skipping quoted
    /// strings and comments), or the end.
    private static func endOfSubset(in bytes: ArraySlice<UInt8>, from start: Int) -> Int {
        var quote: UInt8?
        var cursor = start
        while cursor < bytes.endIndex {
            let byte = bytes[cursor]
            if let open = quote {
                if byte == open { quote = nil }
            } else if starts(bytes, at: cursor, with: "<!--") {
                cursor = end(of: "-->", in: bytes, from: cursor + 4)
                continue
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "]") {
                return cursor + 1
            }
            cursor += 1
        }
        return bytes.endIndex
    }

    /// Whether `bytes` at `index` start with `text` (lowercase ASCII), in any case.
    private static func starts(_ bytes: ArraySlice<UInt8>, at index: Int, with text: String) -> Bool {
        let needle = Array(text.utf8)
        guard index >= bytes.startIndex, bytes.endIndex - index >= needle.count else { return false }
        return needle.indices.allSatisfy { TextBytes.lowercasedASCII(bytes[index + $0]) == needle[$0] }
    }

    /// The index just after the first `terminator` at or after `start`, or the end.
    private static func end(of terminator: String, in bytes: ArraySlice<UInt8>, from start: Int) -> Int {
        var cursor = start
        while cursor < bytes.endIndex {
            if starts(bytes, at: cursor, with: terminator) { return cursor + terminator.utf8.count }
            cursor += 1
        }
        return bytes.endIndex
    }
}
