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
        let feedPath = Sidecar.publicationFolder(publication) + "/" + FeedSettings.fileName
        switch try Self.prepare(destination, environment: environment) {
        case .folder(let folder):
            let location = folder.appendingPathComponent(feedPath).path
            return PublishedFeed(location: location, feed: try FeedPublisher.read(inFolder: folder, feedPath: feedPath))
        case .s3(let storage, let credentials):
            let client = StorageConnection(destination: storage, credentials: credentials)
            let key = storage.key(for: feedPath)
            let location = "s3://\(storage.bucket)/\(key)"
            do throws(NarrationError) {
                let current = try await client.getObject(key: key)
                await client.shutdown()
                return PublishedFeed(location: location, feed: try current.map { (found) throws(NarrationError) in try FeedPublisher.read(found.body, location: location) })
            } catch {
                await client.shutdown()
                throw error
            }
        }
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
        let feedPath = Sidecar.publicationFolder(publication) + "/" + FeedSettings.fileName
        let channel = settings.channel(publication: publication, feedPath: feedPath, defaultLanguage: "en")
        let before = try await feed(of: publication, at: destination, environment: environment)
        guard before.feed != nil else {
            throw .usage("\(destination.description) has no feed for \"\(publication)\" (there is no \(before.location)).")
        }
        let update: FeedUpdate
        switch try Self.prepare(destination, environment: environment) {
        case .folder(let folder):
            update = try await BlockingWork.run(named: "narrate-feed") { () throws(NarrationError) in
                try FeedPublisher.change(inFolder: folder, feedPath: feedPath, channel: channel, .remove(guid: guid))
            }
        case .s3(let storage, let credentials):
            let client = StorageConnection(destination: storage, credentials: credentials)
            do throws(NarrationError) {
                update = try await FeedPublisher.change(at: storage.key(for: feedPath), with: client, channel: channel, .remove(guid: guid))
                await client.shutdown()
            } catch {
                await client.shutdown()
                throw error
            }
        }
        let held = before.feed?.items.contains { $0.guid == guid } ?? false
        return (update, held)
    }
}
