/// How a file of a given size is sent to object storage: one PUT when it fits in one part, else a
/// multipart upload of equal parts (the last one shorter).
///
/// Parts are 8 MiB, S3's recommended minimum, and grow in whole MiB only when a file would need
/// more than the 10 000 parts S3 allows.
public struct UploadPlan: Sendable, Equatable {
    public static let minimumPartSize = 8 * 1024 * 1024
    public static let maximumParts = 10_000

    public let bytes: Int
    public let partSize: Int

    public init(bytes: Int) {
        precondition(bytes >= 0, "a file has a size of zero or more bytes")
        self.bytes = bytes
        let mebibyte = 1024 * 1024
        let needed = (bytes + Self.maximumParts - 1) / Self.maximumParts
        partSize = max(Self.minimumPartSize, (needed + mebibyte - 1) / mebibyte * mebibyte)
    }

    public var isMultipart: Bool { bytes > partSize }

    /// The byte ranges of parts 1…n (one range covering the file when it is not multipart).
    public var parts: [Range<Int>] {
        guard isMultipart else { return [0..<bytes] }
        return stride(from: 0, to: bytes, by: partSize).map { $0..<min($0 + partSize, bytes) }
    }
}
