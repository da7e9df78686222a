import Foundation
@testable import Narration
import NarrationCore
import NarrationTestSupport
import ObjectStorage
import Testing

/// The paths written once against `DeliveryStore` (feed publishing, taking an item out of a
/// feed, prune's check of a delivered file, doctor's test object), run in process against the
/// memory store: fast, beside the real-part tests of the same paths (FeedPublisherTests,
/// FeedDeliveryTests, PruneAndCredentialsTests, DoctorCommandTests).
@Suite("Feeds, prune and doctor against the memory store")
struct DeliveryStorePathTests {
    static let channel = PodcastFeed.Channel(
        title: "Daily Post, read aloud", link: "./", description: "Daily Post, read aloud by volunteers.", language: "en", author: "Talking News")
    static let feedPath = "Daily Post/feed.xml"

    static func item(_ number: Int) -> PodcastFeed.Item {
        PodcastFeed.Item(
            guid: "article\(number)", title: "Article \(number)", description: "First paragraph \(number).",
            published: Date(timeIntervalSince1970: 1_795_508_000 + Double(number)),
            enclosure: PodcastFeed.Link(url: "2026-11-24/Article%20\(number).mp3", type: "audio/mpeg"), bytes: 1_000 + number,
            durationSeconds: 60 + number, narrator: "Ann Lee", chapters: nil, transcripts: [])
    }

    @Test("16 deliveries racing to one feed leave all 16 items, newest first; taking one out keeps the rest")
    func feedRace() async throws {
        let store = MemoryDeliveryStore()
        let updates = try await withThrowingTaskGroup(of: FeedUpdate.self) { group in
            for number in 0..<16 {
                group.addTask { try await FeedPublisher.change(in: store, feedPath: Self.feedPath, channel: Self.channel, .publish(Self.item(number))) }
            }
            return try await group.reduce(into: [FeedUpdate]()) { $0.append($1) }
        }
        #expect(updates.allSatisfy { $0.written && $0.location == "memory://store/Daily Post/feed.xml" })
        let feed = try #require(try await FeedPublisher.read(in: store, feedPath: Self.feedPath))
        #expect(feed.items.map(\.guid) == (0..<16).reversed().map { "article\($0)" })
        #expect(feed.channel == Self.channel)
        #expect(store.attributes(of: Self.feedPath)?.contentType == "application/rss+xml; charset=utf-8")

        // Taking an item out of a feed that does not exist writes nothing and makes no feed.
        let nothing = try await FeedPublisher.change(in: store, feedPath: "Other/feed.xml", channel: nil, .remove(guid: "article1"))
        #expect(!nothing.written && nothing.attempts == 1)
        #expect(try await store.list(prefix: "") == [Self.feedPath])
        let update = try await FeedPublisher.change(in: store, feedPath: Self.feedPath, channel: nil, .remove(guid: "article7"))
        #expect(update.written && update.feed.items.count == 15 && !update.feed.items.contains { $0.guid == "article7" })
        #expect(update.feed.channel == Self.channel)  // nil keeps the feed's own channel
    }

