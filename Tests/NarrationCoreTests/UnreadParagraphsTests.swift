import Foundation
import NarrationCore
import Testing

/// What is unread, spelled compactly, and how skipped paragraphs and moved takes change the
/// reading plan: pure logic, with the binary's tests in UnfinishedArticleTests.
@Suite("Unread and skipped paragraphs")
struct UnreadParagraphsTests {
    @Test("unread paragraphs are said in runs, for people and for a command", arguments: [
        ([3], 10, "Paragraph 3 of 10", "3"),
        (Array(2...10), 10, "Paragraphs 2–10 of 10", "2-10"),
        ([2, 3, 4, 7, 9, 10], 10, "Paragraphs 2–4, 7 and 9–10 of 10", "2-4,7,9-10"),
        ([1, 3], 4, "Paragraphs 1 and 3 of 4", "1,3"),
        ([5, 6], 6, "Paragraphs 5–6 of 6", "5-6"),
    ])
    func spelled(numbers: [Int], total: Int, description: String, compact: String) throws {
        let unread = try #require(UnreadParagraphs(numbers: numbers, total: total))
        #expect(unread.description == description)
        #expect(unread.compact == compact)
    }

    @Test("nothing unread is no value, and the refusal names what is unread with its remedy")
    func refusal() throws {
        #expect(UnreadParagraphs(numbers: [], total: 4) == nil)
        let unread = try #require(UnreadParagraphs(numbers: [2, 3], total: 3))
        #expect(unread.refusal == NarrationError(.articleUnfinished, "Paragraphs 2–3 of 3 are not read.", remedy: .readSkipOrSendIncomplete(unread)))
    }

    static let paragraphs = (1...5).map { number in
        Paragraph(id: ParagraphID("p\(number)"), number: number, kind: .paragraph, text: "Paragraph \(number)", wordCount: 2, isSkipped: number == 2 || number == 3)
    }

    static func chunk(_ id: String, _ paragraph: Int?, at second: Double) -> ReadingPlan.ChunkBinding {
        ReadingPlan.ChunkBinding(id: ChunkID(id), paragraph: paragraph.map { ParagraphID("p\($0)") }, recordedAt: Date(timeIntervalSince1970: second))
    }

    @Test("skipped paragraphs are neither next nor unread, and reading one is refused")
    func skipped() throws {
        let plan = ReadingPlan(paragraphs: Self.paragraphs, chunks: [Self.chunk("a", 1, at: 1)])
        #expect(plan.next?.number == 4)
        #expect(plan.unread?.numbers == [4, 5])
        #expect(throws: NarrationError(.usage, "Paragraph 2 of \"T\" is skipped, so it is not read.", remedy: .unskipParagraph(2))) {
            try plan.take(.reread(2), title: "T")
        }
        let done = ReadingPlan(paragraphs: Self.paragraphs, chunks: [Self.chunk("a", 1, at: 1), Self.chunk("d", 4, at: 2), Self.chunk("e", 5, at: 3)])
        #expect(done.unread == nil)
        #expect(throws: NarrationError(.usage, "Every paragraph of \"T\" is read or skipped (3 read, 2 skipped).", remedy: .rereadOrContinue)) {
            try done.take(.next, title: "T")
        }
    }

    @Test("a take moved to another paragraph goes after that paragraph's chunks, else where its first reading would")
    func rebinding() throws {
        let plan = ReadingPlan(
            paragraphs: Self.paragraphs, chunks: [Self.chunk("a", 1, at: 1), Self.chunk("b", 1, at: 2), Self.chunk("e", 5, at: 3)])
        #expect(try plan.rebinding(ChunkID("b"), to: 5, title: "T").position == .after(ChunkID("e")))
        #expect(try plan.rebinding(ChunkID("b"), to: 4, title: "T").position == .before(ChunkID("e")))
        #expect(try plan.rebinding(ChunkID("e"), to: 1, title: "T").position == .after(ChunkID("b")))
        #expect(throws: NarrationError(.usage, "Paragraph 3 of \"T\" is skipped, so it is not read.", remedy: .unskipParagraph(3))) {
            try plan.rebinding(ChunkID("a"), to: 3, title: "T")
        }
    }
}
