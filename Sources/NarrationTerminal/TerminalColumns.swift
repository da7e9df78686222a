/// How many terminal columns text takes: 2 for East Asian wide and fullwidth characters and
/// emoji, 0 for combining marks and other zero-width characters, 1 for the rest.
///
/// Written here rather than calling the C library's `wcwidth` so that the screen renderer stays
/// pure (no locale, no C) and gives the same layout on every machine. The wide ranges are those of
/// Unicode's East Asian Width property (W and F) that terminals draw two columns wide; the tests
/// compare this with glibc's `wcwidth` for the scripts volunteers use.
extension Character {
    public var terminalColumns: Int {
        guard let first = unicodeScalars.first else { return 0 }
        let properties = first.properties
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control, .lineSeparator, .paragraphSeparator:
            return 0
        default:
            break
        }
        if properties.isEmojiPresentation || unicodeScalars.contains("\u{FE0F}") && properties.isEmoji {
            return 2
        }
        return Self.wideRanges.contains { $0.contains(first.value) } ? 2 : 1
    }

    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,  // Hangul Jamo initials
        0x231A...0x231B, 0x2329...0x232A,
        0x2E80...0x303E,  // CJK radicals, punctuation
        0x3041...0x33FF,  // Kana, CJK compatibility
        0x3400...0x4DBF,  // CJK extension A
        0x4E00...0x9FFF,  // CJK unified ideographs
        0xA000...0xA4CF,  // Yi
        0xA960...0xA97F,  // Hangul Jamo extended
        0xAC00...0xD7A3,  // Hangul syllables
        0xF900...0xFAFF,  // CJK compatibility ideographs
        0xFE10...0xFE19, 0xFE30...0xFE6F,  // vertical forms, CJK compatibility forms
        0xFF00...0xFF60, 0xFFE0...0xFFE6,  // fullwidth forms
        0x1F300...0x1F64F, 0x1F900...0x1F9FF,  // pictographs, emoticons
        0x20000...0x2FFFD, 0x30000...0x3FFFD,  // CJK extensions B and later
    ]
}

extension StringProtocol {
    /// Columns the text takes on a terminal.
    public var terminalColumns: Int { reduce(0) { $0 + $1.terminalColumns } }

    /// The text broken into lines of at most `columns`, at spaces where it can be, else anywhere.
    public func wrapped(to columns: Int) -> [String] {
        guard columns > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        for word in split(separator: " ", omittingEmptySubsequences: false) {
            let candidate = line.isEmpty ? String(word) : line + " " + word
            if candidate.terminalColumns <= columns {
                line = candidate
                continue
            }
            if !line.isEmpty { lines.append(line) }
            var rest = String(word)
            while rest.terminalColumns > columns {
                let head = rest.clipped(to: columns)
                lines.append(head)
                rest.removeFirst(head.count)
            }
            line = rest
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// The text cut to at most `columns`, without an ellipsis or padding.
    public func clipped(to columns: Int) -> String {
        var result = ""
        var used = 0
        for character in self {
            used += character.terminalColumns
            if used > columns { break }
            result.append(character)
        }
        return result
    }

    /// The text cut to at most `columns` (ending in "…" when cut) and padded with spaces to
    /// exactly `columns`; a wide character never straddles the edge.
    public func fitted(to columns: Int) -> String {
        guard columns > 0 else { return "" }
        var result = ""
        var used = 0
        let total = terminalColumns
        let limit = total > columns ? columns - 1 : columns  // room for "…" when cutting
        for character in self {
            let width = character.terminalColumns
            if used + width > limit { break }
            result.append(character)
            used += width
        }
        if total > columns {
            result.append("…")
            used += 1
        }
        return result + String(repeating: " ", count: Swift.max(0, columns - used))
    }
}
