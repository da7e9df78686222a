import Foundation
import NarrationCore
import Testing

/// Which paragraph a take reads and where it goes, and the chapters and transcripts made from
/// the paragraphs: pure logic, with the binary's tests in ScriptCommandTests.
@Suite("Reading plan, chapters and transcripts")
struct ReadingPlanTests {
    static let paragraphs = (1...5).map { number in
        Paragraph(
            id: ParagraphID("p\(number)"), number: number, kind: number == 1 || number == 4 ? .heading : .paragraph,
            text: "Words of paragraph number \(number) in the text", wordCount: 8)
    }

    static func chunk(_ id: String, _ paragraph: Int?, at second: Double) -> ReadingPlan.ChunkBinding {
        ReadingPlan.ChunkBinding(id: ChunkID(id), paragraph: paragraph.map { ParagraphID("p\($0)") }, recordedAt: Date(timeIntervalSince1970: second))
    }

    @Test("the next paragraph follows the one read last, then wraps round to the first not read")
    func next() throws {
        let none = ReadingPlan(paragraphs: Self.paragraphs, chunks: [])
        #expect(none.next?.number == 1)
        let plan = ReadingPlan(paragraphs: Self.paragraphs, chunks: [Self.chunk("a", 1, at: 1), Self.chunk("b", 4, at: 2), Self.chunk("c", 2, at: 3)])
        #expect(plan.lastRead?.number == 2)
        #expect(plan.next?.number == 3)
        let late = ReadingPlan(paragraphs: Self.paragraphs, chunks: [Self.chunk("a", 1, at: 1), Self.chunk("e", 5, at: 2)])
        #expect(late.next?.number == 2)
        let take = try late.take(.next, title: "T")
        #expect(take.paragraph.number == 2 && take.position == .before(ChunkID("e")))
    }

    @Test("re-reading replaces from a paragraph's first chunk; continuing goes after its last; unread ones go in text order")
    func positions() throws {
        let plan = ReadingPlan(
            paragraphs: Self.paragraphs,
            chunks: [Self.chunk("a", 1, at: 1), Self.chunk("x", nil, at: 9), Self.chunk("b", 2, at: 2), Self.chunk("b2", 2, at: 3), Self.chunk("d", 4, at: 4)])
        #expect(try plan.take(.reread(2), title: "T").position == .replacingParagraphFrom(ChunkID("b")))
        #expect(try plan.take(.continuing(2), title: "T").position == .after(ChunkID("b2")))
        #expect(try plan.take(.continuing(nil), title: "T") == ReadingPlan.Take(paragraph: Self.paragraphs[3], position: .after(ChunkID("d"))))
        #expect(try plan.take(.reread(3), title: "T").position == .before(ChunkID("d")))
        #expect(try plan.take(.reread(5), title: "T").position == .append)
        #expect(plan.chunks(of: ParagraphID("p2")) == [ChunkID("b"), ChunkID("b2")])
    }

