import Foundation
import NarrationAudio
import NarrationCore
import NarrationTestSupport
import Testing

@testable import Narration

/// An article recorded into by one host at a time when several share the catalog
/// (`ArticleLease`): the hold in `article_lease`, taken, renewed, run out and ended; a page's
/// take that moves to another host goes on there from its start and is one chunk equal to what
/// the page captured; recovery on a host leaves alone the takes another host records.
@Suite("One host at a time records into an article")
struct ArticleLeaseTests {
    private static let key = TakeUploadKey("fedcba9876543210fedcba9876543210")!

    @Test("a hold is taken by one host, refused to another, renewed, taken over once it has run out, and ended by its holder only",
          arguments: CatalogEngines.Kind.allCases)
    func holds(_ kind: CatalogEngines.Kind) throws {
        let fixture = try LibraryFixture(catalog: kind)
        let catalog = fixture.library.catalog
        let article = try fixture.library.newArticle(title: "Held", publication: "", narrator: "", format: .speech)
        let now = Date(timeIntervalSince1970: 1_900_000_000)
        #expect(try catalog.takeLease(on: article.id, host: "alpha 1 aaaa", until: now + 10, now: now) == nil)
        // Taken again by its holder: renewed; asked by another: refused, naming the holder and its end.
        #expect(try catalog.takeLease(on: article.id, host: "alpha 1 aaaa", until: now + 12, now: now + 2) == nil)
        let refusal = try catalog.takeLease(on: article.id, host: "beta 2 bbbb", until: now + 13, now: now + 3)
        #expect(refusal == Catalog.LeaseHolder(host: "alpha 1 aaaa", expiresAt: now + 12))
        #expect(try catalog.renewLease(on: article.id, host: "alpha 1 aaaa", until: now + 14))
        #expect(try catalog.takeLease(on: article.id, host: "beta 2 bbbb", until: now + 23, now: now + 13.999)?.host == "alpha 1 aaaa")
        #expect(try catalog.leaseHolder(of: article.id, other: "beta 2 bbbb", now: now + 13)?.host == "alpha 1 aaaa")
        // Run out: the other host takes it, and the old holder can neither renew nor end it.
        #expect(try catalog.leaseHolder(of: article.id, other: "beta 2 bbbb", now: now + 14.5) == nil)
        #expect(try catalog.takeLease(on: article.id, host: "beta 2 bbbb", until: now + 25, now: now + 15) == nil)
        #expect(try catalog.renewLease(on: article.id, host: "alpha 1 aaaa", until: now + 26) == false)
        try catalog.endLease(on: article.id, host: "alpha 1 aaaa")
        #expect(try catalog.leaseHolder(of: article.id, other: "alpha 1 aaaa", now: now + 16)?.host == "beta 2 bbbb")
        try catalog.endLease(on: article.id, host: "beta 2 bbbb")
        #expect(try catalog.leaseHolder(of: article.id, other: "alpha 1 aaaa", now: now + 16) == nil)
        // On SQLite (one host) no take holds the article in the catalog; on PostgreSQL a take does, until committed.
        let recording = try fixture.library.prepareRecording(into: article, placement: .append, device: "vmic", duration: 0.2, definitions: fixture.devices.definitions)
        let held = try catalog.leaseHolder(of: article.id, other: "nobody", now: Date())
        #expect(held?.host == (kind == .postgreSQL ? fixture.library.host : nil))
        try recording.start()
        #expect(recording.finish().chunk?.frames == 8_820)
        #expect(try catalog.leaseHolder(of: article.id, other: "nobody", now: Date()) == nil)
    }