    @Test("a feed narrate cannot read is refused naming its place, and left byte for byte")
    func unreadableFeed() async throws {
        let store = MemoryDeliveryStore()
        let foreign = Data("<html><body>Our podcast</body></html>".utf8)
        try await store.write(foreign, to: Self.feedPath, contentType: "text/html")
        await #expect(throws: NarrationError(
            .feedUnreadable,
            "memory://store/Daily Post/feed.xml is not a feed narrate can change: it is not an RSS feed (no <rss><channel>). It was left as it is; move it away, and deliver again to start a new feed."
        )) {
            try await FeedPublisher.change(in: store, feedPath: Self.feedPath, channel: Self.channel, .publish(Self.item(1)))
        }
        #expect(try await store.read(Self.feedPath) == foreign)
    }

    @Test("narrate feed --remove: the item goes, the others stay; a publication with no feed is a usage error")
    func removeFromFeed() async throws {
        let fixture = try LibraryFixture()
        let store = MemoryDeliveryStore()
        for number in 1...3 { _ = try await FeedPublisher.change(in: store, feedPath: Self.feedPath, channel: Self.channel, .publish(Self.item(number))) }
        let (update, removed) = try await fixture.library.removeFromFeed("article2", of: "Daily Post", in: store, settings: FeedSettings())
        #expect(removed && update.written)
        #expect(try await FeedPublisher.read(in: store, feedPath: Self.feedPath)?.items.map(\.guid) == ["article3", "article1"])
        let (again, heldAgain) = try await fixture.library.removeFromFeed("article2", of: "Daily Post", in: store, settings: FeedSettings())
        #expect(!heldAgain && !again.written)
        await #expect(throws: NarrationError.usage("memory://store has no feed for \"Weekly\" (there is no memory://store/Weekly/feed.xml).")) {
            try await fixture.library.removeFromFeed("article2", of: "Weekly", in: store, settings: FeedSettings())
        }
    }

    static func delivery(of data: Data, at key: String, in store: MemoryDeliveryStore) -> DeliveryRow {
        DeliveryRow(
            articleId: "a1", destination: store.name, jobId: "j1", audioLocation: store.recordedLocation(of: key),
            sidecarLocation: store.recordedLocation(of: key + ".json"), sha256: Digest.sha256Hex(data), bytes: data.count, deliveredAt: Date())
    }

    @Test("prune confirms a delivered file by size and SHA-256; other bytes, a missing file and a place elsewhere are refused")
    func pruneConfirm() async throws {
        let store = MemoryDeliveryStore()
        let audio = Data("the delivered audio".utf8)
        let key = "Daily Post/2026-11-24/Budget-a1.mp3"
        try await store.write(audio, to: key, contentType: "audio/mpeg")
        let outbox = URL(fileURLWithPath: "/nonexistent/outbox/Budget-a1.mp3")
        let row = Self.delivery(of: audio, at: key, in: store)
        #expect(try await NarrationLibrary.confirm(row, in: store, localFile: outbox) == "memory://store/\(key)")

        try await store.write(Data("the delivered audiO".utf8), to: key, contentType: "audio/mpeg")  // same size, other bytes
        await #expect(throws: NarrationError(.fileCorrupt, "memory://store/\(key) holds other bytes than were delivered")) {
            try await NarrationLibrary.confirm(row, in: store, localFile: outbox)
        }
        try await store.delete(key)
        await #expect(throws: NarrationError(.chunkFileMissing, "memory://store/\(key) is not there any more")) {
            try await NarrationLibrary.confirm(row, in: store, localFile: outbox)
        }
        var elsewhere = row
        elsewhere.audioLocation = "/srv/share/\(key)"
        await #expect(throws: NarrationError(.fileCorrupt, "the delivered file /srv/share/\(key) on record is not below memory://store")) {
            try await NarrationLibrary.confirm(elsewhere, in: store, localFile: outbox)
        }
    }

    @Test("doctor writes a test object, reads it back and removes it; nothing is left in the store")
    func doctorRoundTrip() async throws {
        let store = MemoryDeliveryStore()
        let storage = try S3Destination(url: "s3://radio/narrations", endpoint: "http://127.0.0.1:9", pathStyle: true)
        let finding = await DeliveryCheck.roundTrip(
            DoctorTestObjects(store: store), key: DeliveryCheck.testName(), label: "archive", words: .objectStorage(storage))
        #expect(finding == DoctorFinding(.destination, .ok, "archive: wrote a test object at http://127.0.0.1:9, read it back and removed it"))
        #expect(try await store.list(prefix: "") == [])
        let folder = await DeliveryCheck.roundTrip(DoctorTestObjects(store: store), key: DeliveryCheck.testName(), label: "/srv/share", words: .folder)
        #expect(folder == DoctorFinding(.destination, .ok, "/srv/share: wrote a test file, read it back and removed it"))
        // A key the store refuses is a problem in the store's words, with the folder's advice.
        let refused = await DeliveryCheck.roundTrip(DoctorTestObjects(store: store), key: "../outside", label: "/srv/share", words: .folder)
        #expect(refused.status == .problem && refused.advice == "Make the folder writable for you, or choose another.")
        #expect(refused.found.hasPrefix("/srv/share: \"../outside\" is not a name narrate stores below memory://store"))
    }

    @Test("stray copies: a killed attempt's copy of a withdrawn export goes with its sidecar; another's bytes at that key stay; the attempts are forgotten")
    func strayCopies() async throws {
        let fixture = try LibraryFixture()
        let store = MemoryDeliveryStore()
        /// An attempt recorded before its first byte, a copy at its key (the export's own bytes,
        /// or `other` bytes that took its place), and then the process killed.
        func killedAttempt(_ title: String, other: Data? = nil) async throws -> String {
            let article = try fixture.library.newArticle(title: title, publication: "Post", narrator: "Ann", format: .speech)
            try fixture.record(article, seconds: 0.3)
            let job = try fixture.library.queue(article, profile: .archive).job
            let key = job.deliveryPath
            try fixture.library.catalog.beginAttempt(job.row, destination: store.name, audioLocation: store.recordedLocation(of: key))
            try await store.write(other ?? Data(contentsOf: job.file), to: key, contentType: "audio/flac")
            try await store.write(Data("{}".utf8), to: NarrationLibrary.sidecarKey(for: key), contentType: "application/json")
            _ = try fixture.library.queue(article, profile: .archive)  // queued again: that export is withdrawn
            return key
        }
        let killed = try await killedAttempt("Budget")
        let taken = try await killedAttempt("Harbour", other: Data("someone else's bytes".utf8))
        #expect(try await store.list(prefix: "").count == 4)

        try await fixture.library.removeStrayCopies(in: store)
        #expect(try await store.head(killed) == nil)
        #expect(try await store.list(prefix: "") == [taken, NarrationLibrary.sidecarKey(for: taken)].sorted())
        #expect(try fixture.library.catalog.strayCopies(at: store.name).isEmpty)
        // Nothing on record any more: a second pass touches nothing.
        try await fixture.library.removeStrayCopies(in: store)
        #expect(try await store.list(prefix: "").count == 2)
    }

    @Test("an attempt is recorded before its first byte, and a failed one puts the job back with its error and the attempt counted")
    func attemptAndRestore() async throws {
        let fixture = try LibraryFixture()
        let store = MemoryDeliveryStore()
        let article = try fixture.library.newArticle(title: "Budget", publication: "Post", narrator: "Ann", format: .speech)
        try fixture.record(article, seconds: 0.3)
        var job = try fixture.library.queue(article, profile: .archive).job
        try fixture.library.beginAttempt(&job, to: .folder(store.name), in: store, key: job.deliveryPath)
        #expect(job.attempts == 1 && job.remotePath == "memory://store/\(job.deliveryPath)" && job.lastError == nil)
        let attempts = try fixture.library.catalog.strayCopies(at: store.name)
        #expect(attempts.isEmpty)  // the job is current: its copy is no stray
        _ = try fixture.library.queue(article, profile: .archive)  // withdrawn: its attempt's copy would now be a stray
        #expect(try fixture.library.catalog.strayCopies(at: store.name).map(\.attempt.audioLocation) == ["memory://store/\(job.deliveryPath)"])

        var second = try fixture.library.queue(article, profile: .archive).job
        try fixture.library.beginAttempt(&second, to: .folder(store.name), in: store, key: second.deliveryPath)
        second.state = .delivered  // as an attempt does once its files are in place
        fixture.library.restore(&second, to: .queued, after: NarrationError(.storageUnavailable, "The storage did not answer."))
        let stored = try fixture.library.stored(second)
        #expect(stored.state == .queued && stored.attempts == 1 && stored.lastError == "The storage did not answer.")
        #expect(stored.remotePath == "memory://store/\(second.deliveryPath)")
    }
}
