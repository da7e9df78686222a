/// Markdown's block structure, read line by line in one pass: headings (`#` and underlined),
/// paragraphs, list items, block quotes, fenced code, tables, rules, HTML comments, link
/// reference definitions and front matter.
///
/// Only what narrate reads is kept of the structure: each list item, quoted paragraph and table
/// cell is a paragraph of its own, and nesting is not recorded. Container markers (`>`, `-`,
/// `1.`) are taken off a line one after the other in a loop, so a line of ten thousand `>` costs
/// ten thousand steps and no recursion. Every line is looked at a bounded number of times.
struct MarkdownBlocks {
    enum Kind: Equatable {
        case heading(level: Int)
        case paragraph
        /// The lines of a fenced code block: read as they are, with no inline Markdown.
        case code
    }

    struct Block: Equatable {
        var kind: Kind
        /// The block's text as it stands in the Markdown, its lines joined by LF.
        var text: [UInt8]
    }

    /// The blocks in document order.
    private(set) var blocks: [Block] = []
    /// The labels of the link reference definitions (`[label]: https://…`), normalised as
    /// `MarkdownBlocks.normalisedLabel` does: a `[text]` link with such a label reads as its text.
    private(set) var linkLabels: Set<[UInt8]> = []

    /// The Markdown's bytes, valid during `read` only: a buffer rather than an array, as each
    /// access to an array retains and releases it in a debug build, which made reading several
    /// times slower there.
    private let bytes: UnsafeBufferPointer<UInt8>
    private var paragraphLines: [Range<Int>] = []
    private var paragraphQuoteDepth = 0
    /// Whether the paragraph under way is a list item's: then the next item may start on any line.
    private var paragraphIsItem = false
    private var fence: Fence?
    /// The end marker of an HTML comment or script block whose lines are skipped.
    private var skippingUntil: [UInt8]?
    private var inTable = false

    private struct Fence {
        let marker: UInt8
        let length: Int
        let quoteDepth: Int
        var lines: [Range<Int>] = []
    }

    /// The blocks of UTF-8 Markdown; lines end in LF, CRLF or a lone CR.
    static func read(_ bytes: [UInt8]) -> (blocks: [Block], linkLabels: Set<[UInt8]>) {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = MarkdownBlocks(bytes: buffer)
            var lines = reader.lines()[...]
            if let close = reader.frontMatterEnd(lines) { lines = lines[(close + 1)...] }
            for line in lines { reader.read(line) }
            reader.endParagraph()
            if let fence = reader.fence { reader.appendCode(fence) }
            return (reader.blocks, reader.linkLabels)
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    // MARK: Lines

    private func lines() -> [Range<Int>] {
        var lines: [Range<Int>] = []
        var start = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == 0x0A || byte == 0x0D else { index += 1; continue }
            lines.append(start..<index)
            index += byte == 0x0D && index + 1 < bytes.count && bytes[index + 1] == 0x0A ? 2 : 1
            start = index
        }
        if start < bytes.count { lines.append(start..<bytes.count) }
        return lines
    }

    /// Front matter: a first line `---` opens metadata up to the next `---` or `...` line; its
    /// lines are not read. Without a closing line there is no front matter.
    private func frontMatterEnd(_ lines: ArraySlice<Range<Int>>) -> Int? {
        guard let first = lines.first, trimmed(first).elementsEqual("---".utf8) else { return nil }
        return lines.dropFirst().firstIndex { let line = trimmed($0); return line.elementsEqual("---".utf8) || line.elementsEqual("...".utf8) }
    }

    private func trimmed(_ line: Range<Int>) -> Slice<UnsafeBufferPointer<UInt8>> {
        var lower = line.lowerBound, upper = line.upperBound
        while lower < upper, Self.isSpaceOrTab(bytes[lower]) { lower += 1 }
        while upper > lower, Self.isSpaceOrTab(bytes[upper - 1]) { upper -= 1 }
        return bytes[lower..<upper]
    }

    // MARK: One line

