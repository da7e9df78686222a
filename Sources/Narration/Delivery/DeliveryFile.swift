public import Foundation

/// One file of a delivery, as a `DeliveryStore` stages it: where it comes from, where it goes,
/// and what its bytes must be.
public struct DeliveryFile: Sendable {
    /// The file in the outbox.
    public let source: URL
    /// Its place in the store.
    public let key: String
    /// The SHA-256 (hex) and size the file had when it was queued: what is stored is checked against them.
    public let sha256: String
    public let bytes: Int
    public let contentType: String
    /// Kept with an object in object storage, as given.
    public let metadata: [String: String]
    /// Whether bytes already at `key` with this size and SHA-256 (and, in object storage, the
    /// ETag and the metadata's SHA-256) stay as they are rather than being written again: an
    /// earlier attempt's copy, or an earlier delivery of the same export.
    public let reusesStoredCopy: Bool

    public init(
        source: URL, key: String, sha256: String, bytes: Int, contentType: String, metadata: [String: String] = [:],
        reusesStoredCopy: Bool = false
    ) {
        self.source = source
        self.key = key
        self.sha256 = sha256
        self.bytes = bytes
        self.contentType = contentType
        self.metadata = metadata
        self.reusesStoredCopy = reusesStoredCopy
    }
}