    @Test("a page's take moves to a second host: refused while the first holds the article, then sent again from its start there, one chunk equal to every piece; the first host's recovery leaves it, and its partial file goes once the take is in the store and the first host cleans up")
    func takeMovesToAnotherHost() async throws {
        let fixture = try LibraryFixture(catalog: .postgreSQL)
        let first = fixture.library
        let second = try NarrationLibrary(
            root: DataRoot(url: fixture.folder.url.appendingPathComponent("second-host")),
            catalog: Catalog(engine: try CatalogEngines.another(first.catalog.engine), name: "the second host"), host: "second-host 7 cdef")
        let tag = TakeUploadTag(key: Self.key, account: "vol")
        let article = try first.newArticle(title: "Moved", publication: "", narrator: "", format: .speech)
        let stream = StreamedCapture(name: "the browser's microphone", format: .speech)
        let take = try first.prepareRecording(into: article, placement: .append, input: .streamed(stream), duration: nil, upload: tag)
        try take.start()
        let samples = Signals.noise(44_100, seed: 21)
        let sent = Signals.littleEndian(samples)
        _ = stream.receive(Array(sent[0..<30_000]), at: 0)

        // While the first host records, the second refuses the take and any other take of the article.
        func refusal(_ body: () throws -> Void) -> NarrationError? {
            do { try body() } catch let error as NarrationError { return error } catch { return nil }
            return nil
        }
        let resumeRefused = refusal {
            _ = try second.resumeUpload(tag, into: article) { StreamedCapture(name: "the browser's microphone", format: .speech, startFrame: $0) }
        }
        #expect(resumeRefused?.kind == .articleBusy)
        let host = ProcessInfo.processInfo.hostName
        #expect(resumeRefused?.message == "Article \"Moved\" (\(article.id)) is being recorded through another server of the service (\(host)) just now. Try again in a few seconds.")
        let newTakeRefused = refusal {
            _ = try second.prepareRecording(into: article, placement: .append, device: "vmic", duration: 0.2, definitions: fixture.devices.definitions)
        }
        #expect(newTakeRefused?.kind == .articleBusy)
        // The second host opening (its recovery) leaves the take alone: its file is on the first host.
        _ = try NarrationLibrary(root: second.root, catalog: Catalog(engine: try CatalogEngines.another(first.catalog.engine), name: "again"), host: "second-host 8 0000")
        #expect(try first.takeUpload(Self.key)?.stage == .uploading)

        // The page goes to the second host: the first sets the take aside and lets the article go.
        #expect(take.setAside() == 15_000)
        let (resumed, again) = try second.resumeUploadedTake(tag, into: article)
        #expect(resumed.resumedFrom == 0)
        try resumed.start()
        #expect(again.receive(Array(sent[0..<50_000]), at: 0) == .taken(received: 25_000))
        #expect(again.end(atFrame: 44_100))
        #expect(again.receive(Array(sent[50_000...]), at: 25_000) == .taken(received: 44_100))
        let outcome = resumed.finish()
        #expect(outcome.deferredBecause == nil)
        #expect(outcome.chunk?.frames == 44_100)
        let entry = try #require(try second.chunkEntries(of: article).first)
        #expect(try fixture.samples(of: entry) == samples.map { Int32($0) << 16 })
        #expect(try second.takeUpload(Self.key)?.stage == .committed)
        #expect(try first.catalog.leaseHolder(of: article.id, other: "nobody", now: Date()) == nil)

        // The first host restarts: its partial file of the take is no take of its own to recover.
        let reopened = try NarrationLibrary(root: first.root, catalog: Catalog(engine: try CatalogEngines.another(first.catalog.engine), name: "restarted"))
        #expect(reopened.notices.isEmpty)
        #expect(try reopened.catalog.pendingTakes().isEmpty)
        #expect(try reopened.catalog.order(of: article.id).ids == [entry.chunk.id])
        // Its partial file stays while the take is only on the second host; once the take has a
        // checked copy in the recordings store, the first host's clean-up (as its server starts) removes it.
        let partial = first.root.partialURL(entry.chunk.id, of: article.id)
        #expect(reopened.removeHandedOverPartials() == 0)
        #expect(FileManager.default.fileExists(atPath: partial.path))
        #expect(try await second.copyChunks(to: RecordingStore(MemoryDeliveryStore())).copied.count == 1)
        #expect(reopened.removeHandedOverPartials() == 1)
        #expect(!FileManager.default.fileExists(atPath: partial.path))
    }
}
