import Foundation
import NarrationAudio
import NarrationCore
import NarrationTestSupport
import Synchronization
import Testing

@testable import Narration

/// A volunteer's send with review off as a job of the catalog's queue that carries the account
/// (`SentDelivery`), on SQLite and on a real PostgreSQL: done at once by the host the volunteer
/// sent from, in their name; done once by another host when the first died holding it; and not
/// done for an account that may no longer send the article.
@Suite("A volunteer's send with review off, as a job any host does", .serialized)
struct SentDeliveryTests {
    /// A library whose desk (review off) has an article ann recorded, and a destination folder.
    struct Service {
        let fixture: LibraryFixture
        let desk: DeskService
        let accounts: AccountService
        let article: ArticleID
        let destination: URL
        var library: NarrationLibrary { fixture.library }

        init(_ kind: CatalogEngines.Kind) throws {
            fixture = try LibraryFixture(catalog: kind, sourceSeconds: 3)
            let library = fixture.library
            desk = DeskService(store: library.deskStore, reviewIsOn: false)
            accounts = AccountService(store: library.accountStore, hashing: .init(iterations: 1, memoryKiB: 64, lanes: 1))
            for name in ["ann", "bob"] { _ = try accounts.add(try AccountName(name), role: .volunteer, by: "test") }
            let entry = try desk.add(.init(title: "Harbour", publication: "Gazette"), by: .service) { (new) throws(NarrationError) in
                try library.makeDeskArticle(new, text: nil)
            }
            try desk.assign(entry.article, to: try accounts.account(try AccountName("ann")), by: .service)
            _ = try fixture.record(try library.article(entry.article.rawValue), seconds: 1.5)
            try desk.recordedTake(entry.article, by: .service)
            article = entry.article
            destination = fixture.folder.url.appendingPathComponent("delivered")
            try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        }

        var sending: DeskDelivery.Sending {
            DeskDelivery.Sending(
                destination: .folder(destination.path), profile: nil, fallback: .archive, language: "en", retry: RetrySchedule(attempts: 1, first: 0, limit: 0))
        }

        func account(_ name: String) throws -> Account { try accounts.account(try AccountName(name)) }

        /// The audio files at the destination, by their paths below it.
        func deliveredAudio() -> [String] {
            let enumerator = FileManager.default.enumerator(at: destination, includingPropertiesForKeys: nil)
            var files: [String] = []
            while let url = enumerator?.nextObject() as? URL {
                if url.pathExtension == "flac" { files.append(String(url.path.dropFirst(destination.path.count + 1))) }
            }
            return files.sorted()
        }

        /// The audit log's sends of the article to listeners, each as "actor detail".
        func sends() throws -> [String] {
            try library.deskStore.auditLog(account: nil, since: nil)
                .filter { $0.detail.contains("article \(article): send recording → published") }
                .map { "\($0.actor)" }
        }

        /// The article's chunks' samples, one after the other.
        func chunkSamples() throws -> [Int32] {
            try library.chunkEntries(of: try library.article(article.rawValue)).flatMap { try SoundFileReader(path: $0.file.path).readAll() }
        }
    }

    static func now() -> Double { Date().timeIntervalSince1970 }

