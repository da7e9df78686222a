import Foundation
import NarrationCore

/// A review note as `narrate review … --json` prints it.
struct ReviewNoteJSON: Encodable {
    /// Where a pickup starts: `punch` (chunk and seconds into it) or `reread` (paragraph).
    struct TargetJSON: Encodable {
        let kind: String
        var chunk: Int?
        var seconds: Double?
        var paragraph: Int?

        init(_ target: PickupTarget) {
            switch target {
            case .punch(let chunk, let seconds): (kind, self.chunk, self.seconds) = ("punch", chunk, seconds)
            case .reread(let paragraph): (kind, self.paragraph) = ("reread", paragraph)
            }
        }
    }

    let id: Int64
    let article: String
    let paragraph: Int
    /// Seconds from the start of the article's audio, to the millisecond.
    let seconds: Double
    /// said-should-be or remark.
    let kind: String
    var said: String?
    var shouldBe: String?
    var remark: String?
    let author: String
    let createdAt: Date
    /// The send-back that made it a pickup; nil while the article is still in review.
    let sentBack: Int64?
    /// in-review (not sent back yet), open or done.
    let state: String
    var doneEdit: Int?
    var doneBy: String?
    var doneAt: Date?
    /// Where to pick it up in the article now, for a pickup of the last send-back.
    var target: TargetJSON?

    init(_ note: ReviewNote, target: PickupTarget? = nil) {
        id = note.id
        article = note.article.rawValue
        paragraph = note.paragraph
        seconds = note.seconds
        switch note.content {
        case .saidShouldBe(let said, let shouldBe): (kind, self.said, self.shouldBe) = ("said-should-be", said.rawValue, shouldBe.rawValue)
        case .remark(let text): (kind, remark) = ("remark", text.rawValue)
        }
        author = note.author.rawValue
        createdAt = note.createdAt
        sentBack = note.sendBack
        switch note.pickup {
        case .open: state = note.sendBack == nil ? "in-review" : "open"
        case .done(let edit, let by, let at): (state, doneEdit, doneBy, doneAt) = ("done", edit, by.rawValue, at)
        }
        self.target = target.map(TargetJSON.init)
    }
}

/// A change since the last send-back as `narrate review changes --json` prints it.
struct ReviewChangeJSON: Encodable {
    /// replaced, punched, inserted or deleted.
    let kind: String
    let paragraph: Int?
    let chunk: Int?
    /// Seconds in the article's audio now; equal for a deleted take (where it was).
    let start: Double
    let end: Double

    init(_ change: ReviewChanges.Change) {
        kind = change.kind.rawValue
        paragraph = change.paragraph
        chunk = change.chunk
        start = change.start
        end = change.end
    }
}
