import Foundation

/// The string literals of a Swift source file, with the line each starts on: the words a program
/// may show, without its comments and doc comments.
///
/// A literal with interpolations is split at them into its pieces of text (`"a \(b) c"` gives
/// "a " and " c"), and literals inside an interpolation are literals too. Single-line,
/// multi-line (`"""`) and raw (`#"…"#`) strings are read; escapes are kept as written.
struct SwiftStringLiterals {
    /// One piece of a literal's text and the line of the file it is on.
    struct Piece: Equatable, CustomStringConvertible {
        let line: Int
        let text: String
        var description: String { "\(line): \(text)" }
    }

    private let bytes: [UInt8]
    private var position = 0
    private var line = 1
    private(set) var pieces: [Piece] = []

    init(source: String) {
        bytes = Array(source.utf8)
        readCode(untilClosingParenthesis: false)
    }

    private func starts(with text: String, at index: Int) -> Bool {
        let pattern = Array(text.utf8)
        guard index + pattern.count <= bytes.count else { return false }
        return bytes[index..<(index + pattern.count)].elementsEqual(pattern)
    }

    private mutating func advance() {
        if bytes[position] == UInt8(ascii: "\n") { line += 1 }
        position += 1
    }

    /// Reads code, skipping comments, until the end of the file or, inside an interpolation, the
    /// parenthesis that closes it.
    private mutating func readCode(untilClosingParenthesis: Bool) {
        var depth = 0
        while position < bytes.count {
            if starts(with: "//", at: position) {
                while position < bytes.count, bytes[position] != UInt8(ascii: "\n") { position += 1 }
            } else if starts(with: "/*", at: position) {
                skipBlockComment()
            } else if bytes[position] == UInt8(ascii: "\"") || startsRawString() {
                readString()
            } else {
                let byte = bytes[position]
                advance()
                guard untilClosingParenthesis else { continue }
                if byte == UInt8(ascii: "(") { depth += 1 }
                if byte == UInt8(ascii: ")") {
                    if depth == 0 { return }
                    depth -= 1
                }
            }
        }
    }

    private func startsRawString() -> Bool {
        var index = position
        while index < bytes.count, bytes[index] == UInt8(ascii: "#") { index += 1 }
        return index > position && index < bytes.count && bytes[index] == UInt8(ascii: "\"")
    }

    /// Skips a block comment, nested ones included.
    private mutating func skipBlockComment() {
        var depth = 0
        repeat {
            if starts(with: "/*", at: position) {
                depth += 1
                position += 2
            } else if starts(with: "*/", at: position) {
                depth -= 1
                position += 2
            } else {
                advance()
            }
        } while depth > 0 && position < bytes.count
    }

    /// Reads a string literal from its opening quote (after any `#`s) to its closing one.
    private mutating func readString() {
        var hashes = 0
        while bytes[position] == UInt8(ascii: "#") {
            hashes += 1
            position += 1
        }
        let quote = starts(with: "\"\"\"", at: position) ? "\"\"\"" : "\""
        position += quote.utf8.count
        let close = quote + String(repeating: "#", count: hashes)
        let escape = "\\" + String(repeating: "#", count: hashes)
        var text: [UInt8] = []
        var startLine = line
        func keep(_ pieces: inout [Piece]) {
            pieces.append(Piece(line: startLine, text: String(decoding: text, as: UTF8.self)))
        }
        while position < bytes.count {
            if starts(with: close, at: position) {
                keep(&pieces)
                position += close.utf8.count
                return
            }
            if starts(with: escape + "(", at: position) {
                keep(&pieces)
                text = []
                position += escape.utf8.count + 1
                readCode(untilClosingParenthesis: true)
                startLine = line
                continue
            }
            if hashes == 0, bytes[position] == UInt8(ascii: "\\"), position + 1 < bytes.count {
                text.append(contentsOf: bytes[position...(position + 1)])
                advance()
                advance()
                continue
            }
            text.append(bytes[position])
            advance()
        }
    }
}
