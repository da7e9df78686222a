import Foundation
@testable import Narration
import NarrationCore
import NarrationTestSupport
import SQLEngines
import Testing

/// `narrate migrate` of a library of 200 articles (400 chunks) into a real PostgreSQL server,
/// killed with SIGKILL halfway (while it waits on the chunk table, which the test holds locked),
/// then run again: it goes on, writes what was missing, verifies every row and every chunk's
/// file, and the library read through the shared catalog lists all 200 articles.
@Suite("narrate migrate")
struct MigrateCommandTests {
    /// A library of `articles` articles of two chunks each: one real take, its file copied for the others.
    static func library(_ fixture: EndToEndFixture, articles: Int) throws {
        let library = try NarrationLibrary(root: DataRoot(url: fixture.narrate.home))
        let first = try library.newArticle(title: "Article 1", publication: "Post", narrator: "Ann", format: .speech)
        let recording = try library.prepareRecording(
            into: first, placement: .append, device: "vmic", duration: 0.1, definitions: fixture.devices.definitions)
        try recording.start()
        let take = try #require(recording.finish().chunk)
        let file = library.root.chunkURL(take.id, of: first.id)
        for number in 1...articles {
            let article = number == 1 ? first : try library.newArticle(title: "Article \(number)", publication: "Post", narrator: "Ann", format: .speech)
            for _ in (number == 1 ? 1 : 0)..<2 {
                let chunk = Chunk(
                    id: ChunkID.random(), articleID: article.id, frames: take.frames, format: .speech, peak: take.peak, rms: take.rms,
                    overruns: 0, recovered: false, recordedAt: Date(), paragraphID: nil)
                try FileManager.default.copyItem(at: file, to: library.root.chunkURL(chunk.id, of: article.id))
                _ = try library.catalog.commitTake(chunk, target: .append, moveFiles: { _ in })
            }
        }
    }

    static func count(_ engine: PostgreSQLEngine, _ table: String) throws -> Int {
        try engine.read { sql throws(SQLEngineError) in try sql.row("SELECT COUNT(*) AS n FROM \(table)")?.int("n") ?? -1 }
    }

