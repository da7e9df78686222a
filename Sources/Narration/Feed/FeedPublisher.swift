import Foundation
public import NarrationCore

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
/// deliveries change the same feed at once, and never a half-written feed.
///
/// In a folder, the change holds an exclusive `flock` on `.feed.xml.lock` beside the feed while it
/// reads and writes, and the feed is replaced atomically (a temporary file, fsynced, renamed).
/// A destination folder may be shared: a symbolic link there (as the feed, its lock or its
/// temporary file) is someone else's, never followed; the change is refused, naming it, and the
/// link and its target are left as they are, so that no item is read from another file and no
/// file is made or changed at a link's target.
/// In object storage, the new feed is stored only if the feed is still the one read: a PUT with
/// `If-Match` its ETag (or `If-None-Match: *` when there was none), read again and retried when
/// the storage answers 412 (or 409) because another delivery wrote first.
enum FeedPublisher {
    /// How long a folder change waits for another delivery's lock, and how many times an object
    /// storage change tries before it gives up saying the feed is busy.
    static let lockWaitSeconds = 30.0
    static let maximumAttempts = 20
    /// The most items a feed keeps: the newest. A daily service reaches it in about a year; older
    /// items drop out of the feed (their files stay), which keeps the feed small enough for every
    /// podcast app to fetch often.
    static let maximumItems = 300

    /// Changes the feed at `feedPath` below `folder`.
    /// - Throws: `fileSystem`/`diskFull` for the folder; `feedUnreadable` for a feed.xml narrate
    ///   cannot read (it is left as it is); `articleBusy` when the lock stays taken; `foreignFile`
    ///   for a symbolic link as the feed, its lock file or its temporary file.
    /// - Parameter channel: the channel to write; nil keeps the feed's own (taking an item out).
    static func change(
        inFolder folder: URL, feedPath: String, channel: PodcastFeed.Channel?, _ change: FeedChange
    ) throws(NarrationError) -> FeedUpdate {
        let feedURL = folder.appendingPathComponent(feedPath)
        if case .remove = change, (try? FileSystem.linkStatus(of: feedURL.path)) == nil {
            // No feed, so nothing to take out: no lock file or folder is made for it either.
            return FeedUpdate(feed: PodcastFeed(channel: channel ?? .untitled), location: feedURL.path, attempts: 1, written: false)
        }
        try FileSystem.createFolders(feedURL.deletingLastPathComponent(), below: folder)
        let lockURL = feedURL.deletingLastPathComponent().appendingPathComponent(".\(FeedSettings.fileName).lock")
        let lock: OpenFile
        do throws(SystemError) {
            lock = try OpenFile(lockURL.path, .readWriteCreating(permissions: 0o644))
        } catch where error.isForeignFile {
            throw FileSystem.foreignFile(at: lockURL) ?? .foreignFile(lockURL.path, .notRegularFile)
        } catch {
            throw NarrationError(.fileSystem, "Cannot open the feed's lock file \(lockURL.path): \(error.reason).", subject: .file(lockURL.path), cause: error.cause)
        }
        let deadline = FileSystem.monotonicSeconds() + lockWaitSeconds
        func locked() throws(NarrationError) -> Bool {
            do throws(SystemError) {
                return try lock.tryLockOrFail()
            } catch {
                throw NarrationError(
                    .fileSystem, "Cannot lock the feed's lock file \(lockURL.path) (\(error.reason)), so the feed was not changed; the folder must allow file locks.",
                    subject: .file(lockURL.path), cause: error.cause)
            }
        }
        while try !locked() {
            guard FileSystem.monotonicSeconds() < deadline else {
                throw NarrationError(
                    .articleBusy, "The feed \(feedURL.path) stayed locked by another delivery for \(Int(lockWaitSeconds)) s; nothing in it was changed.",
                    remedy: .sendOutboxLater)
            }
            usleep(20_000)
        }
        defer { withExtendedLifetime(lock) {} }  // the kernel drops the flock when the file closes
        var feed = PodcastFeed(channel: channel ?? .untitled)
        if let bytes = try FileSystem.ownContents(of: feedURL) {
            feed = try read(Data(bytes), location: feedURL.path)
            if let channel { feed.channel = channel }
        }
        if change.changesNothing(in: feed) { return FeedUpdate(feed: feed, location: feedURL.path, attempts: 1, written: false) }
        let changed = change.applied(to: feed, keeping: maximumItems)
        try FileSystem.writeAtomically(Data(FeedDocument.xml(changed).utf8), to: feedURL)
        return FeedUpdate(feed: changed, location: feedURL.path, attempts: 1, written: true)
    }

    /// Changes the feed at `key` in object storage.
    /// - Throws: the storage's errors; `feedUnreadable` for a feed narrate cannot read (it is
    ///   left as it is); `storageUnavailable` when other deliveries kept writing it first.
    static func change(
        at key: String, with client: StorageConnection, channel: PodcastFeed.Channel?, _ change: FeedChange
    ) async throws(NarrationError) -> FeedUpdate {
        let location = "s3://\(client.destination.bucket)/\(key)"
        for attempt in 1...maximumAttempts {
            var feed = PodcastFeed(channel: channel ?? .untitled)
            let current = try await client.getObject(key: key)
            if let current {
                guard !current.etag.isEmpty else {
                    throw NarrationError(
                        .storageRefused, "The storage gave \(location) no ETag, so it cannot be changed without risking another delivery's change; nothing in it was changed.")
                }
                feed = try read(current.body, location: location)
                if let channel { feed.channel = channel }
            }
            if change.changesNothing(in: feed) { return FeedUpdate(feed: feed, location: location, attempts: attempt, written: false) }
            let changed = change.applied(to: feed, keeping: maximumItems)
            let written = try await client.putObjectIfUnchanged(
                key: key, body: Data(FeedDocument.xml(changed).utf8), contentType: "application/rss+xml; charset=utf-8",
                etag: current?.etag)
            if written { return FeedUpdate(feed: changed, location: location, attempts: attempt, written: true) }
            // Another delivery wrote it between our read and write: wait a little, read it again.
            try? await Task.sleep(for: .milliseconds(Int.random(in: 10...60) * attempt))
        }
        throw NarrationError(
            .storageUnavailable, "The feed \(location) kept changing under this delivery (\(maximumAttempts) tries); nothing in it was changed.",
            remedy: .sendOutboxLater)
    }

    /// What a feed holds: the feed at `feedPath` below `folder`, or nil when there is none.
    static func read(inFolder folder: URL, feedPath: String) throws(NarrationError) -> PodcastFeed? {
        let feedURL = folder.appendingPathComponent(feedPath)
        guard let bytes = try FileSystem.ownContents(of: feedURL) else { return nil }
        return try read(Data(bytes), location: feedURL.path)
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
