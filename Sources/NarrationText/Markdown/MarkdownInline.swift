/// The inline Markdown of one paragraph or heading turned into the words it shows, as UTF-8
/// text: emphasis and strike-through markers dropped, code spans and links giving their text,
/// images and raw HTML tags and comments giving nothing, autolinks giving their address,
/// character references (`&eacute;`, `&#233;`) decoded (`CharacterReference`).
///
/// One pass from left to right with explicit stacks (brackets, emphasis openers) instead of
/// recursion or backtracking: every look-ahead is bounded or remembered, so the work grows in
/// step with the paragraph's length whatever it holds.
/// - A `]` matches the nearest open `[`; the link destination after it is scanned at most
///   `destinationLimit` bytes and `parenthesisLimit` parentheses deep.
/// - A code span's closing run of backticks is found through the list of runs of each length
///   made beforehand, with a cursor that only moves forward.
/// - The search for a link title's closing quote and for an HTML comment's end remembers where
///   the last one ended or failed, so no stretch of text is searched again and again.
/// Emphasis runs are paired as CommonMark's flanking rules say (simplified: the nearest opener of
/// the same character closes, without the rule of three); a run that neither opens nor closes,
/// such as the `*` in "5 * 3", or an opener never closed, stays as it is.
struct MarkdownInline {
    /// The longest link destination read; a longer one makes the brackets plain text.
    static let destinationLimit = 8192
    /// How deep parentheses may nest in a link destination.
    static let parenthesisLimit = 8

    /// The words of `text`, appended to `output`. `linkLabels` are the labels of the document's
    /// link reference definitions.
    static func appendWords(of text: [UInt8], linkLabels: Set<[UInt8]>, to output: inout [UInt8]) {
        text.withUnsafeBufferPointer { buffer in
            // Most paragraphs hold no markup at all: their bytes are their text.
            var plain = true
            var index = 0
            while plain, index < buffer.count {
                plain = !isMarkup[Int(buffer[index])]
                index += 1
            }
            guard !plain else { return output.append(contentsOf: buffer) }
            var reader = MarkdownInline(text: buffer, linkLabels: linkLabels)
            reader.run()
            guard reader.droppedAny else { return output.append(contentsOf: reader.out) }
            output.reserveCapacity(output.count + reader.out.count)
            for byte in reader.out where byte != dropped { output.append(byte) }
        }
    }

    /// Bytes of the output that turned out to be markup (a link's `[`, a pair of emphasis
    /// markers) are overwritten with this byte and left out at the end. NUL is never in a text
    /// narrate reads: `TextBytes.requireText` refuses it before any format reads the text.
    private static let dropped: UInt8 = 0

    /// The paragraph's bytes, valid during `appendWords` only (see `MarkdownBlocks.bytes`).
    private let text: UnsafeBufferPointer<UInt8>
    private let linkLabels: Set<[UInt8]>
    private var out: [UInt8] = []
    /// Whether any byte of `out` was overwritten with `dropped`.
    private var droppedAny = false
    private var index = 0

    private struct Bracket {
        let outputStart: Int
        let textStart: Int
        let isImage: Bool
    }
    private var brackets: [Bracket] = []

    private struct DelimiterRun {
        let outputStart: Int
        let length: Int
    }
    /// Open emphasis runs for `*`, `_` and `~`.
    private var openers: [UInt8: [DelimiterRun]] = [:]

    /// The starts of the runs of backticks of each length, and how far each list was used.
    private var backtickRuns: [Int: (starts: [Int], next: Int)] = [:]

    /// The last search for a closing quote or parenthesis of a link title: from where, and where
    /// it was found (nil: nowhere after `from`).
    private var titleSearches: [UInt8: (from: Int, found: Int?)] = [:]
    /// Where the last search for `-->` started and found it (nil: nowhere after).
    private var commentSearch: (from: Int, found: Int?)?

    private init(text: UnsafeBufferPointer<UInt8>, linkLabels: Set<[UInt8]>) {
        self.text = text
        self.linkLabels = linkLabels
        out.reserveCapacity(text.count)
        findBacktickRuns()
    }

    private mutating func run() {
        while index < text.count {
            let byte = text[index]
            switch byte {
            case UInt8(ascii: "\\"): readBackslash()
            case UInt8(ascii: "`"): readBackticks()
            case UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"): readDelimiterRun(byte)
            case UInt8(ascii: "!") where index + 1 < text.count && text[index + 1] == UInt8(ascii: "["):
                brackets.append(Bracket(outputStart: out.count, textStart: index + 2, isImage: true))
                out += [UInt8(ascii: "!"), UInt8(ascii: "[")]
                index += 2
            case UInt8(ascii: "["):
                brackets.append(Bracket(outputStart: out.count, textStart: index + 1, isImage: false))
                out.append(byte)
                index += 1
            case UInt8(ascii: "]"): readClosingBracket()
            case UInt8(ascii: "<"): readAngleBracket()
            case UInt8(ascii: "&"): readAmpersand()
            case 0x0A, 0x0D:
                out.append(0x20)
                index += 1
            default:
                out.append(byte)
                index += 1
            }
        }
    }

