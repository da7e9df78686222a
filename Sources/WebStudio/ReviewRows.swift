import Foundation
import Narration
import NarrationCore

/// What the review routes answer (`ReviewRoutes`). Every key is always there, with null for
/// what a value does not have, so that the page and scripts see one shape.
extension ReviewRoutes {
    /// An article ready for review as the list shows it.
    struct ListedArticle: Encodable, Sendable {
        let id: String
        let title: String
        let publication: String
        let volunteer: NullWhenAbsent<String>
        /// `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM` (UTC); null for none.
        let deadline: NullWhenAbsent<String>
        let late: Bool
        let state: String
        let stateTitle: String
        /// ISO 8601, UTC: when it became ready for review.
        let changedAt: String
        /// Whether it was sent back before and came back with its pickups done.
        let returned: Bool

        init(_ entry: DeskEntry, returned: Bool, now: Date) {
            id = entry.article.rawValue
            title = entry.title
            publication = entry.publication
            volunteer = NullWhenAbsent(entry.assignee?.rawValue)
            deadline = NullWhenAbsent(entry.deadline?.description)
            late = entry.isLate(at: now)
            state = entry.state.rawValue
            stateTitle = entry.state.title
            changedAt = entry.changedAt.formatted(.iso8601)
            self.returned = returned
        }
    }

    /// A review note: where it is pinned, what it says, and what it asks of the volunteer.
    struct Note: Encodable, Sendable {
        let id: Int64
        let paragraph: Int
        /// Seconds from the start of the article's audio, to the millisecond.
        let at: Double
        /// said-should-be or remark.
        let kind: String
        let said: NullWhenAbsent<String>
        let shouldBe: NullWhenAbsent<String>
        let text: NullWhenAbsent<String>
        let author: String
        let createdAt: String
        let done: Bool
        /// The pickup in words: "punch in at 4.2 s into chunk 3", "read paragraph 2 again".
        let pickup: String

        init(_ note: ReviewNote, reviewed: ReviewedArticle) {
            id = note.id
            paragraph = note.paragraph
            at = note.seconds
            switch note.content {
            case .saidShouldBe(let said, let shouldBe): (kind, self.said, self.shouldBe, text) = ("said-should-be", NullWhenAbsent(said.rawValue), NullWhenAbsent(shouldBe.rawValue), NullWhenAbsent(nil))
            case .remark(let remark): (kind, said, shouldBe, text) = ("remark", NullWhenAbsent(nil), NullWhenAbsent(nil), NullWhenAbsent(remark.rawValue))
            }
            author = note.author.rawValue
            createdAt = note.createdAt.formatted(.iso8601)
            done = !note.isOpen
            pickup = PickupTarget.of(note, chunks: reviewed.pickupChunks, sampleRate: reviewed.sampleRate).sentence
        }
    }

    /// One paragraph of the text and where it is heard: from the start of the first take that
    /// reads it to the end of the last; null times for a paragraph no take reads. With the
    /// restarts the take check proposes to cut in its takes and the flags it raised on them,
    /// those still open (neither accepted nor dismissed).
    struct TimedParagraph: Encodable, Sendable {
        let number: Int
        /// heading or paragraph.
        let kind: String
        let text: String
        let start: NullWhenAbsent<Double>
        let end: NullWhenAbsent<Double>
        let cuts: [Cut]
        let flags: [Flag]

        /// Each paragraph's times in an article of `chunks` (in order) at `sampleRate`.
        static func times(_ reviewed: ReviewedArticle) -> [Int: (start: Double, end: Double)] {
            let rate = Double(max(reviewed.sampleRate, 1))
            var times: [Int: (start: Double, end: Double)] = [:]
            var frame = 0
            for chunk in reviewed.chunks {
                let (start, end) = (Double(frame) / rate, Double(frame + chunk.frames) / rate)
                frame += chunk.frames
                guard let number = chunk.paragraph.flatMap({ reviewed.paragraphNumbers[$0] }) else { continue }
                times[number] = (times[number]?.start ?? start, end)
            }
            return times
        }
    }

