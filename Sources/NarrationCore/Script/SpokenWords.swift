/// The words of a text as a speech recogniser spells them, and the sentences they form.
///
/// A word is lowercased; punctuation goes, except an apostrophe inside a word ("don't",
/// "council's"); the typographic apostrophe ’ counts as '. Hyphens, dashes and slashes separate
/// words ("river-side" is "river", "side"), as a narrator reads them.
///
/// Numbers stay as their digits, without separators ("1,200" is "1200", "3.5" is "35"): a
/// pronouncing dictionary has no entry for them, so a recogniser that uses one cannot hear them,
/// and the take check treats them as words it cannot judge (neither heard nor unheard).
/// Abbreviations lose their dots ("U.S." is "us").
public enum SpokenWords {
    /// The words of `text` in reading order.
    public static func of(_ text: String) -> [String] {
        text.split(whereSeparator: \.isWhitespace).flatMap(words(of:))
    }

    /// The words one white-space-separated token holds: none for a dash or a bullet, two for
    /// "river-side".
    public static func words(of token: Substring) -> [String] {
        token.split(whereSeparator: isWordSeparator).compactMap(normalise)
    }

    /// One piece of a token without separators as a word, or nil when nothing of a word is left.
    static func normalise(_ piece: Substring) -> String? {
        var kept = ""
        for character in piece.lowercased() {
            if character == "'" || character == "’" || character == "‘" {
                kept.append("'")
            } else if character.isLetter || character.isNumber {
                kept.append(character)
            }
        }
        while kept.hasPrefix("'") { kept.removeFirst() }
        while kept.hasSuffix("'") { kept.removeLast() }
        return kept.isEmpty ? nil : kept
    }

    private static func isWordSeparator(_ character: Character) -> Bool {
        character == "-" || character == "–" || character == "—" || character == "/" || character == "‐"
    }
}

/// One sentence of a paragraph: its text and which of the paragraph's spoken words it holds.
public struct ScriptSentence: Hashable, Sendable {
    public var text: String
    /// Indices into `SpokenWords.of(paragraph.text)`.
    public var words: Range<Int>

    public init(text: String, words: Range<Int>) {
        self.text = text
        self.words = words
    }
}

extension ScriptParagraph {
    /// The paragraph's spoken words (`SpokenWords.of(text)`).
    public var spokenWords: [String] { SpokenWords.of(text) }

    /// The paragraph's sentences, in order; a heading is one sentence.
    ///
    /// A sentence ends at a token ending in ".", "!" or "?" (before any closing quotes or
    /// brackets), except after a single letter or a common title ("J.", "Mr.", "Dr."). Sentences
    /// without a spoken word (a lone dash) are left out.
    public var sentences: [ScriptSentence] {
        let tokens = text.split(whereSeparator: \.isWhitespace)
        var sentences: [ScriptSentence] = []
        var sentenceTokens: [Substring] = []
        var wordCount = 0
        var firstWord = 0
        func finish() {
            if wordCount > firstWord {
                sentences.append(ScriptSentence(text: sentenceTokens.joined(separator: " "), words: firstWord..<wordCount))
            }
            sentenceTokens = []
            firstWord = wordCount
        }
        for (position, token) in tokens.enumerated() {
            sentenceTokens.append(token)
            wordCount += SpokenWords.words(of: token).count
            if kind == .paragraph, position < tokens.count - 1, Self.endsSentence(token) { finish() }
        }
        finish()
        return sentences
    }

    private static let titles: Set<String> = ["mr", "mrs", "ms", "dr", "st", "prof", "sen", "rep", "gen", "gov", "jr", "sr", "vs", "no"]

    private static func endsSentence(_ token: Substring) -> Bool {
        let closing: Set<Character> = ["\"", "'", "”", "’", ")", "]", "»"]
        var trimmed = token
        while let last = trimmed.last, closing.contains(last) { trimmed.removeLast() }
        guard let last = trimmed.last, last == "." || last == "!" || last == "?" || last == "…" else { return false }
        let bare = trimmed.filter { $0.isLetter }.lowercased()
        if last == ".", bare.count == 1 || titles.contains(bare) { return false }
        return true
    }
}