    /// The bytes that may start markup, by value.
    private static let isMarkup: [Bool] = (0...255).map { "\\`*_~[]!<>&\n\r".utf8.contains(UInt8($0)) }

    private static let lineBreak = Array("br".utf8)

    // MARK: Escapes and code

    private mutating func readBackslash() {
        guard index + 1 < text.count else {
            out.append(UInt8(ascii: "\\"))
            index += 1
            return
        }
        let next = text[index + 1]
        if Self.isPunctuation(next) {
            out.append(next)
            index += 2
        } else if next == 0x0A || next == 0x0D {
            out.append(0x20)  // a hard line break
            index += 2
        } else {
            out.append(UInt8(ascii: "\\"))
            index += 1
        }
    }

    private mutating func findBacktickRuns() {
        var position = 0
        while position < text.count {
            if text[position] == UInt8(ascii: "\\") { position += 2; continue }
            guard text[position] == UInt8(ascii: "`") else { position += 1; continue }
            var end = position
            while end < text.count, text[end] == UInt8(ascii: "`") { end += 1 }
            backtickRuns[end - position, default: ([], 0)].starts.append(position)
            position = end
        }
    }

    /// A code span: its text, as it is, up to the next run of as many backticks; without one,
    /// the backticks are text.
    private mutating func readBackticks() {
        var end = index
        while end < text.count, text[end] == UInt8(ascii: "`") { end += 1 }
        let length = end - index
        if var runs = backtickRuns[length] {
            while runs.next < runs.starts.count, runs.starts[runs.next] <= index { runs.next += 1 }
            backtickRuns[length] = runs
            if runs.next < runs.starts.count {
                let close = runs.starts[runs.next]
                for byte in text[end..<close] { out.append(byte == 0x0A || byte == 0x0D ? 0x20 : byte) }
                index = close + length
                return
            }
        }
        out.append(contentsOf: text[index..<end])
        index = end
    }

    // MARK: Emphasis

    private mutating func readDelimiterRun(_ marker: UInt8) {
        var end = index
        while end < text.count, text[end] == marker { end += 1 }
        let length = end - index
        let before = index > 0 ? text[index - 1] : nil
        let after = end < text.count ? text[end] : nil
        let start = out.count
        out.append(contentsOf: text[index..<end])
        index = end
        if marker == UInt8(ascii: "~"), length < 2 { return }

        let leftFlanking = !Self.isSpace(after) && (!Self.isPunctuation(after) || Self.isSpace(before) || Self.isPunctuation(before))
        let rightFlanking = !Self.isSpace(before) && (!Self.isPunctuation(before) || Self.isSpace(after) || Self.isPunctuation(after))
        var canOpen = leftFlanking
        var canClose = rightFlanking
        if marker == UInt8(ascii: "_") {
            canOpen = leftFlanking && (!rightFlanking || Self.isPunctuation(before))
            canClose = rightFlanking && (!leftFlanking || Self.isPunctuation(after))
        }
        if canClose, let opener = openers[marker]?.popLast() {
            drop(opener.outputStart..<opener.outputStart + opener.length)
            drop(start..<start + length)
        } else if canOpen {
            openers[marker, default: []].append(DelimiterRun(outputStart: start, length: length))
        }
    }

    private mutating func drop(_ range: Range<Int>) {
        for position in range { out[position] = Self.dropped }
        droppedAny = true
    }

    // MARK: Links and images

    /// A `]` closing the nearest `[`: a link when an inline destination `(…)`, a defined
    /// reference `[label]` or, without either, a defined label of its own follows. A link keeps
    /// its text; an image gives nothing. Anything else leaves both brackets as text.
    private mutating func readClosingBracket() {
        guard let opener = brackets.popLast() else {
            out.append(text[index])
            index += 1
            return
        }
        let after = index + 1
        var next: Int?
        if after < text.count, text[after] == UInt8(ascii: "(") {
            next = inlineLinkEnd(from: after)
        }
        if next == nil, after < text.count, text[after] == UInt8(ascii: "["), let end = referenceEnd(from: after) {
            let label = end == after + 1 ? label(opener.textStart..<index) : Array(text[(after + 1)..<end])
            if let label, linkLabels.contains(MarkdownBlocks.normalisedLabel(label)) { next = end + 1 }
        }
        if next == nil, !linkLabels.isEmpty, let label = label(opener.textStart..<index),
           linkLabels.contains(MarkdownBlocks.normalisedLabel(label)) {
            next = after
        }
        guard let next else {
            out.append(text[index])
            index += 1
            return
        }
        if opener.isImage {
            out.removeLast(out.count - opener.outputStart)
            for marker in openers.keys {
                while let last = openers[marker]?.last, last.outputStart >= opener.outputStart { openers[marker]?.removeLast() }
            }
        } else {
            drop(opener.outputStart..<opener.outputStart + 1)
        }
        index = next
    }