    private mutating func read(_ line: Range<Int>) {
        let end = line.upperBound
        if fence != nil { return readInFence(line) }
        var index = line.lowerBound
        if let marker = skippingUntil {
            guard let found = find(marker, in: index..<end) else { return }
            skippingUntil = nil
            index = found + marker.count
            if isBlank(index..<end) { return }
        }

        // Containers: block quote markers and list item markers, one after the other. Where a
        // rule could start is found once, not after each marker: "- - - … x" stays linear.
        var quoteDepth = 0
        var newItem = false
        let ruleStart = thematicBreakSuffixStart(index..<end)
        while true {
            index = skipSpaces(from: index, to: end)
            guard index < end else { break }
            if bytes[index] == UInt8(ascii: ">") {
                quoteDepth += 1
                index += 1
                continue
            }
            if index >= ruleStart, isThematicBreak(index..<end) { break }
            let interrupting = !paragraphLines.isEmpty && !paragraphIsItem && !newItem && quoteDepth <= paragraphQuoteDepth
            guard let after = listMarkerEnd(at: index, end: end, interruptingParagraph: interrupting) else { break }
            newItem = true
            index = after
        }

        guard !isBlank(index..<end) else {
            endParagraph()
            inTable = false
            return
        }
        if newItem || quoteDepth > paragraphQuoteDepth { endParagraph() }
        if newItem { inTable = false }
        let content = index..<end

        if let opened = fenceOpening(content) {
            endParagraph()
            fence = Fence(marker: opened.marker, length: opened.length, quoteDepth: quoteDepth)
            return
        }
        if startsWith(Self.commentOpening, at: index, end: end) {
            endParagraph()
            guard let close = find(Self.commentClosing, in: (index + 4)..<end) else { skippingUntil = Self.commentClosing; return }
            let rest = (close + 3)..<end
            if !isBlank(rest) { paragraphQuoteDepth = quoteDepth; paragraphLines.append(rest) }
            return
        }
        if bytes[index] == UInt8(ascii: "<") {
            for (opening, closing) in Self.skippedElements where startsWithTag(opening, at: index, end: end) {
                endParagraph()
                if find(closing, in: index..<end) == nil { skippingUntil = closing }
                return
            }
        }
        if let heading = atxHeading(content) {
            endParagraph()
            inTable = false
            blocks.append(Block(kind: .heading(level: heading.level), text: Array(bytes[heading.text])))
            return
        }
        let canUnderline = !paragraphLines.isEmpty && !newItem && !inTable
        if isThematicBreak(content) {
            if canUnderline, isUnderline(content, of: UInt8(ascii: "-")) {
                endParagraph(as: .heading(level: 2))
            } else {
                endParagraph()
            }
            return
        }
        if canUnderline, isUnderline(content, of: UInt8(ascii: "=")) { return endParagraph(as: .heading(level: 1)) }
        if readTableRow(content) { return }
        if paragraphLines.isEmpty, let label = linkDefinitionLabel(content) {
            linkLabels.insert(label)
            return
        }
        if paragraphLines.isEmpty {
            paragraphQuoteDepth = quoteDepth
            paragraphIsItem = newItem
        }
        paragraphLines.append(content)
    }

    private mutating func readInFence(_ line: Range<Int>) {
        // The fence's fields are read one by one: a copy of the whole fence held here would make
        // the append below copy its lines, and a long block quadratic.
        guard let marker = fence?.marker, let length = fence?.length, let quoteDepth = fence?.quoteDepth else { return }
        var index = skipSpaces(from: line.lowerBound, to: line.upperBound)
        var depth = 0
        while depth < quoteDepth, index < line.upperBound, bytes[index] == UInt8(ascii: ">") {
            depth += 1
            index = skipSpaces(from: index + 1, to: line.upperBound)
        }
        var run = index
        while run < line.upperBound, bytes[run] == marker { run += 1 }
        if run - index >= length, isBlank(run..<line.upperBound), let closed = fence {
            fence = nil
            appendCode(closed)
            return
        }
        fence?.lines.append(index..<line.upperBound)
    }

    // MARK: Blocks made

    private mutating func endParagraph(as kind: Kind = .paragraph) {
        guard !paragraphLines.isEmpty else { return }
        blocks.append(Block(kind: kind, text: joined(paragraphLines)))
        paragraphLines.removeAll(keepingCapacity: true)
        paragraphQuoteDepth = 0
        paragraphIsItem = false
    }

    private mutating func appendCode(_ fence: Fence) {
        guard !fence.lines.isEmpty else { return }
        blocks.append(Block(kind: .code, text: joined(fence.lines)))
    }

    private func joined(_ lines: [Range<Int>]) -> [UInt8] {
        var text: [UInt8] = []
        text.reserveCapacity(lines.reduce(0) { $0 + $1.count + 1 })
        for (number, line) in lines.enumerated() {
            if number > 0 { text.append(0x0A) }
            text.append(contentsOf: bytes[line])
        }
        return text
    }

    // MARK: Tables

    /// A table row (a line starting with `|`, or any line with `|` inside a table) gives each
    /// cell as a paragraph; the delimiter row (`|---|:--:|`) gives nothing, and turns the
    /// one-line paragraph above it into the table's header row when that line has a `|`.
    private mutating func readTableRow(_ content: Range<Int>) -> Bool {
        let pipe = UInt8(ascii: "|")
        let startsWithPipe = bytes[content.lowerBound] == pipe
        if !inTable, !startsWithPipe {
            guard paragraphLines.count == 1, let header = paragraphLines.first, contains(pipe, in: header),
                  isDelimiterRow(content) else { return false }
            paragraphLines = []
            appendCells(header)
            inTable = true
            return true
        }
        if isDelimiterRow(content) {
            endParagraph()
            inTable = true
            return true
        }
        guard startsWithPipe || contains(pipe, in: content) else {
            inTable = false
            return false
        }
        endParagraph()
        inTable = true
        appendCells(content)
        return true
    }

