import Foundation
@testable import Narration
import NarrationCore
import NarrationTestSupport
import ObjectStorage
import Testing

/// Chunks copied to a reading service's recordings store (`RecordingStore`) after their takes are
/// durable, recorded in the catalog once checked, and brought home by a host that lacks them: on
/// both catalog engines, with the store in memory here; `ChunkCopyStorageTests` does the same
/// against a real S3 server.
@Suite("Chunks copied to the recordings store and brought home")
struct ChunkCopyTests {
    private func bytes(_ url: URL) throws -> Data { try Data(contentsOf: url) }

    /// A library with two takes of 0.3 and 0.4 s in a new article, and its chunks.
    private func twoTakes(_ fixture: LibraryFixture, _ title: String) throws -> (Article, [NarrationLibrary.ChunkEntry]) {
        let article = try fixture.library.newArticle(title: title, publication: "", narrator: "", format: .speech)
        try fixture.record(article, seconds: 0.3)
        try fixture.record(article, seconds: 0.4)
        return (article, try fixture.library.chunkEntries(of: article))
    }

    /// Another host of `fixture`'s library: a data folder of its own, the same catalog.
    private func secondHost(_ fixture: LibraryFixture) throws -> NarrationLibrary {
        let root = DataRoot(url: fixture.folder.url.appendingPathComponent("second-host"))
        return try NarrationLibrary(root: root, catalog: Catalog(engine: try CatalogEngines.another(fixture.library.catalog.engine), name: "the second host"))
    }

    @Test("each take is copied once, checked, its copy recorded; the next round copies nothing; a deleted take is copied from the trash",
          arguments: CatalogEngines.Kind.allCases)
    func copiesEachTakeOnce(_ kind: CatalogEngines.Kind) async throws {
        let fixture = try LibraryFixture(catalog: kind)
        let library = fixture.library
        let article = try library.newArticle(title: "Council", publication: "", narrator: "", format: .speech)
        try fixture.record(article, seconds: 0.5)
        try fixture.record(article, seconds: 0.3)
        try fixture.record(article, seconds: 0.2)
        let chunks = try library.chunkEntries(of: article)
        // The third take is deleted before any copy: its file is in the trash, its row gone.
        try library.deleteChunk(at: ChunkIndex(position: 2), of: article)
        #expect(try library.chunksAwaitingCopy() == 2)
        let memory = MemoryDeliveryStore(name: "memory://takes")
        let store = RecordingStore(memory)

        let round = try await library.copyChunks(to: store, now: { Date(timeIntervalSince1970: 1_800_000_000) })
        #expect(round.copied.map(\.chunk) == chunks.prefix(2).map(\.chunk.id))
        #expect(round.heldElsewhere == 0)
        for (entry, copy) in zip(chunks, round.copied) {
            let file = try bytes(entry.file)
            #expect(copy.key == "articles/\(article.id.rawValue)/\(entry.chunk.id.rawValue).wav")
            #expect(copy.bytes == file.count && copy.bytes == 44 + entry.chunk.frames * 2)
            #expect(copy.sha256 == Digest.sha256Hex(file))
            #expect(try await memory.read(copy.key) == file)
            #expect(memory.attributes(of: copy.key)?.metadata["chunk"] == entry.chunk.id.rawValue)
            #expect(try library.catalog.chunkCopy(of: entry.chunk.id) == copy)
        }
        #expect(try library.chunksAwaitingCopy() == 0)
        #expect(try library.serviceFigures().chunksAwaitingCopy == 0)
        #expect(try await library.copyChunks(to: store).copied == [])
        #expect(try await memory.list(prefix: "").count == 2)

        // A take recorded and deleted between two rounds is still copied, from the trash.
        try fixture.record(article, seconds: 0.25)
        let fourth = try #require(try library.chunkEntries(of: article).last)
        try FileSystem.move(fourth.file, to: library.root.trashedChunkURL(fourth.chunk.id, of: article.id))
        let late = try await library.copyChunks(to: store)
        #expect(late.copied.map(\.chunk) == [fourth.chunk.id])
        #expect(try await memory.read(late.copied[0].key) == (try bytes(library.root.trashedChunkURL(fourth.chunk.id, of: article.id))))
    }

    @Test("a second host sharing the catalog leaves the first host's takes to it, then brings them home byte for byte",
          arguments: CatalogEngines.Kind.allCases)
    func secondHostBringsHome(_ kind: CatalogEngines.Kind) async throws {
        let fixture = try LibraryFixture(catalog: kind)
        let first = fixture.library
        let (article, entries) = try twoTakes(fixture, "Harbour")
        let second = try secondHost(fixture)
        let secondRoot = second.root
        let store = RecordingStore(MemoryDeliveryStore())

        // Before the first host copied them, the second holds neither and cannot bring them home.
        let early = try await second.copyChunks(to: store)
        #expect(early.copied == [] && early.heldElsewhere == 2)
        let missing = await #expect(throws: NarrationError.self) { try await second.bringChunksHome(of: article.id, from: store) }
        #expect(missing?.kind == .chunkFileMissing)
        #expect(missing?.message.contains("the host that recorded it has not copied it yet") == true)

        #expect(try await first.copyChunks(to: store).copied.count == 2)
        #expect(try await second.bringChunksHome(of: article.id, from: store) == 2)
        for entry in entries {
            #expect(try bytes(secondRoot.chunkURL(entry.chunk.id, of: article.id)) == (try bytes(entry.file)))
        }
        let here = try second.chunkEntries(of: article)
        #expect(here.map(\.problem) == [nil, nil])
        #expect(try fixture.samples(of: here[1]) == (try fixture.samples(of: entries[1])))
        // Brought home already: nothing more to bring, and the first host's copy of a lost file comes back too.
        #expect(try await second.bringChunksHome(of: article.id, from: store) == 0)
        try FileManager.default.removeItem(at: entries[0].file)
        #expect(try await first.bringChunksHome(of: article.id, from: store) == 1)
        #expect(try first.chunkEntries(of: article).map(\.problem) == [nil, nil])
    }

