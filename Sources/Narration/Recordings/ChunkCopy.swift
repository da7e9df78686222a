public import Foundation
public import NarrationCore

/// A chunk's file as the recordings store holds it, checked, as the catalog records it.
public struct ChunkCopy: Sendable, Equatable {
    public let article: ArticleID
    public let chunk: ChunkID
    /// The object's key below the store's root: `articles/ARTICLE/CHUNK.wav`.
    public let key: String
    public let bytes: Int
    /// The SHA-256 (hex) of the bytes, computed from the host's file before it was sent and
    /// compared with what the store says it holds.
    public let sha256: String
    public let storedAt: Date
}
