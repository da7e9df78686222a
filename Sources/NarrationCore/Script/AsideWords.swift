/// What narrators say when they stumble and go back: "sorry", "let me start again", "oh no,
/// wait". The recogniser listens for these phrases beside the article's own words, so that an
/// aside is heard as itself instead of as article words it sounds like, and the take check can
/// say "not in the text" and cut it with the restart it belongs to.
///
/// English only, like the recogniser; spelled as `SpokenWords` spells.
public enum AsideWords {
    /// The phrases, each a sentence of the recogniser's language model.
    public static let phrases: [[String]] = [
        ["sorry"], ["correction"], ["oops"], ["pardon"], ["excuse", "me"],
        ["let", "me", "start", "again"], ["let", "me", "try", "again"], ["start", "again"], ["oh", "no", "wait"],
    ]

    /// Every word of `phrases`.
    public static let words: Set<String> = Set(phrases.joined())

    /// The words that are an aside on their own; the others ("no", "again") are asides only
    /// beside another aside word, since a recogniser also hears them where nothing was said.
    public static let unmistakable: Set<String> = ["sorry", "correction", "oops", "pardon", "excuse"]
}
