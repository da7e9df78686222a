public import Foundation
public import NarrationCore

/// Where a reading service keeps a copy of every chunk off its hosts: an S3 bucket (or a folder
/// every host mounts), behind the same `DeliveryStore` interface as deliveries, so a write is
/// atomic and checked (size, ETag and SHA-256 by HEAD in object storage; read back in a folder).
///
/// A take is made durable on its host's disk first, exactly as without a store; the host then
/// copies its chunk here (`NarrationLibrary.copyChunks(to:)`) and records the checked copy in
/// the catalog. A host that lacks a chunk's file (another host recorded it, or its disk was
/// replaced) brings it home from here (`bringChunksHome(of:from:)`): the data folder is then a
/// cache it may throw away. Keys are `articles/ARTICLE/CHUNK.wav`, below the store's root.
public struct RecordingStore: Sendable {
    let store: any DeliveryStore

    public init(_ store: any DeliveryStore) {
        self.store = store
    }

    /// The store as config.toml and the catalog name it: a folder's path, or `s3://bucket/prefix`.
    public var name: String { store.name }

    /// Where `chunk` of `article` is kept, below the store's root.
    static func key(of chunk: ChunkID, in article: ArticleID) -> String {
        "articles/\(article.rawValue)/\(chunk.rawValue).wav"
    }

    /// Lets go of the store's connection; await it before dropping the store.
    public func close() async { await store.close() }
}
