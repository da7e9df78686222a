import Foundation
@testable import Narration
import NarrationCore
import NarrationTestSupport
import ObjectStorage
import Synchronization
import Testing

/// A feed's read-change-write: what `FeedDocument` writes reads back the same; deliveries racing
/// to one feed in a folder (flock) and in object storage (SeaweedFS, If-Match) lose no item; a
/// feed narrate cannot read is left as it is.
@Suite("Podcast feeds: read, change, write")
struct FeedPublisherTests {
    static let channel = PodcastFeed.Channel(
        title: "Daily Post, read aloud", link: "./", description: "Daily Post, read aloud by volunteers.", language: "en", author: "Talking News")

    static func item(_ number: Int) -> PodcastFeed.Item {
        PodcastFeed.Item(
            guid: "article\(number)", title: "Article \(number): rates & <fares> 日本語 🎧", description: "First paragraph \(number).",
            published: Date(timeIntervalSince1970: 1_795_508_000 + Double(number)),
            enclosure: PodcastFeed.Link(url: "2026-11-24/Article%20\(number).mp3", type: "audio/mpeg"), bytes: 1_000 + number,
            durationSeconds: 60 + number, narrator: "Ann Lee",
            chapters: PodcastFeed.Link(url: "2026-11-24/Article%20\(number).chapters.json", type: FeedDocument.chaptersType),
            transcripts: [
                PodcastFeed.Link(url: "2026-11-24/Article%20\(number).vtt", type: "text/vtt"),
                PodcastFeed.Link(url: "2026-11-24/Article%20\(number).srt", type: "application/srt"),
            ])
    }

    @Test("every field FeedDocument writes reads back equal, with a public URL and cover art too")
    func roundTrip() throws {
        var channel = Self.channel
        channel.selfURL = "https://cdn.example.org/n/Daily%20Post/feed.xml"
        channel.imageURL = "https://cdn.example.org/cover.jpg"
        let feed = PodcastFeed(channel: channel, items: (1...3).map(Self.item))
        let read = try FeedReader.read(Data(FeedDocument.xml(feed).utf8))
        #expect(read == feed)
        #expect(try FeedReader.read(Data(FeedDocument.xml(PodcastFeed(channel: Self.channel)).utf8)) == PodcastFeed(channel: Self.channel))
    }

    @Test("16 deliveries racing to one folder's feed leave all 16 items, and no temporary file")
    func folderRace() throws {
        let folder = TemporaryFolder("narrate-feed")
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 16) { number in
            do throws(NarrationError) {
                _ = try FeedPublisher.change(inFolder: folder.url, feedPath: "Daily Post/feed.xml", channel: Self.channel, .publish(Self.item(number)))
            } catch {
                failures.withLock { $0.append(error.message) }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let feed = try #require(try FeedPublisher.read(inFolder: folder.url, feedPath: "Daily Post/feed.xml"))
        #expect(Set(feed.items.map(\.guid)) == Set((0..<16).map { "article\($0)" }))
        #expect(feed.items.map(\.guid) == (0..<16).reversed().map { "article\($0)" })  // newest first
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.file("Daily Post").path).sorted()
        #expect(names == [".feed.xml.lock", "feed.xml"])
        // Taking an item out of a feed that does not exist writes nothing and makes no feed.
        let nothing = try FeedPublisher.change(inFolder: folder.url, feedPath: "Other/feed.xml", channel: nil, .remove(guid: "article1"))
        #expect(!nothing.written && !FileManager.default.fileExists(atPath: folder.file("Other/feed.xml").path))
        // Removing takes one out and keeps the rest.
        let update = try FeedPublisher.change(inFolder: folder.url, feedPath: "Daily Post/feed.xml", channel: Self.channel, .remove(guid: "article7"))
        #expect(update.feed.items.count == 15 && !update.feed.items.contains { $0.guid == "article7" })
    }

