/// A `narrate …` command line written in a document: in a shell code block (one per line, a
/// trailing backslash joining the next) or in inline code (`` `narrate record --insert 3` ``).
struct DocumentedCommandLine: CustomStringConvertible {
    /// The document, relative to the repository's root.
    let file: String
    /// 1-based.
    let line: Int
    /// As written, from `narrate` to the end of the command.
    let text: String
    /// The words after `narrate`, as a shell passes them.
    let arguments: [String]

    var description: String { "\(file):\(line): \(text)" }

    /// The programs that are narrate: the installed binary and the sources' runner.
    static let programs: Set<String> = ["narrate", "Scripts/narrate"]
    /// Code blocks in these languages hold no shell lines (output, a config.toml, a sidecar, Swift).
    static let otherLanguages: Set<String> = ["text", "toml", "json", "swift", "xml", "html", "js", "javascript", "css", "python", "roff"]

    /// Every narrate command line in `text`.
    static func all(in text: String, file: String) -> [DocumentedCommandLine] {
        var found: [DocumentedCommandLine] = []
        var fence: String?  // the open block's language, "" for none
        var pending: (line: Int, text: String)?
        // The prose lines since the last blank line or fence: inline code may run across a line break.
        var paragraph: [(line: Int, text: String)] = []
        func endParagraph() {
            found += inlineCommands(in: paragraph, file: file)
            paragraph = []
        }
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1
            let line = String(rawLine)
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                endParagraph()
                fence = fence == nil ? String(trimmed.dropFirst(3)).trimmingCharacters(in: .whitespaces).lowercased() : nil
                continue
            }
            if let language = fence {
                guard !otherLanguages.contains(language) else { continue }
                var shellLine = trimmed.hasPrefix("$ ") ? String(trimmed.dropFirst(2)) : trimmed
                if let started = pending {
                    shellLine = started.text + " " + shellLine
                }
                if shellLine.hasSuffix("\\") {
                    pending = (pending?.line ?? number, String(shellLine.dropLast()))
                    continue
                }
                let start = pending?.line ?? number
                pending = nil
                found += commands(in: shellLine, file: file, line: start)
            } else if trimmed.isEmpty {
                endParagraph()
            } else {
                paragraph.append((number, line))
            }
        }
        endParagraph()
        return found.sorted { $0.line < $1.line }
    }

    /// The narrate commands in a paragraph's inline code spans (single backticks), each at the
    /// line its span starts on; a span may run across a line break.
    private static func inlineCommands(in paragraph: [(line: Int, text: String)], file: String) -> [DocumentedCommandLine] {
        var found: [DocumentedCommandLine] = []
        var span: (line: Int, text: String)?
        for (number, line) in paragraph {
            for character in line {
                if character == "`" {
                    if let open = span {
                        found += commands(in: open.text, file: file, line: open.line)
                        span = nil
                    } else {
                        span = (number, "")
                    }
                } else {
                    span?.text.append(character)
                }
            }
            span?.text.append(" ")
        }
        return found
    }

    /// The narrate commands on one shell line: after `sudo` or an environment assignment, and
    /// after `&&`, `;` or `|`.
    private static func commands(in shellLine: String, file: String, line: Int) -> [DocumentedCommandLine] {
        var result: [DocumentedCommandLine] = []
        var rest = Substring(ShellWords.withoutComment(shellLine))
        while !rest.isEmpty {
            let words = ShellWords.split(String(rest))
            var index = 0
            while index < words.count, words[index] == "sudo" || words[index] == "env" || isAssignment(words[index]) { index += 1 }
            if index < words.count, programs.contains(words[index]) {
                let start = rest.range(of: words[index]).map { rest[$0.lowerBound...] } ?? rest
                let text = String(start.prefix { !"|;&#>".contains($0) }).trimmingCharacters(in: .whitespaces)
                result.append(DocumentedCommandLine(file: file, line: line, text: text, arguments: Array(words[(index + 1)...])))
            }
            guard let next = rest.firstIndex(where: { "|;&".contains($0) }) else { break }
            rest = rest[rest.index(after: next)...].drop { "|;& ".contains($0) }
        }
        return result
    }

    private static func isAssignment(_ word: String) -> Bool {
        guard let equals = word.firstIndex(of: "="), equals != word.startIndex else { return false }
        return word[..<equals].allSatisfy { $0.isUppercase || $0.isNumber || $0 == "_" }
    }
}
