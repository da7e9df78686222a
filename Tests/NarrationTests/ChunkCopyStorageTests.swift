import Foundation
@testable import Narration
import NarrationCore
import NarrationTestSupport
import ObjectStorage
import Synchronization
import Testing

/// The recordings store on a real S3 server (SeaweedFS) with the catalog on PostgreSQL, as a
/// service of several hosts has it (`ChunkCopyTests` runs the same paths on both engines with the
/// store in memory): the
/// service's copier (`ChunkCopier`) copies each take as it is kept, read back through boto3 byte
/// for byte; with the server killed, takes wait on the host's disk and the rounds fail and are
/// tried again; once it is back every take is copied, none twice; a second host brings them home.
@Suite("Chunks copied to a real S3 server")
struct ChunkCopyStorageTests {
    /// Waits until `condition` holds, up to `seconds` (a wait, not a timing: the copier's backoff
    /// and a fresh SeaweedFS's first answers set how long it takes).
    private func eventually(_ seconds: Double, _ condition: () throws -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return try condition()
    }

    /// Waits until the store takes a first object: a fresh SeaweedFS may answer the first uploads
    /// with 500 while it grows a volume, longer on a loaded machine (as `DeliveryStoreContractTests`
    /// waits). The copier's own retries would get there too, but this test is about the copier.
    static func warmUp(_ store: RecordingStore) async throws {
        let probe = Data(repeating: 0x42, count: 70_000)
        for attempt in 1...60 {
            do {
                _ = try await store.store.write(probe, to: "narrate-warm-up/probe.bin", contentType: "application/octet-stream")
                try await store.store.delete("narrate-warm-up/probe.bin")
                return
            } catch {
                if attempt == 60 { throw error }
                try await Task.sleep(for: .seconds(1))
            }
        }
    }

    @Test("takes copied as kept; the server killed: they wait and rounds fail; back: all copied once; a second host brings them home",
          arguments: [CatalogEngines.Kind.postgreSQL])
    func copierAgainstSeaweedFS(_ kind: CatalogEngines.Kind) async throws {
        let server = try ObjectStorageServer(buckets: ["takes"])
        let fixture = try LibraryFixture(catalog: kind)
        let library = fixture.library
        let destination = try S3Destination(url: "s3://takes/service", endpoint: server.endpoint, pathStyle: true)
        let store = RecordingStore(try NarrationLibrary.store(for: .s3(destination), environment: ObjectStorageServer.credentialsEnvironment))
        try await Self.warmUp(store)
        let copier = ChunkCopier(library: library, recordings: store, interval: .seconds(2))
        let copied = Mutex<[ChunkCopier.Copied]>([])
        let failures = Mutex(0)
        let lastFailure = Mutex("")
        let running = Task {
            await copier.run { result in
                switch result {
                case .success(let round): copied.withLock { $0 += round }
                case .failure(let error):
                    failures.withLock { $0 += 1 }
                    lastFailure.withLock { $0 = error.message }
                }
            }
        }
        let article = try library.newArticle(title: "Lifeboat", publication: "", narrator: "", format: .speech)
        try fixture.record(article, seconds: 0.4)
        try fixture.record(article, seconds: 0.3)
        // The copies are told after their round ends: wait for the telling, then check the catalog.
        #expect(
            try await eventually(60) { copied.withLock { $0.count } == 2 },
            "the first two takes were not copied: \(failures.withLock { $0 }) rounds failed, the last with \(lastFailure.withLock { $0 }); \(server.logTail())")
        #expect(try library.chunksAwaitingCopy() == 0)
        #expect(copied.withLock { $0.allSatisfy { $0.sinceKept != nil } }, "each take's time from kept to stored is known")

        server.kill()
        let failuresBefore = failures.withLock { $0 }
        try fixture.record(article, seconds: 0.5)
        #expect(try await eventually(30) { failures.withLock { $0 } > failuresBefore }, "a round with the server down fails")
        #expect(try library.chunksAwaitingCopy() == 1)

        try server.start()
        try await Self.warmUp(store)
        #expect(
            try await eventually(90) { copied.withLock { $0.count } == 3 },
            "the third take was not copied once the server was back: the last failure \(lastFailure.withLock { $0 })")
        #expect(try library.chunksAwaitingCopy() == 0)
        running.cancel()
        await running.value

        let entries = try library.chunkEntries(of: article)
        let objects = try server.objects(in: "takes")
        #expect(objects.map(\.key).sorted() == entries.map { "service/articles/\(article.id.rawValue)/\($0.chunk.id.rawValue).wav" }.sorted())
        #expect(copied.withLock { $0.map(\.copy.chunk) }.sorted { $0.rawValue < $1.rawValue } == entries.map(\.chunk.id).sorted { $0.rawValue < $1.rawValue },
                "each take copied exactly once")
        for entry in entries {
            let key = "service/articles/\(article.id.rawValue)/\(entry.chunk.id.rawValue).wav"
            #expect(try server.contents(of: key, in: "takes") == (try Data(contentsOf: entry.file)))
            #expect(objects.first { $0.key == key }?.metadata["sha256"] == (try library.catalog.chunkCopy(of: entry.chunk.id))?.sha256)
        }

        // Another host on the same catalog, with a data folder of its own, brings them home.
        let secondRoot = DataRoot(url: fixture.folder.url.appendingPathComponent("second-host"))
        let second = try NarrationLibrary(root: secondRoot, catalog: Catalog(engine: try CatalogEngines.another(library.catalog.engine), name: "host 2"))
        #expect(try await second.bringChunksHome(of: article.id, from: store) == 3)
        for entry in entries {
            #expect(try Data(contentsOf: secondRoot.chunkURL(entry.chunk.id, of: article.id)) == (try Data(contentsOf: entry.file)))
        }
        await store.close()
    }
}
