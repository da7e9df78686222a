public import Foundation
public import NarrationCore

/// A publication's feed at a destination, as `narrate feed` shows it.
public struct PublishedFeed: Sendable, Equatable {
    /// The feed's file path, or `s3://bucket/key`.
    public let location: String
    /// What it holds; nil when the destination has no feed for the publication yet.
    public let feed: PodcastFeed?

    public init(location: String, feed: PodcastFeed?) {
        self.location = location
        self.feed = feed
    }
}

extension NarrationLibrary {
    /// The feed of `publication` at `destination`.
    /// - Throws: `fileSystem` for a folder that is not there; `credentials` and the storage's
    ///   errors; `feedUnreadable`.
    public func feed(
        of publication: String, at destination: Destination, environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws(NarrationError) -> PublishedFeed {
        let store = try Self.store(for: destination, environment: environment)
        return try await store.closing { () async throws(NarrationError) in try await feed(of: publication, in: store) }
    }

    /// The feed of `publication` in `store`.
    func feed(of publication: String, in store: some DeliveryStore) async throws(NarrationError) -> PublishedFeed {
        let feedPath = Self.feedPath(of: publication)
        return PublishedFeed(location: store.location(of: feedPath), feed: try await FeedPublisher.read(in: store, feedPath: feedPath))
    }

    /// Takes article `guid`'s item out of the feed of `publication` at `destination`, the same
    /// read-change-write as a delivery's (see `FeedPublisher`). The delivered files stay where
    /// they are; only the feed stops offering them.
    /// - Returns: the feed as written, and whether it held the item.
    /// - Throws: as `feed(of:at:)`; `usage` when the destination has no feed for the publication.
    public func removeFromFeed(
        _ guid: String, of publication: String, at destination: Destination, settings: FeedSettings,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws(NarrationError) -> (update: FeedUpdate, removed: Bool) {
        let store = try Self.store(for: destination, environment: environment)
        return try await store.closing { () async throws(NarrationError) in
            try await removeFromFeed(guid, of: publication, in: store, settings: settings)
        }
    }

    /// Takes article `guid`'s item out of the feed of `publication` in `store`.
    func removeFromFeed(
        _ guid: String, of publication: String, in store: some DeliveryStore, settings: FeedSettings
    ) async throws(NarrationError) -> (update: FeedUpdate, removed: Bool) {
        let feedPath = Self.feedPath(of: publication)
        let channel = settings.channel(publication: publication, feedPath: feedPath, defaultLanguage: "en")
        let before = try await feed(of: publication, in: store)
        guard before.feed != nil else {
            throw .usage("\(store.name) has no feed for \"\(publication)\" (there is no \(before.location)).")
        }
        let update = try await FeedPublisher.change(in: store, feedPath: feedPath, channel: channel, .remove(guid: guid))
        let held = before.feed?.items.contains { $0.guid == guid } ?? false
        return (update, held)
    }

    /// Where a publication's feed is below a destination.
    static func feedPath(of publication: String) -> String {
        Sidecar.publicationFolder(publication) + "/" + FeedSettings.fileName
    }
}
