import Foundation
@testable import Narration
import NarrationCore
import NarrationTestSupport
import Testing

/// Delivery, written once against `DeliveryStore`, run in process against the memory store:
/// fast, beside the real-part tests of the same path for a folder and for S3 (OutboxTests,
/// DeliveryCommandTests, FeedDeliveryTests, ObjectStorageTests, ObjectStorageCommandTests,
/// DeliveryKillTests).
@Suite("Delivery against the memory store")
struct StoreDeliveryTests {
    /// FLAC with its chapters beside it and an item in the publication's feed.
    static let withFeed = DeliveryProfile(
        name: "talk", format: .flac, mp3: .constant(kbps: 128), mastering: Mastering(), rules: [], carries: [.feed])
    static let wav = DeliveryProfile(name: "wav", format: .wav, mp3: .constant(kbps: 128), mastering: Mastering(), rules: [])

    /// Everything the store holds, key by key.
    static func contents(of store: MemoryDeliveryStore) async throws -> [String: Data] {
        var contents: [String: Data] = [:]
        for key in try await store.list(prefix: "") { contents[key] = try await store.read(key) }
        return contents
    }

    /// The keys a delivery of `job` puts in a store: the audio, the files beside it and the sidecar.
    static func keys(of job: OutboxJob, _ library: NarrationLibrary) throws -> [String] {
        let folder = job.deliveryPath.split(separator: "/").dropLast().joined(separator: "/")
        let files = try library.sidecar(of: job).files ?? []
        return [job.deliveryPath, NarrationLibrary.sidecarKey(for: job.deliveryPath)] + files.map { "\(folder)/\($0.name)" }
    }

    @Test("the audio, its chapters and its sidecar go in verified and the feed gets the item; delivered again at the same place without them, the chapters go and the feed offers the article no more", arguments: CatalogEngines.Kind.allCases)
    func samePlaceWithdrawsCarriedFiles(_ catalog: CatalogEngines.Kind) async throws {
        let fixture = try LibraryFixture(catalog: catalog)
        let store = MemoryDeliveryStore()
        let article = try fixture.library.newArticle(title: "Budget vote", publication: "Daily Post", narrator: "Ann", format: .speech)
        try fixture.record(article, seconds: 0.4)
        let job = try fixture.library.queue(article, profile: Self.withFeed).job
        let first = try await fixture.library.deliver(job, to: .folder(store.name), in: store)
        let feedKey = FeedSettings.feedPath(forDeliveryPath: job.deliveryPath)
        let keys = try Self.keys(of: job, fixture.library)
        #expect(keys.count == 3 && keys[2].hasSuffix(".chapters.json"))
        #expect(try await store.list(prefix: "") == (keys + [feedKey]).sorted())
        #expect(try await store.read(job.deliveryPath) == Data(contentsOf: job.file))
        #expect(try await store.read(keys[1]) == Data(contentsOf: job.sidecarFile))
        #expect(first.job.state == .delivered && first.job.attempts == 1 && first.job.remotePath == "memory://store/\(job.deliveryPath)")
        #expect(first.key == "memory://store/\(job.deliveryPath)" && !first.alreadyStored)
        #expect(try await FeedPublisher.read(in: store, feedPath: feedKey)?.items.map(\.guid) == [article.id.rawValue])

        let plain = try fixture.library.queue(article, profile: .archive).job
        #expect(plain.deliveryPath == job.deliveryPath)
        let second = try await fixture.library.deliver(plain, to: .folder(store.name), in: store)
        #expect(second.job.state == .delivered)
        #expect(try await store.list(prefix: "") == [plain.deliveryPath, NarrationLibrary.sidecarKey(for: plain.deliveryPath), feedKey].sorted())
        #expect(try await store.read(plain.deliveryPath) == Data(contentsOf: plain.file))
        #expect(try await store.read(keys[1]) == Data(contentsOf: plain.sidecarFile))
        #expect(try await FeedPublisher.read(in: store, feedPath: feedKey)?.items == [])
        #expect(try fixture.library.catalog.deliveries(of: article.id).map(\.jobId) == [plain.id])
    }

    @Test("a failure while the files go into place leaves the store as it was and the job queued with its attempt and error; the next delivery, in another format, replaces the earlier one and everything beside it", arguments: CatalogEngines.Kind.allCases)
    func failureWhileCommitting(_ catalog: CatalogEngines.Kind) async throws {
        let fixture = try LibraryFixture(catalog: catalog)
        let store = MemoryDeliveryStore()
        let article = try fixture.library.newArticle(title: "Harbour", publication: "Daily Post", narrator: "Ann", format: .speech)
        try fixture.record(article, seconds: 0.4)
        let job = try fixture.library.queue(article, profile: Self.withFeed).job
        try await fixture.library.deliver(job, to: .folder(store.name), in: store)
        let before = try await Self.contents(of: store)
        #expect(before.count == 4)

        try fixture.record(article, seconds: 0.3)
        let newer = try fixture.library.queue(article, profile: Self.wav).job
        let failure = NarrationError(.fileSystem, "The share went away.")
        store.failNextCommit(with: failure)
        await #expect(throws: failure) { try await fixture.library.deliver(newer, to: .folder(store.name), in: store) }
        #expect(try await Self.contents(of: store) == before)
        let failed = try #require(try fixture.library.outboxJobs().first { $0.id == newer.id })
        #expect(failed.state == .queued && failed.attempts == 1 && failed.lastError == failure.message)
        #expect(try fixture.library.catalog.deliveries(of: article.id).map(\.jobId) == [job.id])

        let delivered = try await fixture.library.deliver(failed, to: .folder(store.name), in: store)
        #expect(delivered.job.state == .delivered && delivered.job.attempts == 2)
        let feedKey = FeedSettings.feedPath(forDeliveryPath: newer.deliveryPath)
        #expect(try await store.list(prefix: "") == (try Self.keys(of: newer, fixture.library) + [feedKey]).sorted())
        #expect(try await store.read(newer.deliveryPath) == Data(contentsOf: newer.file))
        #expect(try await FeedPublisher.read(in: store, feedPath: feedKey)?.items == [])
    }

    @Test("an outbox file changed since it was queued is refused before anything is in the store; the job keeps its attempt and error", arguments: CatalogEngines.Kind.allCases)
    func changedFile(_ catalog: CatalogEngines.Kind) async throws {
        let fixture = try LibraryFixture(catalog: catalog)
        let store = MemoryDeliveryStore()
        let article = try fixture.library.newArticle(title: "Tides", publication: "Daily Post", narrator: "Ann", format: .speech)
        try fixture.record(article, seconds: 0.4)
        let job = try fixture.library.queue(article, profile: .archive).job
        let handle = try FileHandle(forWritingTo: job.file)
        try handle.seek(toOffset: 100)
        try handle.write(contentsOf: Data([0x55]))
        try handle.close()
        await #expect(throws: NarrationLibrary.changedSinceQueued(job.file)) {
            try await fixture.library.deliver(job, to: .folder(store.name), in: store)
        }
        #expect(try await store.list(prefix: "") == [])
        let stored = try #require(try fixture.library.outboxJobs().first)
        #expect(stored.state == .queued && stored.attempts == 1 && stored.lastError == NarrationLibrary.changedSinceQueued(job.file).message)
    }
}
