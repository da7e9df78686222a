/// Rewrites Markdown so that Ink 0.6.0 reads it as CommonMark would, for the ordinary things Ink
/// gets wrong (listed in `MarkdownText`). Fenced code blocks and inline code are left untouched.
enum MarkdownPreparation {
    static func prepare(_ text: String) -> String {
        var output: [String] = []
        var fence: Substring?  // the fence of the code block under way: "```" or "~~~"
        var inQuote = false
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)[...]
        // Front matter: a first line "---" opens metadata up to the next "---", which Ink takes out
        // by itself; its lines are no paragraphs to make headings of.
        if lines.first.map({ $0.trimmingSuffixWhitespace == "---" }) == true,
           let close = lines.dropFirst().firstIndex(where: { $0.trimmingSuffixWhitespace == "---" }) {
            output = lines[...close].map(String.init)
            lines = lines[(close + 1)...]
        }
        for rawLine in lines {
            var line = Substring(rawLine)
            let indented = line.drop(while: { $0 == " " })
            let indent = line.count - indented.count
            if let open = fence {
                output.append(String(line))
                if indent <= 3, indented.hasPrefix(open) { fence = nil }
                continue
            }
            if indent <= 3, indented.hasPrefix("```") || indented.hasPrefix("~~~") {
                fence = indented.prefix(3)
                output.append(String(line))
                inQuote = false
                continue
            }
            // Block quotes: markers off, a blank line before the quote.
            if indent <= 3, indented.hasPrefix(">") {
                var rest = indented
                while rest.first == ">" {
                    rest = rest.dropFirst()
                    if rest.first == " " { rest = rest.dropFirst() }
                    let inner = rest.drop(while: { $0 == " " })
                    if inner.first == ">" { rest = inner }
                }
                if !inQuote, let last = output.last, !isBlank(last) { output.append("") }
                inQuote = true
                line = rest
            } else if isBlank(line) {
                inQuote = false
            }
            // Setext headings: the underlined paragraph line becomes an ATX heading.
            if indent <= 3, let level = setextLevel(indented), let last = output.last, isParagraphLine(last) {
                var lines = [output.removeLast()]
                while let previous = output.last, isParagraphLine(previous) { lines.insert(output.removeLast(), at: 0) }
                let words = lines.map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }.joined(separator: " ")
                output.append(String(repeating: "#", count: level) + " " + words)
                output.append("")
                continue
            }
            output.append(escapeInline(line))
        }
        return output.joined(separator: "\n")
    }

    private static func isBlank(_ line: some StringProtocol) -> Bool { line.allSatisfy(\.isWhitespace) }

    /// 1 for a `===` underline, 2 for `---`, nil for any other line.
    private static func setextLevel(_ line: Substring) -> Int? {
        let content = line.prefix(while: { !$0.isWhitespace })
        guard !content.isEmpty, line.dropFirst(content.count).allSatisfy(\.isWhitespace) else { return nil }
        if content.allSatisfy({ $0 == "=" }) { return 1 }
        if content.allSatisfy({ $0 == "-" }) { return 2 }
        return nil
    }

    /// Whether a line continues a paragraph: not blank, not a heading, list item, rule, quote or table row.
    private static func isParagraphLine(_ line: String) -> Bool {
        let text = line.drop(while: { $0 == " " })
        guard let first = text.first, line.count - text.count <= 3 else { return false }
        if "#>|".contains(first) { return false }
        if "-*+".contains(first), text.dropFirst().first?.isWhitespace ?? true { return false }
        if first.isNumber {
            let afterNumber = text.drop(while: \.isNumber)
            if let marker = afterNumber.first, marker == "." || marker == ")", afterNumber.dropFirst().first?.isWhitespace ?? true { return false }
        }
        return setextLevel(Substring(text)) == nil
    }

    /// Escapes what Ink would wrongly take for emphasis and rewrites autolinks, outside code spans.
    private static func escapeInline(_ line: Substring) -> String {
        let characters = Array(line)
        var result = ""
        result.reserveCapacity(characters.count)
        let firstText = characters.firstIndex(where: { !$0.isWhitespace }) ?? characters.count
        var index = 0
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "`":
                // A code span: copied as it is, up to the closing run of as many backticks.
                var run = 0
                while index + run < characters.count, characters[index + run] == "`" { run += 1 }
                if let close = closingRun(of: run, in: characters, from: index + run) {
                    result += String(characters[index..<close + run])
                    index = close + run
                } else {
                    result += String(characters[index..<index + run])
                    index += run
                }
                continue
            case "\\":
                // An escape stays an escape, with the character it escapes.
                result.append(character)
                if index + 1 < characters.count { result.append(characters[index + 1]) }
                index += 2
                continue
            case "<":
                if let end = autolinkEnd(in: characters, from: index) {
                    result += String(characters[index + 1..<end])
                    index = end + 1
                    continue
                }
            case "_", "*":
                let before = index > 0 ? characters[index - 1] : nil
                let after = index + 1 < characters.count ? characters[index + 1] : nil
                let intraword = character == "_" && (before?.isLetter == true || before?.isNumber == true)
                    && (after?.isLetter == true || after?.isNumber == true)
                let standingAlone = index > firstText && before?.isWhitespace == true && (after?.isWhitespace ?? true)
                if intraword || standingAlone { result.append("\\") }
            default:
                break
            }
            result.append(character)
            index += 1
        }
        return result
    }

    private static func closingRun(of length: Int, in characters: [Character], from start: Int) -> Int? {
        var index = start
        while index < characters.count {
            guard characters[index] == "`" else { index += 1; continue }
            var run = 0
            while index + run < characters.count, characters[index + run] == "`" { run += 1 }
            if run == length { return index }
            index += run
        }
        return nil
    }

    /// The index of the `>` closing an autolink that starts at `start` (`<scheme:…>` or
    /// `<name@host>`, without spaces), or nil when no autolink starts there.
    private static func autolinkEnd(in characters: [Character], from start: Int) -> Int? {
        var index = start + 1
        var sawColon = false
        var sawAt = false
        var schemeLength = 0
        while index < characters.count {
            let character = characters[index]
            if character == ">" { break }
            if character.isWhitespace || character == "<" { return nil }
            if character == ":" && !sawColon {
                sawColon = schemeLength >= 2
            } else if !sawColon, character.isLetter || character.isNumber || "+.-".contains(character) {
                schemeLength += 1
            }
            if character == "@" { sawAt = true }
            index += 1
        }
        guard index < characters.count, index > start + 1, sawColon || sawAt else { return nil }
        return index
    }
}

extension Substring {
    fileprivate var trimmingSuffixWhitespace: Substring {
        var text = self
        while text.last?.isWhitespace == true { text.removeLast() }
        return text
    }
}
