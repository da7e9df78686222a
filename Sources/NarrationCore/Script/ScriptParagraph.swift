/// One paragraph of an article's text, as the volunteer reads it: a heading or a paragraph of
/// body text (a list item is a paragraph), its words in reading order, and how many words it has.
///
/// The text is plain: markup is gone, emphasis and links are reduced to their words, runs of
/// white space are one space, and there is no white space at either end.
public struct ScriptParagraph: Hashable, Sendable, Codable {
    /// What a paragraph is in the article's structure.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// A title or section heading: it starts a chapter of its own and can title the chapters
        /// under it.
        case heading
        /// Body text, or one item of a list.
        case paragraph
    }

    public var kind: Kind
    public var text: String

    public init(kind: Kind, text: String) {
        self.kind = kind
        self.text = text
    }

    /// The number of words a narrator reads, as `WordCount` counts them.
    public var wordCount: Int { WordCount.of(text) }

    /// The first `limit` words, followed by "…" when there are more: a title for a chapter that
    /// has no heading of its own, or a glimpse of what comes next.
    public func firstWords(_ limit: Int) -> String {
        let words = text.split(whereSeparator: \.isWhitespace)
        guard words.count > limit else { return text }
        return words.prefix(limit).joined(separator: " ") + "…"
    }
}

/// Counts the words of a text in any language.
///
/// A word is a run of characters between white space that holds at least one letter or digit,
/// so that a dash or a bullet standing alone is not a word. Scripts written without spaces
/// between words (Chinese, Japanese, Thai) count each of their letters as a word, which is close
/// to how many syllables a narrator reads and keeps speaking-rate checks meaningful.
public enum WordCount {
    public static func of(_ text: String) -> Int {
        var count = 0
        for token in text.split(whereSeparator: \.isWhitespace) {
            var unspaced = 0
            var hasWordCharacter = false
            for scalar in token.unicodeScalars {
                if isUnspacedScript(scalar) {
                    unspaced += 1
                } else if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                    hasWordCharacter = true
                }
            }
            count += unspaced + (hasWordCharacter ? 1 : 0)
        }
        return count
    }

    /// Han ideographs, Hiragana, Katakana and Thai: scripts that do not put spaces between words.
    private static func isUnspacedScript(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x0E00...0x0E7F, 0x20000...0x2FA1F: true
        default: false
        }
    }
}
