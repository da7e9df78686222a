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

    @Test("the account disabled after the page's check and before the job: refused with the sentence that says so, nothing delivered, still Recording, the job done")
    func disabledMeanwhile() async throws {
        let service = try Self.service(.sqlite)
        // The page's account as it was when the volunteer pressed Send.
        let actor = ServiceActor.account(try service.account("ann"))
        #expect(try service.accounts.disable(try AccountName("ann"), by: "test") != nil)
        let error = await #expect(throws: NarrationError.self) {
            try await DeskDelivery(library: service.library, desk: service.desk).sendAndDeliver(
                try service.library.article(service.article.rawValue), by: actor, sending: service.sending, accounts: service.accounts)
        }
        #expect(error?.kind == .notPermitted)
        #expect(error?.message == "The account ann was removed or disabled while the article was being sent: nothing was delivered.")
        #expect(service.delivered().isEmpty)
        #expect(try service.desk.entry(service.article, by: .service).state == .recording)
        #expect(try Self.senders(service).isEmpty)
        let jobs = try service.library.catalog.reading { sql in
            try sql.rows("SELECT kind, state, attempts FROM work_job").map { [try $0.text("kind"), try $0.text("state"), "\(try $0.int("attempts"))"] }
        }
        #expect(jobs == [[SentDelivery.kind, "done", "1"]])
    }

    @Test("the article given to bob after ann's page checked: refused as ann may not send it; withdrawn meanwhile: the desk's own sentence")
    func deskChangedMeanwhile() throws {
        let service = try Self.service(.sqlite)
        let delivery = DeskDelivery(library: service.library, desk: service.desk)
        try service.desk.assign(service.article, to: try service.account("bob"), by: .service)
        let reassigned = delivery.refusalAfterTheFact(service.article, by: .account(try service.account("ann")), accounts: service.accounts)
        #expect(reassigned.kind == .notPermitted)
        #expect(reassigned.message == NarrationError.notPermitted(.account(try service.account("ann")), DeskEvent.send.action, article: service.article).message)
        _ = try service.desk.withdraw(service.article, by: .service)
        let withdrawn = delivery.refusalAfterTheFact(service.article, by: .account(try service.account("bob")), accounts: service.accounts)
        #expect(withdrawn.kind == .deskRefused)
        #expect(withdrawn.message.hasSuffix("is Withdrawn, so it cannot be sent: nothing more can happen to it."), "\(withdrawn.message)")
    }
}