    /// A restart the take check proposes to cut: its take (`chunk` its id, `take` its number in
    /// the article), its number in that take's check (`number`, from 0: with `chunk`, what the
    /// cut routes name), what was read twice, where it lies in the article's audio (`at` to
    /// `end`, seconds), the frames it takes out, and the check's sentence about it.
    struct Cut: Encodable, Sendable {
        let chunk: String
        let take: Int
        let number: Int
        /// restart or false-start.
        let kind: String
        let words: String
        let aside: String
        let at: Double
        let end: Double
        let frames: Int
        /// "Chunk 2, at 0.2 s: “the storm” read twice: cut 0.20–0.50 s" (times in the take).
        let sentence: String

        init(_ cut: TakeCut, takeStart: FrameCount, sampleRate: Int) {
            let rate = Double(max(sampleRate, 1))
            chunk = cut.chunk.rawValue
            take = cut.index.number
            number = cut.number
            switch cut.cut.kind {
            case .restart: kind = "restart"
            case .falseStart: kind = "false-start"
            }
            words = cut.cut.words
            aside = cut.cut.aside
            at = Self.milliseconds(Double(takeStart + cut.cut.startFrame) / rate)
            end = Self.milliseconds(Double(takeStart + cut.cut.endFrame) / rate)
            frames = cut.cut.frames.count
            sentence = "Chunk \(cut.index.number), \(cut.cut)"
        }

        static func milliseconds(_ seconds: Double) -> Double { (seconds * 1000).rounded() / 1000 }
    }

    /// A flag the take check raised on a take: its take, its kind, the words concerned, where it
    /// lies in the article's audio (seconds), and the check's sentence about it.
    struct Flag: Encodable, Sendable {
        let chunk: String
        let take: Int
        /// possibly-skipped, unheard, wrong-paragraph or not-in-text.
        let kind: String
        let words: String
        let at: Double
        /// "Chunk 2, at 0.3 s: not in the text: “oh no wait”" (the time in the take).
        let sentence: String

        init(_ flag: ReviewDesk.TakeFlag, takeStart: FrameCount, sampleRate: Int) {
            chunk = flag.chunk.rawValue
            take = flag.index.number
            switch flag.hint.kind {
            case .possiblySkipped: kind = "possibly-skipped"
            case .unheard: kind = "unheard"
            case .wrongParagraph: kind = "wrong-paragraph"
            case .notInText: kind = "not-in-text"
            }
            words = flag.hint.words
            let seconds = flag.hint.seconds.isFinite ? max(0, flag.hint.seconds) : 0
            at = Cut.milliseconds(Double(takeStart) / Double(max(sampleRate, 1)) + seconds)
            sentence = "Chunk \(flag.index.number), \(flag.hint)"
        }
    }

    /// What accepting a cut answers: the take as it now is (a new take, `chunk` its id, in the
    /// same place `take`), its paragraph, and what was taken out.
    struct CutAccepted: Encodable, Sendable {
        let article: String
        let chunk: String
        let take: Int
        let paragraph: NullWhenAbsent<Int>
        let framesCut: Int
        let secondsCut: Double
    }

    /// What leaving a take as it is at a cut answers.
    struct CutLeft: Encodable, Sendable {
        let article: String
        let chunk: String
        let take: Int
        let paragraph: NullWhenAbsent<Int>
        let number: Int
    }

    /// A change since the last send-back: the take's paragraph (null for none), how it changed,
    /// where it is heard now, and the paragraph's text ("" for none).
    struct Change: Encodable, Sendable {
        let paragraph: NullWhenAbsent<Int>
        let kind: String
        let start: Double
        let end: Double
        let text: String
    }

    /// The article as the review page opens it.
    struct ReviewedPage: Encodable, Sendable {
        struct Heading: Encodable, Sendable {
            let id: String
            let title: String
            let publication: String
            let volunteer: NullWhenAbsent<String>
            let state: String
            let stateTitle: String
        }