    @Test("a feed.xml narrate cannot read is refused with a sentence and left byte for byte")
    func unreadableFeed() throws {
        let folder = TemporaryFolder("narrate-feed")
        try FileManager.default.createDirectory(at: folder.file("Daily Post"), withIntermediateDirectories: true)
        for (text, reason) in [
            ("<html><body>Our podcast</body></html>", "it is not an RSS feed (no <rss><channel>)"),
            ("<rss><channel><title>x</title><item><title>No guid</title></item></channel></rss>",
             "an item has no guid, enclosure or date narrate can read (No guid)"),
        ] {
            let foreign = Data(text.utf8)
            try foreign.write(to: folder.file("Daily Post/feed.xml"))
            let path = folder.file("Daily Post/feed.xml").path
            #expect(throws: NarrationError(.feedUnreadable, "\(path) is not a feed narrate can change: \(reason). It was left as it is; move it away, and deliver again to start a new feed.")) {
                try FeedPublisher.change(inFolder: folder.url, feedPath: "Daily Post/feed.xml", channel: Self.channel, .publish(Self.item(1)))
            }
            #expect(try Data(contentsOf: folder.file("Daily Post/feed.xml")) == foreign)
        }
        try Data("<rss><channel".utf8).write(to: folder.file("Daily Post/feed.xml"))
        let error = #expect(throws: NarrationError.self) {
            try FeedPublisher.change(inFolder: folder.url, feedPath: "Daily Post/feed.xml", channel: Self.channel, .publish(Self.item(1)))
        }
        #expect(error?.kind == .feedUnreadable)
        #expect(error?.message.hasPrefix("\(folder.file("Daily Post/feed.xml").path) is not a feed narrate can change: it is not well-formed XML (line 1: ") == true, "\(error?.message ?? "")")
    }

    @Test("in object storage a write with a stale ETag is refused; 12 deliveries racing to one feed leave all 12 items")
    func objectStorageRace() async throws {
        let server = try ObjectStorageServer(buckets: ["radio"])
        let storage = try S3Destination(url: "s3://radio/narrations", endpoint: server.endpoint, pathStyle: true)
        let credentials = S3Credentials(accessKeyID: ObjectStorageServer.accessKeyID, secretAccessKey: ObjectStorageServer.secretAccessKey)
        let key = "narrations/Daily Post/feed.xml"

        // If-Match and If-None-Match as SeaweedFS answers them: a write over a change is refused.
        // In the full suite a request's body can be starved of the concurrency pool until the
        // server gives up (a failure that may pass, which a delivery tries again): such a run of
        // the checks starts again on a new key, up to three times.
        var checked: [Bool]?
        for run in 1...3 where checked == nil {
            let probe = "narrations/probe-\(run).txt"
            let client = StorageConnection(destination: storage, credentials: credentials)
            do throws(NarrationError) {
                var answers = [try await client.putObjectIfUnchanged(key: probe, body: Data("one".utf8), contentType: "text/plain", etag: nil)]
                answers.append(try await client.putObjectIfUnchanged(key: probe, body: Data("two".utf8), contentType: "text/plain", etag: nil))
                let first = try await client.getObject(key: probe)
                answers.append(try await client.putObjectIfUnchanged(key: probe, body: Data("three".utf8), contentType: "text/plain", etag: first?.etag ?? "-"))
                answers.append(try await client.putObjectIfUnchanged(key: probe, body: Data("four".utf8), contentType: "text/plain", etag: first?.etag ?? "-"))
                answers.append(try await client.getObject(key: probe)?.body == Data("three".utf8))
                checked = answers
            } catch where error.mayPass {
                print("figure: a conditional-write check met a failure that may pass (\(error.message)); run \(run) of 3")
            } catch {
                await client.shutdown()
                throw error
            }
            await client.shutdown()
        }
        #expect(checked == [true, false, true, false, true])

        let attempts = try await withThrowingTaskGroup(of: Int.self) { group in
            for number in 0..<12 {
                group.addTask {
                    // A failure that may pass is tried again, as a delivery's retries would.
                    for retry in 0..<3 {
                        let connection = StorageConnection(destination: storage, credentials: credentials)
                        do throws(NarrationError) {
                            let update = try await FeedPublisher.change(at: key, with: connection, channel: Self.channel, .publish(Self.item(number)))
                            await connection.shutdown()
                            return update.attempts
                        } catch where error.mayPass && retry < 2 {
                            await connection.shutdown()
                        } catch {
                            await connection.shutdown()
                            throw error
                        }
                    }
                    preconditionFailure("the last try returns or throws")
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(attempts.count == 12)
        print("figure: 12 deliveries racing to one feed in SeaweedFS took \(attempts.reduce(0, +)) read-change-writes (\(attempts.sorted()))")
        let stored = try server.contents(of: key, in: "radio")
        let feed = try FeedReader.read(stored)
        #expect(Set(feed.items.map(\.guid)) == Set((0..<12).map { "article\($0)" }))
        // The race is real: some deliveries found the feed changed under them and wrote again.
        #expect(attempts.reduce(0, +) > 12, "attempts: \(attempts)")
    }
}
