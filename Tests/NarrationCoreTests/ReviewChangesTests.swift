import NarrationCore
import Testing

/// What changed since a send-back, from the chunk lists before and after, by take id: each
/// kind of change, where it lies in the new audio, and the paragraph it reads.
@Suite("What changed since an article was sent back")
struct ReviewChangesTests {
    /// Paragraph ids p1…p4 are paragraphs 1…4.
    static let numbers: [ParagraphID: Int] = Dictionary(uniqueKeysWithValues: (1...4).map { (ParagraphID("p\($0)"), $0) })

    /// A chunk "a:2000:1" is take a, 2000 frames, paragraph 1 ("-" for none).
    static func chunks(_ spec: String) -> [ReviewChunk] {
        spec.split(separator: " ").map { item in
            let parts = item.split(separator: ":")
            return ReviewChunk(id: ChunkID(String(parts[0])), frames: Int(parts[1])!, paragraph: parts[2] == "-" ? nil : ParagraphID("p\(parts[2])"))
        }
    }

    static func changes(_ before: String, _ after: String, punched: Set<String> = []) -> [ReviewChanges.Change] {
        ReviewChanges(
            before: chunks(before), after: chunks(after), punched: Set(punched.map(ChunkID.init)), paragraphNumbers: numbers, sampleRate: 1_000
        ).changes
    }

    static let before = "a:2000:1 b:3000:2 c:1000:3"

    @Test("nothing changed: no change")
    func unchanged() {
        #expect(Self.changes(Self.before, Self.before).isEmpty)
    }

    @Test("a take recorded again in place is replaced, at its place in the new audio")
    func replaced() {
        #expect(Self.changes(Self.before, "a:2000:1 b2:2500:2 c:1000:3") == [.init(kind: .replaced, paragraph: 2, chunk: 2, start: 2, end: 4.5)])
    }

    @Test("a take made by punch-and-roll is punched")
    func punched() {
        #expect(Self.changes(Self.before, "a:2000:1 b:3000:2 c2:1500:3", punched: ["c2"]) == [.init(kind: .punched, paragraph: 3, chunk: 3, start: 5, end: 6.5)])
    }

    @Test("a new take between kept ones is inserted")
    func inserted() {
        #expect(Self.changes(Self.before, "a:2000:1 n:500:1 b:3000:2 c:1000:3") == [.init(kind: .inserted, paragraph: 1, chunk: 2, start: 2, end: 2.5)])
    }

    @Test("a take gone is deleted, at the point where it was in the new audio")
    func deleted() {
        #expect(Self.changes(Self.before, "a:2000:1 c:1000:3") == [.init(kind: .deleted, paragraph: 2, chunk: nil, start: 2, end: 2)])
        #expect(Self.changes(Self.before, "b:3000:2 c:1000:3") == [.init(kind: .deleted, paragraph: 1, chunk: nil, start: 0, end: 0)])
        #expect(Self.changes(Self.before, "a:2000:1 b:3000:2") == [.init(kind: .deleted, paragraph: 3, chunk: nil, start: 5, end: 5)])
    }

    @Test("a paragraph read again as one take in place of two: one replaced, one deleted")
    func reread() {
        let before = "a:2000:1 b:1000:2 c:1000:2 d:1000:3"
        #expect(Self.changes(before, "a:2000:1 r:2500:2 d:1000:3") == [
            .init(kind: .replaced, paragraph: 2, chunk: 2, start: 2, end: 4.5),
            .init(kind: .deleted, paragraph: 2, chunk: nil, start: 4.5, end: 4.5),
        ])
    }

    @Test("every kind at once, grouped by paragraph in the order they are heard")
    func byParagraph() {
        let result = ReviewChanges(
            before: Self.chunks("a:2000:1 b:3000:2 c:1000:3 d:1000:4"), after: Self.chunks("a2:1000:1 b:3000:2 n:1000:2 c2:2000:3"),
            punched: [ChunkID("c2")], paragraphNumbers: Self.numbers, sampleRate: 1_000)
        #expect(result.changes == [
            .init(kind: .replaced, paragraph: 1, chunk: 1, start: 0, end: 1),
            .init(kind: .inserted, paragraph: 2, chunk: 3, start: 4, end: 5),
            .init(kind: .punched, paragraph: 3, chunk: 4, start: 5, end: 7),
            .init(kind: .deleted, paragraph: 4, chunk: nil, start: 7, end: 7),
        ])
        #expect(result.byParagraph.map(\.paragraph) == [1, 2, 3, 4])
        #expect(result.byParagraph[2].start == 5 && result.byParagraph[2].end == 7)
    }

    @Test("a take that reads no paragraph has none; a new take on another paragraph is no replacement of the old")
    func noParagraph() {
        #expect(Self.changes("a:1000:-", "z:1000:-") == [.init(kind: .replaced, paragraph: nil, chunk: 1, start: 0, end: 1)])
        #expect(Self.changes("a:1000:1", "z:1000:9") == [
            .init(kind: .inserted, paragraph: nil, chunk: 1, start: 0, end: 1), .init(kind: .deleted, paragraph: 1, chunk: nil, start: 1, end: 1),
        ])
    }

    @Test("a kept take moved elsewhere is not a change; what left around it still is")
    func moved() {
        #expect(Self.changes(Self.before, "c:1000:3 a:2000:1") == [.init(kind: .deleted, paragraph: 2, chunk: nil, start: 3, end: 3)])
    }

    @Test("a file changed under the same take id is replaced; an unknown checksum on either side is taken as the same audio")
    func checksums() {
        let sum = { (digit: Character) in String(repeating: digit, count: 64) }
        let before = [ReviewChunk(id: ChunkID("a"), frames: 1_000, paragraph: ParagraphID("p1"), checksum: sum("a"))]
        let changed = [ReviewChunk(id: ChunkID("a"), frames: 1_000, paragraph: ParagraphID("p1"), checksum: sum("b"))]
        let unknown = [ReviewChunk(id: ChunkID("a"), frames: 1_000, paragraph: ParagraphID("p1"), checksum: nil)]
        let compare = { (after: [ReviewChunk]) in
            ReviewChanges(before: before, after: after, punched: [], paragraphNumbers: Self.numbers, sampleRate: 1_000).changes
        }
        #expect(compare(changed) == [.init(kind: .replaced, paragraph: 1, chunk: 1, start: 0, end: 1)])
        #expect(compare(unknown).isEmpty)
        #expect(compare(before).isEmpty)
        #expect(ReviewChunk.isChecksum(sum("f")) && !ReviewChunk.isChecksum(sum("F")) && !ReviewChunk.isChecksum("ab"))
    }
}