        let article: Heading
        /// The length of its audio in seconds.
        let duration: Double
        let paragraphs: [TimedParagraph]
        let notes: [Note]
        /// Empty until it was sent back and came back.
        let changes: [Change]

        /// The page of `review` (an article on the desk) with its text's `paragraphs` and what
        /// the take check found in its takes.
        init(_ review: ReviewDesk.Context, paragraphs: [Paragraph], findings: ReviewDesk.TakeFindings) throws(NarrationError) {
            let (reviewed, entry) = (review.reviewed, review.entry)
            article = Heading(
                id: review.article.id.rawValue, title: review.article.title, publication: review.article.publication,
                volunteer: NullWhenAbsent(entry?.assignee?.rawValue), state: entry?.state.rawValue ?? "", stateTitle: entry?.state.title ?? "")
            duration = reviewed.seconds
            let times = TimedParagraph.times(reviewed)
            let rate = reviewed.sampleRate
            let cuts = Dictionary(grouping: findings.cuts.compactMap { cut in
                cut.paragraph.map { ($0, Cut(cut, takeStart: findings.takeStarts[cut.chunk] ?? 0, sampleRate: rate)) }
            }, by: \.0)
            let flags = Dictionary(grouping: findings.flags.compactMap { flag in
                flag.paragraph.map { ($0, Flag(flag, takeStart: findings.takeStarts[flag.chunk] ?? 0, sampleRate: rate)) }
            }, by: \.0)
            self.paragraphs = paragraphs.map {
                TimedParagraph(
                    number: $0.number, kind: $0.kind.rawValue, text: $0.text, start: NullWhenAbsent(times[$0.number]?.start),
                    end: NullWhenAbsent(times[$0.number]?.end), cuts: (cuts[$0.number] ?? []).map(\.1), flags: (flags[$0.number] ?? []).map(\.1))
            }
            let looked = try ReviewDesk.looked(review)
            notes = looked.notes.map { Note($0, reviewed: reviewed) }
            let texts = Dictionary(paragraphs.map { ($0.number, $0.text) }, uniquingKeysWith: { first, _ in first })
            changes = (looked.changes?.changes ?? []).map {
                Change(paragraph: NullWhenAbsent($0.paragraph), kind: $0.kind.rawValue, start: $0.start, end: $0.end, text: $0.paragraph.flatMap { texts[$0] } ?? "")
            }
        }
    }

    /// What a heard report answers: the seconds, and whether they were counted to the hours.
    struct Heard: Encodable, Sendable {
        let article: String
        let seconds: Double
        let counted: Bool
    }

    /// What a send-back answers.
    struct SentBack: Encodable, Sendable {
        let article: String
        let state: String
        let pickups: Int
    }

    /// `POST /api/review/ID/notes`: a paragraph and a time, with "said" and "should be", or a "text".
    struct NoteForm: Decodable, Sendable {
        var paragraph: Int
        var at: Double
        var said: String?
        var shouldBe: String?
        var text: String?

        /// The note's content, each text checked (`ReviewNoteText`).
        /// - Throws: `usage` for a body that is neither form, or a text refused.
        func content() throws(NarrationError) -> ReviewNote.Content {
            switch (said, shouldBe, text) {
            case (nil, nil, let text?): return .remark(try ReviewNoteText(text, field: "text", limit: ReviewNoteText.remarkLimit))
            case (let said?, let shouldBe?, nil):
                return .saidShouldBe(
                    said: try ReviewNoteText(said, field: "\"said\"", limit: ReviewNoteText.phraseLimit),
                    shouldBe: try ReviewNoteText(shouldBe, field: "\"should be\"", limit: ReviewNoteText.phraseLimit))
            default: throw .usage(ReviewRoutes.noteForms)
            }
        }
    }

    /// `POST /api/review/ID/heard`: the seconds of audio heard in one stretch of listening.
    struct HeardForm: Decodable, Sendable {
        var seconds: Double
    }
}