    @Test("a take deleted on the first host is undone on the second: its copy comes home into the trash, undo returns the same bytes",
          arguments: CatalogEngines.Kind.allCases)
    func undoOnAnotherHost(_ kind: CatalogEngines.Kind) async throws {
        let fixture = try LibraryFixture(catalog: kind)
        let first = fixture.library
        let (article, entries) = try twoTakes(fixture, "Ferry")
        let store = RecordingStore(MemoryDeliveryStore())
        #expect(try await first.copyChunks(to: store).copied.count == 2)
        try first.deleteChunk(at: ChunkIndex(position: 1), of: article)

        let second = try secondHost(fixture)
        let secondRoot = second.root
        // One chunk in the list, one deleted: each comes home to its place.
        #expect(try await second.bringChunksHome(of: article.id, from: store) == 2)
        #expect(FileManager.default.fileExists(atPath: secondRoot.chunkURL(entries[0].chunk.id, of: article.id).path))
        #expect(try bytes(secondRoot.trashedChunkURL(entries[1].chunk.id, of: article.id)) == (try bytes(first.root.trashedChunkURL(entries[1].chunk.id, of: article.id))))
        let undone = try second.undo(.article(article.id))
        #expect(undone.edit.kind == .delete)
        let after = try second.chunkEntries(of: article)
        #expect(after.map(\.chunk.id) == entries.map(\.chunk.id))
        #expect(after[1].file.path.hasPrefix(secondRoot.url.path))
        #expect(try bytes(after[1].file) == (try bytes(first.root.trashedChunkURL(entries[1].chunk.id, of: article.id))))
        #expect(undone.restored == [entries[1].chunk.id])
    }

    @Test("a host's first round copies the deleted takes in its trash that the store lacks; later rounds leave the trash alone")
    func trashAtFirstRound() async throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        let article = try library.newArticle(title: "Pier", publication: "", narrator: "", format: .speech)
        try fixture.record(article, seconds: 0.2)
        try fixture.record(article, seconds: 0.3)
        let deleted = try library.deleteChunk(at: ChunkIndex(position: 0), of: article).chunk
        let memory = MemoryDeliveryStore()
        let store = RecordingStore(memory)
        let later = try await library.copyChunks(to: store)
        #expect(later.copied.count == 1 && later.copied[0].chunk != deleted.id)
        let first = try await library.copyChunks(to: store, includingTrash: true)
        #expect(first.copied.map(\.chunk) == [deleted.id])
        #expect(try await memory.read(first.copied[0].key) == (try bytes(library.root.trashedChunkURL(deleted.id, of: article.id))))
        #expect(try library.chunkCopyCount() == 2)
        #expect(try await library.copyChunks(to: store, includingTrash: true).copied == [])
    }

    @Test("a store's copy that is not the bytes recorded is refused and nothing is written; a store that fails leaves the take waiting, then copies it")
    func refusesWrongBytesAndRetries() async throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        let article = try library.newArticle(title: "Tide", publication: "", narrator: "", format: .speech)
        try fixture.record(article, seconds: 0.3)
        let entry = try #require(try library.chunkEntries(of: article).first)

        // A store whose root is a file: every write fails, the take stays waiting on this host's disk.
        let blocked = fixture.folder.url.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: blocked)
        let failing = RecordingStore(FolderDeliveryStore(root: blocked))
        await #expect(throws: NarrationError.self) { try await library.copyChunks(to: failing) }
        #expect(try library.chunksAwaitingCopy() == 1)
        #expect(FileManager.default.fileExists(atPath: entry.file.path))

        let memory = MemoryDeliveryStore()
        let store = RecordingStore(memory)
        let copy = try #require(try await library.copyChunks(to: store).copied.first)
        // The object is replaced behind the catalog's back: bringing it home refuses it.
        var other = try bytes(entry.file)
        other[other.count - 1] ^= 0x01
        try await memory.write(other, to: copy.key, contentType: "audio/wav")
        try FileManager.default.removeItem(at: entry.file)
        let refused = await #expect(throws: NarrationError.self) { try await library.bringChunksHome(of: article.id, from: store) }
        #expect(refused?.kind == .fileCorrupt)
        #expect(refused?.message == "The recordings store's copy of chunk \(entry.chunk.id.rawValue) is not the one recorded (\(other.count) bytes, SHA-256 differs); it was not used.")
        #expect(!FileManager.default.fileExists(atPath: entry.file.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: library.root.chunksURL(article.id).path) == [])
    }
}
