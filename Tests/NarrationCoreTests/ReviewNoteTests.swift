import Foundation
import NarrationCore
import Testing

/// A note's paragraph, time and texts are checked against the article before anything is kept:
/// each bad value is refused with one sentence that names it and the range it must fall in.
@Suite("Review notes: paragraph, time and texts checked")
struct ReviewNoteTests {
    static let author = try! AccountName("dora")
    static let remark = ReviewNote.Content.remark(try! ReviewNoteText("too fast", field: "remark", limit: ReviewNoteText.remarkLimit))

    static func note(paragraph: Int = 2, seconds: Double = 12.4, paragraphCount: Int = 5, articleSeconds: Double = 60) throws(NarrationError) -> ReviewNote {
        try ReviewNote.checked(
            article: ArticleID("k3f9x2ab"), paragraph: paragraph, seconds: seconds, content: remark, author: author,
            createdAt: Date(timeIntervalSince1970: 0), paragraphCount: paragraphCount, articleSeconds: articleSeconds)
    }

    @Test("a paragraph and time inside the article make a note, its time kept to the millisecond")
    func accepted() throws {
        let note = try Self.note(seconds: 12.4004)
        #expect(note.paragraph == 2)
        #expect(note.milliseconds == 12_400)
        #expect(note.seconds == 12.4)
        #expect(note.isOpen)
        #expect(try Self.note(paragraph: 5, seconds: 60).milliseconds == 60_000)
        #expect(try Self.note(paragraph: 1, seconds: 0).milliseconds == 0)
    }

    @Test(
        "paragraphs outside 1 to the count are refused by name",
        arguments: [
            (0, "There is no paragraph 0: the article's paragraphs are 1 to 5."),
            (6, "There is no paragraph 6: the article's paragraphs are 1 to 5."),
            (-3, "There is no paragraph -3: the article's paragraphs are 1 to 5."),
            (Int.max, "There is no paragraph \(Int.max): the article's paragraphs are 1 to 5."),
        ])
    func badParagraph(paragraph: Int, message: String) {
        #expect(throws: NarrationError.usage(message)) { try Self.note(paragraph: paragraph) }
    }

    @Test(
        "times that are not finite, negative or past the article's end are refused by name",
        arguments: [
            (-1.0, "-1"), (60.001, "60.001"), (1e300, "1e+300"), (Double.nan, "nan"), (Double.infinity, "inf"), (-Double.infinity, "-inf"),
        ])
    func badTime(seconds: Double, shown: String) {
        let message = "A note's time must be a number of seconds from 0 to the article's length, 00:01:00.0 (60 s); \(shown) is not."
        #expect(throws: NarrationError.usage(message)) { try Self.note(seconds: seconds) }
    }

    @Test("an article without a text has no paragraph to pin a note to")
    func noText() {
        #expect(throws: NarrationError.usage("The article has no text, so a note has no paragraph to be pinned to: attach the article's text first.")) {
            try Self.note(paragraph: 1, paragraphCount: 0)
        }
    }

    @Test("a note's text is trimmed; an empty one, one with control or direction characters, or one too long is refused")
    func texts() throws {
        #expect(try ReviewNoteText("  their  ", field: "should-be", limit: 200).rawValue == "their")
        #expect(throws: NarrationError.usage("The note's said is empty: write what the listener should hear.")) {
            try ReviewNoteText("   ", field: "said", limit: 200)
        }
        for hazard in ["line\nbreak", "bell\u{7}", "evil\u{202E}txt", "nul\u{0}"] {
            #expect(throws: NarrationError.usage("The note's remark holds a control or text-direction character: write it as plain text on one line.")) {
                try ReviewNoteText(hazard, field: "remark", limit: 1_000)
            }
        }
        #expect(throws: NarrationError.usage("The note's remark is 1001 characters long: keep it to 1000.")) {
            try ReviewNoteText(String(repeating: "é", count: 1_001), field: "remark", limit: ReviewNoteText.remarkLimit)
        }
        #expect(try ReviewNoteText(String(repeating: "é", count: 1_000), field: "remark", limit: ReviewNoteText.remarkLimit).rawValue.count == 1_000)
    }

    @Test("a note reads as one line")
    func summary() throws {
        let slip = ReviewNote.Content.saidShouldBe(
            said: try ReviewNoteText("there", field: "said", limit: 200), shouldBe: try ReviewNoteText("their", field: "should-be", limit: 200))
        let note = ReviewNote(article: ArticleID("k3f9x2ab"), paragraph: 1, milliseconds: 0, content: slip, author: Self.author, createdAt: Date())
        #expect(note.summary == "said \"there\", should be \"their\"")
        #expect(try Self.note().summary == "too fast")
    }
}