    /// The text of a link as a label: at most `labelLimit` bytes and no brackets, else nil.
    private func label(_ range: Range<Int>) -> [UInt8]? {
        guard range.count <= MarkdownBlocks.labelLimit else { return nil }
        for byte in text[range] where byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]") { return nil }
        return Array(text[range])
    }

    /// The index of the `]` closing a reference label that opens at `start`, or nil.
    private func referenceEnd(from start: Int) -> Int? {
        var position = start + 1
        while position < text.count, position - start <= MarkdownBlocks.labelLimit + 1 {
            switch text[position] {
            case UInt8(ascii: "]"): return position
            case UInt8(ascii: "["): return nil
            case UInt8(ascii: "\\"): position += 2
            default: position += 1
            }
        }
        return nil
    }

    /// After the `)` of an inline link's `(destination "title")` opening at `start`, or nil.
    private mutating func inlineLinkEnd(from start: Int) -> Int? {
        var position = skipWhitespace(from: start + 1)
        guard position < text.count else { return nil }
        let destinationStart = position
        if text[position] == UInt8(ascii: "<") {
            position += 1
            while position < text.count, text[position] != UInt8(ascii: ">") {
                let byte = text[position]
                if byte == UInt8(ascii: "<") || byte == 0x0A || byte == 0x0D || position - destinationStart > Self.destinationLimit { return nil }
                position += byte == UInt8(ascii: "\\") ? 2 : 1
            }
            guard position < text.count else { return nil }
            position += 1
        } else {
            var depth = 0
            while position < text.count {
                let byte = text[position]
                if byte <= 0x20 || position - destinationStart > Self.destinationLimit { break }
                if byte == UInt8(ascii: "\\") { position += 2; continue }
                if byte == UInt8(ascii: "(") {
                    depth += 1
                    if depth > Self.parenthesisLimit { return nil }
                } else if byte == UInt8(ascii: ")") {
                    if depth == 0 { break }
                    depth -= 1
                }
                position += 1
            }
            guard depth == 0, position < text.count, position - destinationStart <= Self.destinationLimit else { return nil }
        }
        let afterDestination = position
        position = skipWhitespace(from: position)
        guard position < text.count else { return nil }
        let opening = text[position]
        if position > afterDestination || position == destinationStart,
           opening == UInt8(ascii: "\"") || opening == UInt8(ascii: "'") || opening == UInt8(ascii: "(") {
            guard let close = titleEnd(opening == UInt8(ascii: "(") ? UInt8(ascii: ")") : opening, from: position + 1) else { return nil }
            position = skipWhitespace(from: close + 1)
        }
        guard position < text.count, text[position] == UInt8(ascii: ")") else { return nil }
        return position + 1
    }

    /// The next `closing` at or after `start`, remembering the answer for later searches that
    /// start before it (or, when there was none, anywhere after `start`).
    private mutating func titleEnd(_ closing: UInt8, from start: Int) -> Int? {
        if let last = titleSearches[closing], start >= last.from {
            guard let found = last.found else { return nil }
            if start <= found { return found }
        }
        var position = start
        while position < text.count, text[position] != closing { position += 1 }
        let found = position < text.count ? position : nil
        titleSearches[closing] = (start, found)
        return found
    }

    private func skipWhitespace(from start: Int) -> Int {
        var position = start
        while position < text.count, Self.isSpace(text[position]) { position += 1 }
        return position
    }

    // MARK: Angle brackets and ampersands

    /// An HTML comment (dropped), an autolink (its address), an HTML tag (dropped; `<br>` is a
    /// space), or a `<` in the text.
    private mutating func readAngleBracket() {
        // Byte by byte, not a slice compared: this runs for every `<`, and text made of
        // nothing else must still read in linear time with a small constant.
        if text.count - index >= 4, text[index + 1] == UInt8(ascii: "!"), text[index + 2] == UInt8(ascii: "-"), text[index + 3] == UInt8(ascii: "-") {
            if let end = commentEnd(from: index + 4) {
                index = end + 3
                return
            }
        } else if let end = autolinkOrTagEnd() {
            let inner = text[(index + 1)..<end]
            if inner.contains(UInt8(ascii: ":")) || inner.contains(UInt8(ascii: "@")), !Self.isTag(inner) {
                out.append(contentsOf: inner)
            } else if Self.tagName(inner) == Self.lineBreak {
                out.append(0x20)
            }
            index = end + 1
            return
        }
        out.append(UInt8(ascii: "<"))
        index += 1
    }

    private mutating func commentEnd(from start: Int) -> Int? {
        if let last = commentSearch, start >= last.from {
            guard let found = last.found else { return nil }
            if start <= found { return found }
        }
        var position = start
        var found: Int?
        while position + 2 < text.count {
            if text[position] == UInt8(ascii: "-"), text[position + 1] == UInt8(ascii: "-"), text[position + 2] == UInt8(ascii: ">") {
                found = position
                break
            }
            position += 1
        }
        commentSearch = (start, found)
        return found
    }

    /// The index of the `>` closing an autolink (`<scheme:…>`, `<name@host>`) or an HTML tag
    /// (`<name …>`, `</name>`) that starts at `index`, or nil. The scan stops at the next `<`,
    /// so no stretch of text is scanned twice.
    private func autolinkOrTagEnd() -> Int? {
        var position = index + 1
        guard position < text.count else { return nil }
        if text[position] == UInt8(ascii: "/") { position += 1 }
        guard position < text.count, Self.isASCIILetter(text[position]) else { return nil }
        while position < text.count, position - index <= 2048 {
            switch text[position] {
            case UInt8(ascii: ">"): return position
            case UInt8(ascii: "<"): return nil
            default: position += 1
            }
        }
        return nil
    }

    /// Whether `inner` (between `<` and `>`) reads as a tag: a name, then white space, `/` or the end.
    private static func isTag(_ inner: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        var position = inner.startIndex
        if position < inner.endIndex, inner[position] == UInt8(ascii: "/") { position += 1 }
        while position < inner.endIndex, isASCIILetter(inner[position]) || isDigit(inner[position]) || inner[position] == UInt8(ascii: "-") { position += 1 }
        return position == inner.endIndex || isSpace(inner[position]) || inner[position] == UInt8(ascii: "/")
    }

    private static func tagName(_ inner: Slice<UnsafeBufferPointer<UInt8>>) -> [UInt8] {
        inner.drop { $0 == UInt8(ascii: "/") }.prefix { isASCIILetter($0) || isDigit($0) }.map(TextBytes.lowercasedASCII)
    }

    /// A character reference (`&name;`, `&#233;`, `&#xE9;`) gives its character; any other `&`
    /// is text.
    private mutating func readAmpersand() {
        var position = index + 1
        var character: Unicode.Scalar?
        if position < text.count, text[position] == UInt8(ascii: "#") {
            position += 1
            let hex = position < text.count && (text[position] == UInt8(ascii: "x") || text[position] == UInt8(ascii: "X"))
            if hex { position += 1 }
            let digitsStart = position
            var value = 0
            while position < text.count, position - digitsStart < 7, hex ? Self.isHexDigit(text[position]) : Self.isDigit(text[position]) {
                let digit = text[position]
                value = value * (hex ? 16 : 10) + (Self.isDigit(digit) ? Int(digit - 0x30) : Int(TextBytes.lowercasedASCII(digit) - 0x61 + 10))
                position += 1
            }
            let digits = position - digitsStart
            if digits >= 1, digits <= (hex ? 6 : 7), position < text.count, text[position] == UInt8(ascii: ";") {
                character = CharacterReference.character(codePoint: value)
            }
        } else {
            let nameStart = position
            while position < text.count, position - nameStart < 32, Self.isASCIILetter(text[position]) || Self.isDigit(text[position]) { position += 1 }
            if position > nameStart, position < text.count, text[position] == UInt8(ascii: ";") {
                character = CharacterReference.character(named: Array(text[nameStart..<position]))
            }
        }
        if let character {
            out.append(contentsOf: String(character).utf8)
            index = position + 1
        } else {
            out.append(UInt8(ascii: "&"))
            index += 1
        }
    }

    // MARK: Bytes

    private static func isSpace(_ byte: UInt8?) -> Bool {
        guard let byte else { return true }
        return byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    private static func isPunctuation(_ byte: UInt8?) -> Bool {
        guard let byte else { return false }
        return (0x21...0x2F).contains(byte) || (0x3A...0x40).contains(byte) || (0x5B...0x60).contains(byte) || (0x7B...0x7E).contains(byte)
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    private static func isHexDigit(_ byte: UInt8) -> Bool { isDigit(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte) }
}
