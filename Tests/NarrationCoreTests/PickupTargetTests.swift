import Foundation
import NarrationCore
import Testing

/// Where a pickup starts, from the note's time and the paragraph each chunk reads: a punch in
/// the chunk that holds the time when it reads the note's paragraph, else the paragraph read again.
@Suite("Pickup targets from paragraph timings")
struct PickupTargetTests {
    /// At 1000 frames a second: chunk 1 (0–2 s) reads paragraph 1, chunk 2 (2–5 s) paragraph 2,
    /// chunk 3 (5–6 s) none, chunk 4 (6–8 s) paragraph 2 again.
    static let chunks = [
        PickupTarget.Chunk(frames: 2_000, paragraph: 1), PickupTarget.Chunk(frames: 3_000, paragraph: 2),
        PickupTarget.Chunk(frames: 1_000, paragraph: nil), PickupTarget.Chunk(frames: 2_000, paragraph: 2),
    ]

    static func target(paragraph: Int, milliseconds: Int64, chunks: [PickupTarget.Chunk] = chunks) -> PickupTarget {
        let note = ReviewNote(
            article: ArticleID("k3f9x2ab"), paragraph: paragraph, milliseconds: milliseconds,
            content: .remark(try! ReviewNoteText("x", field: "remark", limit: 10)), author: try! AccountName("dora"), createdAt: Date())
        return PickupTarget.of(note, chunks: chunks, sampleRate: 1_000)
    }

    @Test(
        "table: paragraph, time in ms → target",
        arguments: [
            (1, 0, PickupTarget.punch(chunk: 1, seconds: 0)),
            (1, 1_999, .punch(chunk: 1, seconds: 1.999)),
            (2, 2_000, .punch(chunk: 2, seconds: 0)),  // a boundary belongs to the later chunk
            (1, 2_000, .reread(paragraph: 1)),
            (2, 4_250, .punch(chunk: 2, seconds: 2.25)),
            (2, 5_500, .reread(paragraph: 2)),  // in the chunk that reads none
            (2, 6_100, .punch(chunk: 4, seconds: 0.1)),
            (2, 8_000, .punch(chunk: 4, seconds: 2)),  // the very end belongs to the last chunk
            (3, 1_000, .reread(paragraph: 3)),  // a paragraph in another chunk's time
            (3, 9_000, .reread(paragraph: 3)),  // past the audio
        ])
    func table(paragraph: Int, milliseconds: Int64, expected: PickupTarget) {
        #expect(Self.target(paragraph: paragraph, milliseconds: milliseconds) == expected)
    }

    @Test("an article with no chunks asks for the paragraph to be read")
    func noChunks() {
        #expect(Self.target(paragraph: 4, milliseconds: 0, chunks: []) == .reread(paragraph: 4))
    }

    @Test("the sentence a volunteer hears")
    func sentences() {
        #expect(PickupTarget.punch(chunk: 3, seconds: 4.25).sentence == "punch in at 4.25 s into chunk 3")
        #expect(PickupTarget.reread(paragraph: 7).sentence == "read paragraph 7 again")
    }
}
