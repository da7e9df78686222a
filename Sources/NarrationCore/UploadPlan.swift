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

/// Waits between attempts at a delivery that failed for a reason that may pass (the storage
/// unreachable or busy, a dropped connection): doubling from `first`, never above `limit`, and
/// at most `attempts` tries in all.
public struct RetrySchedule: Sendable, Equatable {
    public let attempts: Int
    public let first: Double
    public let limit: Double

    public init(attempts: Int = 4, first: Double = 1, limit: Double = 30) {
        precondition(attempts >= 1 && first >= 0 && limit >= first, "a schedule tries at least once and waits no less than nothing")
        self.attempts = attempts
        self.first = first
        self.limit = limit
    }

    /// Seconds to wait before retry number `retry` (1 for the second attempt); nil once the
    /// attempts are spent.
    public func delay(beforeRetry retry: Int) -> Double? {
        guard retry >= 1, retry < attempts else { return nil }
        return min(limit, first * Double(1 << min(retry - 1, 30)))
    }
}
