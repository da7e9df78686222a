/// A documented shell line cut into the words a shell would pass to the program: quotes and
/// backslashes as sh reads them, and the line's end at a comment (`#` starting a word) or at
/// what hands over to another program (`|`, `;`, `&&`, `||`, `&`, `>`, `<`).
enum ShellWords {
    static func split(_ line: String) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var characters = Array(line)[...]
        while let character = characters.popFirst() {
            if let open = quote {
                if character == open {
                    quote = nil
                } else if character == "\\" && open == "\"", let next = characters.first, "\"\\$`".contains(next) {
                    current.append(characters.removeFirst())
                } else {
                    current.append(character)
                }
                continue
            }
            switch character {
            case "\"", "'":
                quote = character
                inWord = true
            case "\\":
                if let next = characters.popFirst() { current.append(next) }
                inWord = true
            case " ", "\t":
                if inWord { words.append(current) }
                current = ""
                inWord = false
            case "#" where !inWord, "|", ";", "&", ">", "<":
                if inWord { words.append(current) }
                // `2>` is a redirection: the 2 is not an argument.
                if character == ">", words.last == "2" || words.last == "1" { words.removeLast() }
                return words
            default:
                current.append(character)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }

    /// The line up to its comment: a `#` that starts a word outside quotes.
    static func withoutComment(_ line: String) -> String {
        var quote: Character?
        var previous: Character = " "
        var escaped = false
        for (offset, character) in line.enumerated() {
            defer { previous = character }
            if escaped { escaped = false; continue }
            if let open = quote {
                if character == open { quote = nil }
                continue
            }
            switch character {
            case "\\": escaped = true
            case "\"", "'": quote = character
            case "#" where previous == " " || previous == "\t": return String(line.prefix(offset))
            default: break
            }
        }
        return line
    }
}
