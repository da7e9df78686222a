/// Byte-level work on UTF-8 text: fast enough in any build for articles of thousands of
/// paragraphs, where going through `Character`s (grapheme clusters) is not.
enum UTF8Text {
    /// The length of the white-space character (Unicode `White_Space`) starting at `index`, or 0
    /// when none starts there. `buffer` holds well-formed UTF-8.
    static func whitespaceLength(_ buffer: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let byte = buffer[index]
        switch byte {
        case 0x09...0x0D, 0x20: return 1
        case 0xC2 where index + 1 < buffer.count:
            return buffer[index + 1] == 0x85 || buffer[index + 1] == 0xA0 ? 2 : 0  // U+0085, U+00A0
        case 0xE1 where index + 2 < buffer.count:
            return buffer[index + 1] == 0x9A && buffer[index + 2] == 0x80 ? 3 : 0  // U+1680
        case 0xE2 where index + 2 < buffer.count:
            let second = buffer[index + 1], third = buffer[index + 2]
            if second == 0x80, (0x80...0x8A).contains(third) || third == 0xA8 || third == 0xA9 || third == 0xAF { return 3 }  // U+2000…200A, 2028, 2029, 202F
            return second == 0x81 && third == 0x9F ? 3 : 0  // U+205F
        case 0xE3 where index + 2 < buffer.count:
            return buffer[index + 1] == 0x80 && buffer[index + 2] == 0x80 ? 3 : 0  // U+3000
        default: return 0
        }
    }

    /// `bytes` with every run of white space made one space, and none at either end.
    static func collapsingWhitespace(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var output = [UInt8]()
        output.reserveCapacity(bytes.count)
        var index = 0
        var spacePending = false
        while index < bytes.count {
            let length = whitespaceLength(bytes, at: index)
            if length > 0 {
                spacePending = !output.isEmpty
                index += length
            } else {
                if spacePending { output.append(0x20); spacePending = false }
                output.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Whether `bytes` are all white space (or none).
    static func isBlank(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index < bytes.count {
            let length = whitespaceLength(bytes, at: index)
            if length == 0 { return false }
            index += length
        }
        return true
    }
}
