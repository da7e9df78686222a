import Foundation
import NarrationCore
import NarrationTestSupport
import Testing

@testable import Narration

/// A take's check as a job of the catalog's queue (`TakeCheckWork`), on SQLite and on a real
/// PostgreSQL: asked for when the take is committed and done at once by the host that recorded
/// it; done by another host once the first died holding it; never done for a take deleted
/// meanwhile.
@Suite("A take's check as a job any host does", .serialized)
struct TakeCheckWorkTests {
    /// A library whose article has a one-paragraph text and one take of it.
    struct Fixture {
        let fixture: LibraryFixture
        let article: Article
        let chunk: ChunkID
        var library: NarrationLibrary { fixture.library }

        init(_ kind: CatalogEngines.Kind) throws {
            fixture = try LibraryFixture(catalog: kind, sourceSeconds: 3)
            let library = fixture.library
            article = try library.newArticle(title: "Harbour", publication: "", narrator: "", format: .speech)
            _ = try library.attachText(
                [ScriptParagraph(kind: .paragraph, text: "The harbour stayed closed on Monday while the storm passed.")], to: article, file: "text.txt")
            try fixture.record(article, seconds: 2)
            chunk = try #require(try library.catalog.chunks(of: article).first).id
        }

        /// The queue's jobs: kind, subject, state, tries.
        func jobs() throws -> [[String]] {
            try library.catalog.reading { sql in
                try sql.rows("SELECT kind, subject, state, attempts FROM work_job ORDER BY createdAt").map {
                    [try $0.text("kind"), try $0.text("subject"), try $0.text("state"), "\(try $0.int("attempts"))"]
                }
            }
        }
    }

    @Test("checked here: asked for before it runs (due after the hand-off), then done at once; the check kept, the job done on its first try",
          arguments: CatalogEngines.Kind.allCases)
    func checkedHere(_ kind: CatalogEngines.Kind) async throws {
        let fixture = try Fixture(kind)
        let runner = try WorkRunner(library: fixture.library)
        let work = TakeCheckWork(library: fixture.library, runner: runner, language: "en")
        let subject = TakeCheckWork.subject(fixture.chunk, of: fixture.article.id)
        let asked = Date().timeIntervalSince1970
        #expect(try work.ask(for: fixture.article) == [fixture.chunk])
        #expect(try fixture.jobs() == [[TakeCheckWork.kind, subject, "waiting", "0"]])
        // Not due for another host until the hand-off has passed.
        #expect(try runner.queue.take(host: "other-host", lease: 5, now: asked + runner.handOff - 1) == nil)

        let checks = await work.checkHere([fixture.chunk], of: fixture.article)
        #expect(checks.map(\.chunk) == [fixture.chunk])
        let kept = try #require(try fixture.library.catalog.takeChecks(of: fixture.article.id)[fixture.chunk])
        #expect(kept.report == checks.first?.report)
        #expect(try fixture.jobs() == [[TakeCheckWork.kind, subject, "done", "1"]])
        // Asked again, nothing is left to check.
        #expect(try work.ask(for: fixture.article).isEmpty)
    }

    @Test("a host that died with the check asked for: another host (its own data folder on PostgreSQL) checks the take once its lease ran out",
          arguments: CatalogEngines.Kind.allCases)
    func deadHost(_ kind: CatalogEngines.Kind) async throws {
        let fixture = try Fixture(kind)
        let queue = try fixture.library.workQueue()
        let asked = Date().timeIntervalSince1970
        let subject = TakeCheckWork.subject(fixture.chunk, of: fixture.article.id)
        let id = try queue.enqueue(TakeCheckWork.kind, subject: subject, due: asked + 60, now: asked)
        _ = try #require(try queue.take(id, host: "dead-host 1 aaaa", lease: 0.5, now: asked))

        let recordings = RecordingStore(MemoryDeliveryStore())
        let other: NarrationLibrary
        if kind == .postgreSQL {
            #expect(try await fixture.library.copyChunks(to: recordings).copied.count == 1)
            other = try NarrationLibrary(
                root: DataRoot(url: fixture.fixture.folder.url.appendingPathComponent("second-host")),
                catalog: Catalog(engine: try CatalogEngines.another(fixture.library.catalog.engine), name: "the second host"), host: "second-host 2 bbbb")
            #expect(!FileManager.default.fileExists(atPath: other.root.chunkURL(fixture.chunk, of: fixture.article.id).path))
        } else {
            other = fixture.library
        }
        let runner = WorkRunner(queue: try other.workQueue(), host: "second-host 2 bbbb", catalogName: "the catalog", lease: 15, idle: .milliseconds(100))
        TakeCheckWork(library: other, runner: runner, language: "en", recordings: recordings).handleDueJobs()
        let running = Task { await runner.run() }
        defer { running.cancel() }
        #expect(try await DeskDeliveryFixture.wait(60) { try queue.status(of: id)?.state == .done })
        #expect(try queue.status(of: id)?.attempts == 2)
        #expect(try queue.status(of: id)?.host == "second-host 2 bbbb")
        #expect(try fixture.library.catalog.takeChecks(of: fixture.article.id)[fixture.chunk] != nil)
        // The second machine checked the take from the recordings store's copy, brought home.
        #expect(FileManager.default.fileExists(atPath: other.root.chunkURL(fixture.chunk, of: fixture.article.id).path))
        // The dead host's late word on the job is refused: the try it held is over.
        let late = WorkQueue.Job(id: id, kind: TakeCheckWork.kind, subject: subject, asker: nil, attempt: 1, host: "dead-host 1 aaaa")
        #expect(try queue.finish(late, now: Date().timeIntervalSince1970) == false)
    }

    @Test("a take deleted before its check ran: the job is done with nothing checked", arguments: CatalogEngines.Kind.allCases)
    func deletedTake(_ kind: CatalogEngines.Kind) async throws {
        let fixture = try Fixture(kind)
        let runner = try WorkRunner(library: fixture.library)
        let work = TakeCheckWork(library: fixture.library, runner: runner, language: "en")
        #expect(try work.ask(for: fixture.article) == [fixture.chunk])
        _ = try fixture.library.deleteChunk(at: ChunkIndex(1), of: fixture.article)
        #expect(await work.checkHere([fixture.chunk], of: fixture.article).isEmpty)
        #expect(try fixture.library.catalog.takeChecks(of: fixture.article.id).isEmpty)
        #expect(try fixture.jobs().map { $0[2] } == ["done"])
    }

    @Test("a subject narrate never makes is refused with the catalog's sentence")
    func malformedSubject() async throws {
        let fixture = try Fixture(.sqlite)
        let work = TakeCheckWork(library: fixture.library, runner: try WorkRunner(library: fixture.library), language: "en")
        for subject in ["", "abc", "\(fixture.article.id.rawValue)/", "../etc/\(fixture.chunk.rawValue)", "\(fixture.article.id.rawValue)/\(fixture.chunk.rawValue)/x"] {
            let error = await #expect(throws: NarrationError.self) { try await work.check(subject) }
            #expect(error?.kind == .catalogCorrupt)
            #expect(error?.message.hasPrefix("The catalog's queue of work names a take \"") == true)
        }
    }
}
