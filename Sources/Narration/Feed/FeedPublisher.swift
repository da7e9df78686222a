import Foundation
public import NarrationCore
import Synchronization

/// A change to one publication's feed.
public enum FeedChange: Sendable, Equatable {
    /// Add the item, or replace its article's.
    case publish(PodcastFeed.Item)
    /// Take the article's item out.
    case remove(guid: String)

    /// Whether the change would leave `feed` as it is: an item to take out that it does not hold
    /// (nothing is then written, and a feed that does not exist is not made).
    func changesNothing(in feed: PodcastFeed) -> Bool {
        guard case .remove(let guid) = self else { return false }
        return !feed.items.contains { $0.guid == guid }
    }

    /// The feed changed, with at most `limit` items (the newest).
    func applied(to feed: PodcastFeed, keeping limit: Int) -> PodcastFeed {
        switch self {
        case .publish(let item): feed.publishing(item).keepingNewest(limit)
        case .remove(let guid): feed.removing(guid: guid)
        }
    }
}

extension PodcastFeed.Channel {
    /// A channel for a feed that is only read, never written with it.
    static let untitled = PodcastFeed.Channel(title: "", link: "./", description: "", language: "", author: "")
}

/// What a feed change did.
public struct FeedUpdate: Sendable, Equatable {
    /// The feed as written.
    public let feed: PodcastFeed
    /// Where it is: a file's path, or `s3://bucket/key`.
    public let location: String
    /// How many times it was read, changed and written: more than 1 when another delivery wrote
    /// the feed between this one's read and write.
    public let attempts: Int
    /// False when nothing was written: an item to take out of a feed that does not exist.
    public let written: Bool
}

/// Changes a feed by reading it, changing it and writing it, with no lost update when two
/// deliveries change the same feed at once, and never a half-written feed: a `DeliveryStore`'s
/// read-change-write (`change`), the same for every destination.
///
/// In a folder, the change holds an exclusive `flock` on `.feed.xml.lock` beside the feed while it
/// reads and writes (waiting for another delivery's without polling), and the feed is replaced
/// atomically (a temporary file, fsynced, renamed). A destination folder may be shared: a symbolic
/// link there (as the feed, its lock or its temporary file) is someone else's, never followed; the
/// change is refused, naming it, and the link and its target are left as they are, so that no item
/// is read from another file and no file is made or changed at a link's target.
/// In object storage, the new feed is stored only if the feed is still the one read: a PUT with
/// `If-Match` its ETag (or `If-None-Match: *` when there was none), read again and retried when
/// the storage answers 412 (or 409) because another delivery wrote first.
enum FeedPublisher {
    /// The most items a feed keeps: the newest. A daily service reaches it in about a year; older
    /// items drop out of the feed (their files stay), which keeps the feed small enough for every
    /// podcast app to fetch often.
    static let maximumItems = 300
    static let contentType = "application/rss+xml; charset=utf-8"

    /// Changes the feed at `feedPath` in `store`.
    /// - Throws: the store's errors (`fileSystem`, `diskFull`, `foreignFile` for a folder; the
    ///   storage's); `feedUnreadable` for a feed narrate cannot read (it is left as it is).
    /// - Parameter channel: the channel to write; nil keeps the feed's own (taking an item out).
    static func change(
        in store: some DeliveryStore, feedPath: String, channel: PodcastFeed.Channel?, _ change: FeedChange
    ) async throws(NarrationError) -> FeedUpdate {
        let edit = FeedEdit(location: store.location(of: feedPath), channel: channel, change: change)
        return edit.update(try await store.change(feedPath, contentType: contentType, edit.transform))
    }

    /// Changes the feed at `feedPath` below `folder`, on the calling thread (which may block).
    static func change(
        inFolder folder: URL, feedPath: String, channel: PodcastFeed.Channel?, _ change: FeedChange
    ) throws(NarrationError) -> FeedUpdate {
        let store = FolderDeliveryStore(root: folder)
        let edit = FeedEdit(location: store.location(of: feedPath), channel: channel, change: change)
        return edit.update(try store.changeNow(feedPath, edit.transform))
    }

    /// Changes the feed at `key` (a full key in the bucket) in object storage.
    static func change(
        at key: String, with client: StorageConnection, channel: PodcastFeed.Channel?, _ change: FeedChange
    ) async throws(NarrationError) -> FeedUpdate {
        try await Self.change(in: ObjectStorageDeliveryStore(client, prefix: ""), feedPath: key, channel: channel, change)
    }

    /// What a feed holds: the feed at `feedPath` in `store`, or nil when there is none.
    static func read(in store: some DeliveryStore, feedPath: String) async throws(NarrationError) -> PodcastFeed? {
        guard let data = try await store.read(feedPath) else { return nil }
        return try read(data, location: store.location(of: feedPath))
    }

    /// What a feed holds: the feed at `feedPath` below `folder`, or nil when there is none.
    static func read(inFolder folder: URL, feedPath: String) throws(NarrationError) -> PodcastFeed? {
        let store = FolderDeliveryStore(root: folder)
        guard let data = try store.readNow(feedPath) else { return nil }
        return try read(data, location: store.location(of: feedPath))
    }

    static func read(_ data: Data, location: String) throws(NarrationError) -> PodcastFeed {
        do throws(FeedReader.Unreadable) {
            return try FeedReader.read(data)
        } catch {
            throw NarrationError(
                .feedUnreadable, "\(location) is not a feed narrate can change: \(error.reason). It was left as it is; move it away, and deliver again to start a new feed.",
                subject: .file(location))
        }
    }
}

/// One feed change as a store's transform: the bytes read in, the feed's bytes out (nil when
/// nothing changes), and the feed it wrote, for the `FeedUpdate`.
private final class FeedEdit: Sendable {
    let location: String
    let channel: PodcastFeed.Channel?
    let change: FeedChange
    /// The feed the last try read and changed (or found needing no change).
    private let outcome = Mutex<PodcastFeed?>(nil)

    init(location: String, channel: PodcastFeed.Channel?, change: FeedChange) {
        self.location = location
        self.channel = channel
        self.change = change
    }

    @Sendable func transform(_ data: Data?) throws(NarrationError) -> Data? {
        var feed = PodcastFeed(channel: channel ?? .untitled)
        if let data {
            feed = try FeedPublisher.read(data, location: location)
            if let channel { feed.channel = channel }
        }
        if change.changesNothing(in: feed) {
            outcome.withLock { $0 = feed }
            return nil
        }
        let changed = change.applied(to: feed, keeping: FeedPublisher.maximumItems)
        outcome.withLock { $0 = changed }
        return Data(FeedDocument.xml(changed).utf8)
    }

    func update(_ stored: StoredChange) -> FeedUpdate {
        FeedUpdate(
            feed: outcome.withLock { $0 } ?? PodcastFeed(channel: channel ?? .untitled), location: location, attempts: stored.attempts,
            written: stored.written)
    }
}
