import NarrationCore
import Testing

@Suite("Editing the chunk list")
struct ChunkOrderTests {
    let ids = ["a", "b", "c", "d"].map(ChunkID.init)

    @Test("append, insert before, replace and remove keep the order a volunteer expects")
    func edits() throws {
        var order = ChunkOrder(ids)
        #expect(try order.place(ChunkID("e"), .append).index == ChunkIndex(5))
        #expect(try order.place(ChunkID("x"), .insert(before: ChunkIndex(2))).index == ChunkIndex(2))
        #expect(order.ids.map(\.rawValue) == ["a", "x", "b", "c", "d", "e"])
        let replaced = try order.place(ChunkID("y"), .replace(ChunkIndex(4)))
        #expect(replaced.replaced == ChunkID("c"))
        #expect(order.ids.map(\.rawValue) == ["a", "x", "b", "y", "d", "e"])
        #expect(try order.remove(at: ChunkIndex(1)) == ChunkID("a"))
        #expect(order.ids.map(\.rawValue) == ["x", "b", "y", "d", "e"])
        #expect(order.index(of: ChunkID("d")) == ChunkIndex(4))
    }

    @Test("an index outside the list is refused, naming how many chunks there are", arguments: [0, 5, -1])
    func outOfRange(index: Int) {
        var order = ChunkOrder(ids)
        #expect(throws: NarrationError.chunkIndexOutOfRange(ChunkIndex(index), count: 4)) {
            try order.remove(at: ChunkIndex(index))
        }
        #expect(throws: NarrationError.self) { try order.place(ChunkID("z"), .replace(ChunkIndex(index))) }
        #expect(order.ids == ids)
    }

    @Test("the message reads as a sentence, and the remedy is to see the chunks")
    func message() {
        let error = NarrationError.chunkIndexOutOfRange(ChunkIndex(7), count: 5)
        #expect(error.message == "There is no chunk 7: the article has 5 chunks (1–5).")
        #expect(error.remedy == .listChunks && error.subject == .chunk(ChunkIndex(7)))
        #expect(NarrationError.chunkIndexOutOfRange(ChunkIndex(1), count: 0).message.contains("has no chunks yet"))
    }
}
