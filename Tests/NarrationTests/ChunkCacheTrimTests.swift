import Foundation
import NarrationCore
import NarrationTestSupport
import Testing

@testable import Narration

/// A host's chunk files as a cache of the recordings store (`trimChunkCache`): only files of a
/// finished article whose recorded copy the store holds, the same bytes, go; never those of an
/// article still in work or one a take is using.
@Suite("A host's chunk cache, trimmed")
struct ChunkCacheTrimTests {
    @Test("an article in work on the desk, or whose lock a take holds, keeps every file; withdrawn and free, its files go, and come home again equal")
    func busyArticle() async throws {
        let fixture = try LibraryFixture(catalog: .sqlite, sourceSeconds: 3)
        let library = fixture.library
        let desk = DeskService(store: library.deskStore)
        let entry = try desk.add(.init(title: "Harbour", publication: "Gazette"), by: .service) { (new) throws(NarrationError) in
            try library.makeDeskArticle(new, text: nil)
        }
        let article = try library.article(entry.article.rawValue)
        try fixture.record(article, seconds: 1)
        try fixture.record(article, seconds: 0.5)
        let recordings = RecordingStore(MemoryDeliveryStore())
        #expect(try await library.copyChunks(to: recordings).copied.count == 2)
        let files = try library.chunkEntries(of: article).map(\.file)
        let bytes = try files.map { try Data(contentsOf: $0) }

        // Open on the desk, a studio may be reading its files: left whole.
        #expect(try await library.trimChunkCache(keeping: recordings, dryRun: false) == ChunkCacheTrim(files: 0, bytes: 0, articlesLeft: 1, kept: 0))
        _ = try desk.withdraw(article.id, by: .service)
        do {
            let lock = try #require(try ArticleLock.tryAcquire(library.root.lockURL(article.id), purpose: .recording))
            let busy = try await library.trimChunkCache(keeping: recordings, dryRun: false)
            #expect(busy == ChunkCacheTrim(files: 0, bytes: 0, articlesLeft: 1, kept: 0))
            #expect(files.allSatisfy { FileManager.default.fileExists(atPath: $0.path) })
            withExtendedLifetime(lock) {}
        }
        // The take is over (its lock let go).
        let lockFree = try await library.trimChunkCache(keeping: recordings, dryRun: false)
        #expect(lockFree == ChunkCacheTrim(files: 2, bytes: bytes.map(\.count).reduce(0, +), articlesLeft: 0, kept: 0))
        #expect(files.allSatisfy { !FileManager.default.fileExists(atPath: $0.path) })
        #expect(try await library.bringChunksHome(of: article.id, from: recordings) == 2)
        #expect(try files.map { try Data(contentsOf: $0) } == bytes)
    }
}
