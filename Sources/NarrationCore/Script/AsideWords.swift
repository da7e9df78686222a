/// What narrators say when they stumble and go back: "sorry", "let me start again", "oh no,
/// wait". Where the recogniser hears them (the article's vocabulary holds them), the take check
/// says "not in the text" and cuts them with the restart they belong to, and they do not count
/// as the paragraph's words misheard. The recogniser's model of the article does not add them:
/// measured, doing so cost right takes their sentence cues (see `ArticleRecogniser`).
///
/// English only, like the recogniser; spelled as `SpokenWords` spells.
public enum AsideWords {
    /// The words of the asides: "sorry", "correction", "oops", "pardon", "excuse me", "let me
    /// start again", "let me try again", "oh no, wait".
    public static let words: Set<String> = [
        "sorry", "correction", "oops", "pardon", "excuse", "me", "let", "start", "try", "again", "oh", "no", "wait",
    ]

    /// The words that are an aside on their own; the others ("no", "again") are asides only
    /// beside another aside word, since a recogniser also hears them where nothing was said.
    public static let unmistakable: Set<String> = ["sorry", "correction", "oops", "pardon", "excuse"]
}