    @Test("no text, no such paragraph and nothing left to read are refused with the remedy")
    func refusals() {
        #expect(throws: NarrationError(.usage, "\"T\" has no text, so there is no paragraph to read.", remedy: .attachText)) {
            try ReadingPlan(paragraphs: [], chunks: []).take(.next, title: "T")
        }
        let plan = ReadingPlan(paragraphs: Self.paragraphs, chunks: Self.paragraphs.map { Self.chunk($0.id.rawValue, $0.number, at: 1) })
        #expect(throws: NarrationError(.usage, "There is no paragraph 6: the text has 5 paragraphs (1–5).", remedy: .listParagraphs)) {
            try plan.take(.reread(6), title: "T")
        }
        #expect(throws: NarrationError(.usage, "Every paragraph of \"T\" is read (5 of 5).", remedy: .rereadOrContinue)) {
            try plan.take(.next, title: "T")
        }
    }

    @Test("chapters: one per paragraph span, one per section, or one per chunk")
    func chapters() {
        let p = Self.paragraphs
        // Chunks: heading 1, paragraph 2 in two chunks, paragraph 3, a chunk of no paragraph, heading 4, paragraph 5.
        let frames = [100, 200, 300, 400, 500, 600, 700]
        let plan = ExportPlan(
            format: .speech, chunkFrames: frames, chunkParagraphs: [p[0], p[1], p[1], p[2], nil, p[3], p[4]],
            tags: ExportTags(title: "T", narrator: "", publication: "", date: "2026-11-23", comment: "", articleID: "a"))
        #expect(plan.chapters.map(\.title) == [
            "Words of paragraph number 1 in the text", "Words of paragraph number 2 in…", "Words of paragraph number 3 in…", "Part 5",
            "Words of paragraph number 4 in the text", "Words of paragraph number 5 in…",
        ])
        #expect(plan.chapters.map(\.startFrame) == [0, 100, 600, 1_000, 1_500, 2_100])
        #expect(plan.chapters.map(\.endFrame) == [100, 600, 1_000, 1_500, 2_100, 2_800])
        let sections = ChapterStyle.sections.chapters(spans: plan.spans, chunks: plan.chunks)
        #expect(sections.map(\.title) == ["Words of paragraph number 1 in the text", "Part 5", "Words of paragraph number 4 in the text"])
        #expect(sections.map(\.endFrame) == [1_000, 1_500, 2_800])
        #expect(ChapterStyle.chunks.chapters(spans: plan.spans, chunks: plan.chunks).count == 7)
        #expect(plan.chunks.count == 7 && plan.totalFrames == 2_800)
    }

    @Test("transcripts time each paragraph from frames, to the millisecond, and escape what WebVTT reads as markup")
    func transcripts() {
        let heading = Paragraph(id: ParagraphID("h"), number: 1, kind: .heading, text: "Fish & chips <today>", wordCount: 3)
        let body = Paragraph(id: ParagraphID("b"), number: 2, kind: .paragraph, text: "A --> B", wordCount: 2)
        let spans = TextSpan.spans(chunkFrames: [44_123, 1, 3_600 * 44_100], chunkParagraphs: [heading, nil, body])
        let transcript = Transcript(spans: spans, sampleRate: 44_100)
        #expect(transcript.webVTT == """
            WEBVTT

            1
            00:00:00.000 --> 00:00:01.001
            Fish &amp; chips &lt;today&gt;

            2
            00:00:01.001 --> 01:00:01.001
            A --&gt; B

            """)
        #expect(transcript.subRip == """
            1
            00:00:00,000 --> 00:00:01,001
            Fish & chips <today>

            2
            00:00:01,001 --> 01:00:01,001
            A --> B

            """)
    }

    @Test("sentence cues split a paragraph's cue where the take check heard each sentence begin, keeping its exact ends")
    func sentenceCues() {
        let paragraph = Paragraph(id: ParagraphID("p"), number: 1, kind: .paragraph, text: "One two. Three four. Five six.", wordCount: 6)
        let spans = TextSpan.spans(chunkFrames: [500, 6_000], chunkParagraphs: [nil, paragraph])
        let placed = [SentenceCue(sentence: 1, start: 2.0, end: 3.0), SentenceCue(sentence: 2, start: 3.5, end: 5.0)]
        let split = Transcript(spans: spans, sampleRate: 1_000, sentenceCues: [2: placed])
        #expect(split.cues == [
            Transcript.Cue(startFrame: 500, endFrame: 2_400, text: "One two."),
            Transcript.Cue(startFrame: 2_400, endFrame: 3_750, text: "Three four."),
            Transcript.Cue(startFrame: 3_750, endFrame: 6_500, text: "Five six."),
        ])
        let unplaced = Transcript(spans: spans, sampleRate: 1_000, sentenceCues: [2: Array(placed.prefix(1))])
        #expect(unplaced.cues == [Transcript.Cue(startFrame: 500, endFrame: 6_500, text: paragraph.text)])
    }

    @Test("words are counted in any script", arguments: [
        ("The harbour opened on Monday.", 5), ("Café — owners are pleased", 4), ("港は月曜日に再開した", 10), ("  ", 0), ("1,200 boats", 2),
    ])
    func wordCounts(text: String, words: Int) {
        #expect(WordCount.of(text) == words)
    }
}