    @Test("sent here: done at once through the queue in ann's name, Published, one file at the destination equal to the chunks; the job done, asked for by ann",
          arguments: CatalogEngines.Kind.allCases)
    func sentHere(_ kind: CatalogEngines.Kind) async throws {
        let service = try Service(kind)
        let runner = try WorkRunner(library: service.library)
        let done = try #require(try await DeskDelivery(library: service.library, desk: service.desk).sendAndDeliver(
            try service.library.article(service.article.rawValue), by: .account(try service.account("ann")), sending: service.sending,
            accounts: service.accounts, runner: runner))
        #expect(done.entry.state == .published)
        #expect(try service.sends() == ["ann"])
        let audio = service.deliveredAudio()
        #expect(audio.count == 1, "\(audio)")
        #expect(try SoundFileReader(path: service.destination.appendingPathComponent(try #require(audio.first)).path).readAll() == service.chunkSamples())
        let jobs = try service.library.catalog.reading { sql in
            try sql.rows("SELECT kind, subject, asker, state, attempts FROM work_job").map {
                [try $0.text("kind"), try $0.text("subject"), try $0.optionalText("asker") ?? "-", try $0.text("state"), "\(try $0.int("attempts"))"]
            }
        }
        #expect(jobs == [[SentDelivery.kind, service.article.rawValue, "ann", "done", "1"]])
    }

    @Test("a host that died holding ann's send: another host does it once the lease ran out, in ann's name, once",
          arguments: CatalogEngines.Kind.allCases)
    func deadHost(_ kind: CatalogEngines.Kind) async throws {
        let service = try Service(kind)
        let queue = try service.library.workQueue()
        let asked = Self.now()
        let id = try queue.enqueue(SentDelivery.kind, subject: service.article.rawValue, asker: "ann", due: asked + 60, now: asked)
        let dead = try #require(try queue.take(id, host: "dead-host 1 aaaa", lease: 0.5, now: asked))
        #expect(dead.asker == "ann")

        let other: NarrationLibrary
        let recordings = RecordingStore(MemoryDeliveryStore())
        if kind == .postgreSQL {
            #expect(try await service.library.copyChunks(to: recordings).copied.count == 1)
            other = try NarrationLibrary(
                root: DataRoot(url: service.fixture.folder.url.appendingPathComponent("second-host")),
                catalog: Catalog(engine: try CatalogEngines.another(service.library.catalog.engine), name: "the second host"), host: "second-host 2 bbbb")
        } else {
            other = service.library
        }
        let runner = WorkRunner(queue: try other.workQueue(), host: "second-host 2 bbbb", catalogName: "the catalog", lease: 15, idle: .milliseconds(100))
        SentDelivery(
            library: other, desk: DeskService(store: other.deskStore, reviewIsOn: false), accounts: AccountService(store: other.accountStore),
            sending: service.sending, recordings: recordings
        ).handled(by: runner)
        let running = Task { await runner.run() }
        defer { running.cancel() }
        #expect(try await ApprovedDeliveryTests.wait(60) { try queue.status(of: id)?.state == .done })
        running.cancel()
        await running.value

        let status = try #require(try queue.status(of: id))
        #expect(status.attempts == 2 && status.host == "second-host 2 bbbb", "\(status)")
        #expect(try service.desk.entry(service.article, by: .service).state == .published)
        #expect(try service.sends() == ["ann"])
        let audio = service.deliveredAudio()
        #expect(audio.count == 1, "\(audio)")
        #expect(try SoundFileReader(path: service.destination.appendingPathComponent(try #require(audio.first)).path).readAll() == service.chunkSamples())
        #expect(try queue.finish(dead, now: Self.now()) == false)
    }

    @Test("a send by an account that may no longer send the article (it went to bob) or that is gone delivers nothing; an asker narrate never makes is named as damage")
    func askerNoLongerMay() async throws {
        let service = try Service(.sqlite)
        let queue = try service.library.workQueue()
        let asked = Self.now()
        let id = try queue.enqueue(SentDelivery.kind, subject: service.article.rawValue, asker: "ann", due: asked, now: asked)
        try service.desk.assign(service.article, to: try service.account("bob"), by: .service)
        let delivery = SentDelivery(library: service.library, desk: service.desk, accounts: service.accounts, sending: service.sending)
        #expect(try await delivery.deliver(service.article.rawValue, asker: "ann") == nil)
        #expect(try await delivery.deliver(service.article.rawValue, asker: "nobody") == nil)
        let error = await #expect(throws: NarrationError.self) { try await delivery.deliver(service.article.rawValue, asker: "Ann Reader") }
        #expect(error?.kind == .catalogCorrupt)
        #expect(error?.message.contains("names a send \"\(service.article.rawValue)\" for \"Ann Reader\"") == true, "\(error?.message ?? "")")
        #expect(service.deliveredAudio().isEmpty)
        #expect(try service.desk.entry(service.article, by: .service).state == .recording)
        #expect(try service.sends().isEmpty)
        #expect(try queue.status(of: id)?.state == .waiting)
    }
}