    private func isDelimiterRow(_ content: Range<Int>) -> Bool {
        var pipe = false, dash = false
        var index = content.lowerBound
        while index < content.upperBound {
            switch bytes[index] {
            case UInt8(ascii: "|"): pipe = true
            case UInt8(ascii: "-"): dash = true
            case UInt8(ascii: ":"), 0x20, 0x09: break
            default: return false
            }
            index += 1
        }
        return pipe && dash
    }

    private mutating func appendCells(_ row: Range<Int>) {
        var start = row.lowerBound
        var index = row.lowerBound
        while index <= row.upperBound {
            if index < row.upperBound, bytes[index] == UInt8(ascii: "\\") { index += 2; continue }
            if index >= row.upperBound || bytes[index] == UInt8(ascii: "|") {
                let cell = min(start, row.upperBound)..<min(index, row.upperBound)
                if !isBlank(cell) { blocks.append(Block(kind: .paragraph, text: Array(trimmed(cell)))) }
                start = index + 1
            }
            index += 1
        }
    }

    // MARK: What a line starts with

    /// After a list item marker (`-`, `+`, `*`, or 1 to 9 digits and `.` or `)`, followed by a
    /// space, a tab or the end of the line), or nil. A marker interrupting a paragraph must be
    /// followed by text and, if numbered, be 1: "1986. That year" on a wrapped line stays text
    /// (a list item's paragraph is interrupted by any item: the list goes on).
    private func listMarkerEnd(at index: Int, end: Int, interruptingParagraph: Bool) -> Int? {
        var after = index
        let first = bytes[index]
        if first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: "*") {
            after = index + 1
        } else {
            while after < end, after - index < 10, Self.isDigit(bytes[after]) { after += 1 }
            let digits = after - index
            guard (1...9).contains(digits), after < end, bytes[after] == UInt8(ascii: ".") || bytes[after] == UInt8(ascii: ")") else { return nil }
            if interruptingParagraph, !(digits == 1 && first == UInt8(ascii: "1")) { return nil }
            after += 1
        }
        guard after == end || Self.isSpaceOrTab(bytes[after]) else { return nil }
        if interruptingParagraph, isBlank(after..<end) { return nil }
        return after
    }

    /// Where the longest run at the end of `line` of one of `-`, `*` or `_`, spaces and tabs
    /// starts: a thematic break can start nowhere before it.
    private func thematicBreakSuffixStart(_ line: Range<Int>) -> Int {
        var start = line.upperBound
        var marker: UInt8?
        while start > line.lowerBound {
            let byte = bytes[start - 1]
            if Self.isSpaceOrTab(byte) { start -= 1; continue }
            guard byte == UInt8(ascii: "-") || byte == UInt8(ascii: "*") || byte == UInt8(ascii: "_") else { break }
            if marker == nil { marker = byte }
            guard byte == marker else { break }
            start -= 1
        }
        return start
    }

    /// Three or more `-`, `*` or `_`, all the same, with only spaces or tabs between.
    private func isThematicBreak(_ content: Range<Int>) -> Bool {
        var marker: UInt8?
        var count = 0
        var index = content.lowerBound
        while index < content.upperBound {
            let byte = bytes[index]
            index += 1
            if Self.isSpaceOrTab(byte) { continue }
            guard byte == UInt8(ascii: "-") || byte == UInt8(ascii: "*") || byte == UInt8(ascii: "_") else { return false }
            if marker == nil { marker = byte }
            guard byte == marker else { return false }
            count += 1
        }
        return count >= 3
    }

    /// A setext underline: a run of `marker` with nothing after it but spaces or tabs.
    private func isUnderline(_ content: Range<Int>, of marker: UInt8) -> Bool {
        var index = content.lowerBound
        while index < content.upperBound, bytes[index] == marker { index += 1 }
        return index > content.lowerBound && isBlank(index..<content.upperBound)
    }

    /// An ATX heading: 1 to 6 `#` and a space, a tab or the end of the line; its text is what
    /// follows, without a closing run of `#`.
    private func atxHeading(_ content: Range<Int>) -> (level: Int, text: Range<Int>)? {
        var index = content.lowerBound
        while index < content.upperBound, bytes[index] == UInt8(ascii: "#") { index += 1 }
        let level = index - content.lowerBound
        guard (1...6).contains(level), index == content.upperBound || Self.isSpaceOrTab(bytes[index]) else { return nil }
        var upper = content.upperBound
        while upper > index, Self.isSpaceOrTab(bytes[upper - 1]) { upper -= 1 }
        var closing = upper
        while closing > index, bytes[closing - 1] == UInt8(ascii: "#") { closing -= 1 }
        if closing == index || Self.isSpaceOrTab(bytes[closing - 1]) { upper = closing }
        return (level, index..<upper)
    }

    /// A code fence: three or more backticks (with no backtick after them) or tildes.
    private func fenceOpening(_ content: Range<Int>) -> (marker: UInt8, length: Int)? {
        let marker = bytes[content.lowerBound]
        guard marker == UInt8(ascii: "`") || marker == UInt8(ascii: "~") else { return nil }
        var index = content.lowerBound
        while index < content.upperBound, bytes[index] == marker { index += 1 }
        let length = index - content.lowerBound
        guard length >= 3 else { return nil }
        if marker == UInt8(ascii: "`"), bytes[index..<content.upperBound].contains(marker) { return nil }
        return (marker, length)
    }

    /// The normalised label of a link reference definition, `[label]: destination`, or nil.
    private func linkDefinitionLabel(_ content: Range<Int>) -> [UInt8]? {
        guard bytes[content.lowerBound] == UInt8(ascii: "[") else { return nil }
        var index = content.lowerBound + 1
        while index < content.upperBound, bytes[index] != UInt8(ascii: "]") {
            if bytes[index] == UInt8(ascii: "[") || index - content.lowerBound > Self.labelLimit { return nil }
            index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
        }
        guard index + 1 < content.upperBound, bytes[index + 1] == UInt8(ascii: ":"),
              !isBlank((index + 2)..<content.upperBound) else { return nil }
        let label = Self.normalisedLabel(bytes[(content.lowerBound + 1)..<index])
        return label.isEmpty ? nil : label
    }

    /// The longest link label CommonMark allows.
    static let labelLimit = 999

    /// A label as links match it: ASCII letters in lower case, runs of white space as one space.
    static func normalisedLabel(_ label: some Collection<UInt8>) -> [UInt8] {
        var result: [UInt8] = []
        var space = false
        for byte in label {
            if isSpaceOrTab(byte) || byte == 0x0A || byte == 0x0D {
                space = !result.isEmpty
                continue
            }
            if space { result.append(0x20); space = false }
            result.append((0x41...0x5A).contains(byte) ? byte + 0x20 : byte)
        }
        return result
    }

    // MARK: Bytes

    private static let commentOpening = Array("<!--".utf8)
    private static let commentClosing = Array("-->".utf8)
    /// The HTML elements whose lines are not read, as `<name` and `</name>`.
    private static let skippedElements = ["script", "style"].map { (Array("<\($0)".utf8), Array("</\($0)>".utf8)) }

    private func startsWith(_ prefix: [UInt8], at index: Int, end: Int) -> Bool {
        end - index >= prefix.count && bytes[index..<index + prefix.count].elementsEqual(prefix)
    }

    /// `tag` (`<name`) in any case, followed by white space, `>` or the end of the line.
    private func startsWithTag(_ tag: [UInt8], at index: Int, end: Int) -> Bool {
        guard end - index >= tag.count else { return false }
        for (offset, wanted) in tag.enumerated() where TextBytes.lowercasedASCII(bytes[index + offset]) != wanted { return false }
        let after = index + tag.count
        return after == end || Self.isSpaceOrTab(bytes[after]) || bytes[after] == UInt8(ascii: ">")
    }

    /// Where `marker` (lowercase ASCII) first occurs in `range`, in any case.
    private func find(_ marker: [UInt8], in range: Range<Int>) -> Int? {
        guard range.count >= marker.count else { return nil }
        var index = range.lowerBound
        while index <= range.upperBound - marker.count {
            var matched = true
            for (offset, wanted) in marker.enumerated() where TextBytes.lowercasedASCII(bytes[index + offset]) != wanted {
                matched = false
                break
            }
            if matched { return index }
            index += 1
        }
        return nil
    }

    private func skipSpaces(from index: Int, to end: Int) -> Int {
        var index = index
        while index < end, Self.isSpaceOrTab(bytes[index]) { index += 1 }
        return index
    }

    private func isBlank(_ range: Range<Int>) -> Bool {
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            guard Self.isSpaceOrTab(byte) || byte == 0x0B || byte == 0x0C else { return false }
            index += 1
        }
        return true
    }

    private func contains(_ byte: UInt8, in range: Range<Int>) -> Bool {
        var index = range.lowerBound
        while index < range.upperBound {
            if bytes[index] == byte { return true }
            index += 1
        }
        return false
    }

    static func isSpaceOrTab(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
    static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
}