    @Test("killed while it copies the chunks, then run again: 200 articles and 400 chunks, every row and file verified")
    func killedAndResumed() throws {
        let (_, address) = try SharedCatalogCommandTests.database()
        let fixture = try EndToEndFixture()
        try Self.library(fixture, articles: 200)
        let narrate = Narrate(home: fixture.narrate.home, environment: fixture.narrate.environment.merging(["NARRATE_CATALOG_PASSWORD": PostgreSQLServer.password]) { $1 })

        // The catalog's tables made, then the chunk table held by a transaction of the test's.
        let engine = try PostgreSQLEngine(address: PostgreSQLAddress(parsing: address), password: PostgreSQLServer.password)
        defer { engine.close() }
        _ = try Catalog(engine: engine, name: "the test's view")
        let locked = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let holder = Thread {
            _ = try? engine.write { sql throws(SQLEngineError) in
                try sql.execute("LOCK TABLE chunk IN ACCESS EXCLUSIVE MODE")
                locked.signal()
                release.wait()
            }
        }
        holder.start()
        locked.wait()
        let running = try narrate.start(["migrate", "--to", address, "--progress", "json", "--batch-rows", "50"])
        let reached = running.waitForStderrLine { $0.contains(#""table":"chunk""#) }
        #expect(reached != nil)
        Thread.sleep(forTimeInterval: 1)  // its first insert into chunk now waits on the lock
        running.signal(SIGKILL)
        let killed = running.wait()
        #expect(killed.status != 0)
        release.signal()
        while holder.isExecuting { Thread.sleep(forTimeInterval: 0.05) }
        #expect(try Self.count(engine, "article") == 200)
        #expect(try Self.count(engine, "chunk") == 0)

        let resumed = try narrate.run(["migrate", "--to", address, "--json", "--progress", "none"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let report = try #require(try resumed.json() as? [String: Any])
        let tables = try #require(report["tables"] as? [[String: Any]])
        let byName = Dictionary(uniqueKeysWithValues: tables.compactMap { table in (table["table"] as? String).map { ($0, table) } })
        #expect(byName["article"]?["rows"] as? Int == 200)
        #expect(byName["article"]?["written"] as? Int == 0)
        #expect(byName["chunk"]?["rows"] as? Int == 400)
        #expect(byName["chunk"]?["written"] as? Int == 400)
        #expect(report["chunksVerified"] as? Int == 400)
        #expect((report["chunkProblems"] as? [String]) == [])
        #expect(try Self.count(engine, "chunk") == 400)

        // The library through the shared catalog, as a host with [service] catalog opens it.
        let shared = try fixture.narrate(config: "[service]\ncatalog = \"\(address)\"\n")
        let listed = try Narrate(home: shared.home, environment: shared.environment.merging(["NARRATE_CATALOG_PASSWORD": PostgreSQLServer.password]) { $1 })
            .run(["list", "--json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect((try listed.json() as? [[String: Any]])?.count == 200)
    }

    @Test("with [service] recordings, migrate copies every chunk to the store (the trash too), each checked and recorded; run again, none twice")
    func copiesRecordings() throws {
        let (_, address) = try SharedCatalogCommandTests.database()
        let fixture = try EndToEndFixture()
        try Self.library(fixture, articles: 10)
        let library = try NarrationLibrary(root: DataRoot(url: fixture.narrate.home))
        let article = try #require(try library.catalog.articles().first { $0.title == "Article 3" })
        let deleted = try library.deleteChunk(at: ChunkIndex(position: 0), of: article).chunk
        let store = fixture.folder.url.appendingPathComponent("recordings-store")
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        let configured = try fixture.narrate(config: "[service]\ncatalog = \"\(address)\"\nrecordings = \"\(store.path)\"\n")
        let narrate = Narrate(home: configured.home, environment: configured.environment.merging(["NARRATE_CATALOG_PASSWORD": PostgreSQLServer.password]) { $1 })

        let first = try narrate.run(["migrate", "--json", "--progress", "none"])
        #expect(first.status == 0, "\(first.stderr)")
        let report = try #require(try first.json() as? [String: Any])
        #expect(report["recordings"] as? String == store.path)
        #expect(report["chunksCopied"] as? Int == 20, "19 in the articles' lists and 1 in the trash")
        #expect(report["chunksCopiedBefore"] as? Int == 0)
        let trashed = store.appendingPathComponent("articles/\(article.id.rawValue)/\(deleted.id.rawValue).wav")
        #expect(try Data(contentsOf: trashed) == (try Data(contentsOf: library.root.trashedChunkURL(deleted.id, of: article.id))))
        for other in try library.catalog.articles() {
            for entry in try library.chunkEntries(of: other) {
                let copy = store.appendingPathComponent("articles/\(other.id.rawValue)/\(entry.chunk.id.rawValue).wav")
                #expect(try Data(contentsOf: copy) == (try Data(contentsOf: entry.file)))
            }
        }
        let engine = try PostgreSQLEngine(address: PostgreSQLAddress(parsing: address), password: PostgreSQLServer.password)
        defer { engine.close() }
        #expect(try Self.count(engine, "chunk_copy") == 20)

        let again = try narrate.run(["migrate", "--progress", "none"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("Copied 0 chunks to \(store.path), each checked; 20 chunks had been copied before."), "\(again.stdout)")
    }

    @Test("no catalog named, or a library with no catalog yet: one sentence each, nothing made")
    func refusals() throws {
        let fixture = try EndToEndFixture()
        let none = try fixture.narrate.run(["migrate"])
        #expect(none.status == 64)
        #expect(none.stderr.contains("Name the PostgreSQL catalog to migrate into: --to postgresql://USER@HOST:PORT/DATABASE"), "\(none.stderr)")
        let empty = try fixture.narrate.run(["migrate", "--to", "postgresql://narrate@127.0.0.1:1/none"])
        #expect(empty.status == 64)
        #expect(empty.stderr.contains("has no catalog yet, so there is nothing to migrate"), "\(empty.stderr)")
        #expect(!FileManager.default.fileExists(atPath: fixture.narrate.home.appendingPathComponent("catalog.sqlite").path))
        let range = try fixture.narrate.run(["migrate", "--batch-rows", "0"])
        #expect(range.status == 64)
        #expect(range.stderr.contains("--batch-rows 0 is out of range: give 1 to 10000 rows per transaction."), "\(range.stderr)")
    }
}
