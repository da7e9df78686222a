import Foundation
@testable import Narration
import NarrationCore
import NarrationTestSupport
import Studio
import Testing

/// Another narrate command changes the article under an open studio (a chunk deleted from a
/// terminal): the studio's x never deletes a chunk it did not show.
@Suite("Studio and changes made elsewhere")
struct StudioOutsideChangeTests {
    @Test("read again after a command-line delete, the selection stays on its chunk and x then deletes that one")
    func reloadKeepsTheSelectedChunk() throws {
        let session = try StudioTests.Session(recorded: [0.3, 0.4, 0.5])
        let article = try #require(session.article)
        let ids = session.studio.chunkIDs
        session.press(.up)  // chunk 2 of 3
        #expect(session.state.selection == 1)
        try session.library.deleteChunk(at: ChunkIndex(1), of: article)
        #expect(session.studio.reloadAfterOutsideChange())
        #expect(session.studio.chunkIDs == Array(ids[1...]))
        #expect(session.state.selection == 0)
        #expect(session.state.notice?.text == "Another narrate command changed the chunks: the list shows them as they are now.")
        let kept = try Data(contentsOf: session.library.chunkEntries(of: article)[1].file)
        session.press(.character("x"), .character("y"))
        let left = try session.library.chunkEntries(of: article)
        #expect(left.map(\.chunk.id) == [ids[2]])
        #expect(try Data(contentsOf: left[0].file) == kept)
    }

    @Test("a delete confirmed on a list another command changed meanwhile deletes nothing and says so")
    func staleDeleteIsRefused() throws {
        let session = try StudioTests.Session(recorded: [0.3, 0.4, 0.5])
        let article = try #require(session.article)
        session.press(.up, .character("x"))  // "Delete chunk 2?" for the second take
        try session.library.deleteChunk(at: ChunkIndex(1), of: article)  // from a terminal
        let before = try session.library.chunkEntries(of: article).map { try Data(contentsOf: $0.file) }
        session.press(.character("y"))
        #expect(
            session.state.notice?.text
                == "Chunk 2 changed since the list was shown (another narrate command changed the article), so nothing was deleted: look at the list again.")
        let after = try session.library.chunkEntries(of: article)
        #expect(after.count == 2)
        #expect(try after.map { try Data(contentsOf: $0.file) } == before)
        #expect(session.state.chunks.count == 2, "the list is read again")
    }
}
