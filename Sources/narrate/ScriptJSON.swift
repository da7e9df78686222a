import Narration
import NarrationCore

/// What `script FILE --json` prints.
struct TextChangeJSON: Encodable {
    let paragraphs: Int
    let unchanged: Int
    let keptChunks: Int
    let unboundChunks: [Int]
    /// "queued" or "delivered": the article's export the new text withdrew; nil if it had none.
    let withdrawnExport: String?

    init(_ change: TextChange) {
        paragraphs = change.paragraphs
        unchanged = change.unchanged
        keptChunks = change.keptTakes
        unboundChunks = change.unboundChunks.map(\.number)
        withdrawnExport = change.withdrawn.map { "\($0)" }
    }
}

/// One paragraph in `script --json`.
struct ParagraphJSON: Encodable {
    let number: Int
    let id: String
    let kind: String
    let text: String
    let words: Int
    /// "notRead", "read", "skipped" or "flagged" (read, with hints not dismissed).
    let state: String
    /// Whether a plain `record` reads it next.
    let next: Bool
    let chunks: [Int]
    let duration: Double
    /// The take check's hints not dismissed, about this paragraph's chunks.
    let hints: [HintJSON]

    init(_ entry: ParagraphEntry, isNext: Bool, hints: [(chunk: Int, hint: TakeHint)]) {
        number = entry.paragraph.number
        id = entry.paragraph.id.rawValue
        kind = entry.paragraph.kind.rawValue
        text = entry.paragraph.text
        words = entry.paragraph.wordCount
        state = !hints.isEmpty ? "flagged" : entry.paragraph.isSkipped ? "skipped" : entry.isRead ? "read" : "notRead"
        self.hints = hints.map { HintJSON($0.hint, chunk: $0.chunk) }
        next = isNext
        chunks = entry.chunks.map(\.number)
        duration = entry.duration
    }
}

/// A hint of the take check, as `script --json` and `script --check --json` print it.
struct HintJSON: Encodable {
    let chunk: Int
    /// "possiblySkipped", "unheard" or "wrongParagraph".
    let kind: String
    let words: String
    /// Seconds from the start of the chunk.
    let seconds: Double
    /// For "wrongParagraph", the paragraph (from 1) the take sounds like.
    let soundsLike: Int?
    let sentence: String

    init(_ hint: TakeHint, chunk: Int) {
        self.chunk = chunk
        kind = hint.kind.rawValue
        words = hint.words
        seconds = hint.seconds
        soundsLike = hint.paragraph.map { $0 + 1 }
        sentence = hint.description
    }
}

/// One take's check in `script --check --json`.
struct TakeCheckJSON: Encodable {
    let chunk: Int
    let wordsPerMinute: Double?
    let recognised: Bool
    /// The share of the paragraph's words heard in order, 0…1 (null without recognition).
    let match: Double?
    let hints: [HintJSON]

    init(_ check: TakeCheck, chunk: Int) {
        self.chunk = chunk
        wordsPerMinute = check.report.rate.wordsPerMinute
        recognised = check.report.recognised
        match = check.report.match
        hints = check.report.hints.map { HintJSON($0, chunk: chunk) }
    }
}

/// What `script --skip` and `--unskip` print with `--json`.
struct SkipChangeJSON: Encodable {
    let skipping: Bool
    /// The paragraphs whose state changed.
    let changed: [Int]
    /// The paragraphs named that were in that state already.
    let unchanged: [Int]
    /// The paragraphs still neither read nor skipped.
    let unread: [Int]

    init(_ change: SkipChange, unread: UnreadParagraphs?) {
        skipping = change.skipping
        changed = change.changed
        unchanged = change.unchanged
        self.unread = unread?.numbers ?? []
    }
}
