/// What narrators say when they stumble and go back: "sorry", "let me start again", "oh no,
/// wait". The recogniser listens for these phrases beside the article's own words, so that an
/// aside is heard as itself instead of as article words it sounds like, and the take check can
/// say "not in the text" and cut it with the restart it belongs to.
///
/// English only, like the recogniser; spelled as `SpokenWords` spells.
public enum AsideWords {
    /// The phrases, each a sentence of the recogniser's language model.
    public static let phrases: [[String]] = [
        ["sorry"], ["correction"], ["oops"], ["pardon"], ["excuse", "me"], ["i", "mean"],
        ["let", "me", "start", "again"], ["let", "me", "read", "that", "again"], ["i'll", "start", "again"],
        ["start", "again"], ["oh", "no"], ["oh", "no", "wait"], ["wait"], ["hang", "on"], ["one", "more", "time"],
        ["let", "me", "try", "that", "again"], ["again"],
    ]

    /// Every word of `phrases`.
    public static let words: Set<String> = Set(phrases.joined())
}
