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
    /// The desk with review off, its article Recording for ann to send.
    static func service(_ kind: CatalogEngines.Kind) throws -> DeskDeliveryFixture { try DeskDeliveryFixture(kind, reviewIsOn: false) }

    /// Who sent the article to listeners, as the audit log says, once per send.
    static func senders(_ service: DeskDeliveryFixture) throws -> [String] { try service.audited("send recording → published").map(\.actor) }

    @Test("sent here: done at once through the queue in ann's name, Published, one file at the destination equal to the chunks; the job done, asked for by ann",
          arguments: CatalogEngines.Kind.allCases)
    func sentHere(_ kind: CatalogEngines.Kind) async throws {
        let service = try Self.service(kind)
        let runner = try WorkRunner(library: service.library)
        let done = try #require(try await DeskDelivery(library: service.library, desk: service.desk).sendAndDeliver(
            try service.library.article(service.article.rawValue), by: .account(try service.account("ann")), sending: service.sending,
            accounts: service.accounts, runner: runner))
        #expect(done.entry.state == .published)
        #expect(try Self.senders(service) == ["ann"])
        #expect(try service.deliveredSamples() == service.chunkSamples())
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
        let service = try Self.service(kind)
        let queue = try service.library.workQueue()
        let asked = DeskDeliveryFixture.now()
        let id = try queue.enqueue(SentDelivery.kind, subject: service.article.rawValue, asker: "ann", due: asked + 60, now: asked)
        let dead = try #require(try queue.take(id, host: "dead-host 1 aaaa", lease: 0.5, now: asked))
        #expect(dead.asker == "ann")

        let recordings = RecordingStore(MemoryDeliveryStore())
        let other = try await service.anotherHost(kind, recordings: recordings)
        let runner = WorkRunner(queue: try other.workQueue(), host: "second-host 2 bbbb", catalogName: "the catalog", lease: 15, idle: .milliseconds(100))
        SentDelivery(
            library: other, desk: DeskService(store: other.deskStore, reviewIsOn: false), accounts: AccountService(store: other.accountStore),
            sending: service.sending, recordings: recordings
        ).handled(by: runner)
        let running = Task { await runner.run() }
        defer { running.cancel() }
        #expect(try await DeskDeliveryFixture.wait(60) { try queue.status(of: id)?.state == .done })
        running.cancel()
        await running.value

        let status = try #require(try queue.status(of: id))
        #expect(status.attempts == 2 && status.host == "second-host 2 bbbb", "\(status)")
        #expect(try service.desk.entry(service.article, by: .service).state == .published)
        #expect(try Self.senders(service) == ["ann"])
        #expect(try service.deliveredSamples() == service.chunkSamples())
        #expect(try queue.finish(dead, now: DeskDeliveryFixture.now()) == false)
    }

    @Test("a send by an account that may no longer send the article (it went to bob) or that is gone delivers nothing; an asker narrate never makes is named as damage")
    func askerNoLongerMay() async throws {
        let service = try Self.service(.sqlite)
        let queue = try service.library.workQueue()
        let asked = DeskDeliveryFixture.now()
        let id = try queue.enqueue(SentDelivery.kind, subject: service.article.rawValue, asker: "ann", due: asked, now: asked)
        try service.desk.assign(service.article, to: try service.account("bob"), by: .service)
        let delivery = SentDelivery(library: service.library, desk: service.desk, accounts: service.accounts, sending: service.sending)
        #expect(try await delivery.deliver(service.article.rawValue, asker: "ann") == nil)
        #expect(try await delivery.deliver(service.article.rawValue, asker: "nobody") == nil)
        let error = await #expect(throws: NarrationError.self) { try await delivery.deliver(service.article.rawValue, asker: "Ann Reader") }
        #expect(error?.kind == .catalogCorrupt)
        #expect(error?.message.contains("names a send \"\(service.article.rawValue)\" for \"Ann Reader\"") == true, "\(error?.message ?? "")")
        #expect(service.delivered().isEmpty)
        #expect(try service.desk.entry(service.article, by: .service).state == .recording)
        #expect(try Self.senders(service).isEmpty)
        #expect(try queue.status(of: id)?.state == .waiting)
    }
}
