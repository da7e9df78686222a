import Foundation
import Synchronization

/// Segments of a parallel MP3 encode kept for the next encode of the same stream: the studio
/// encodes an article between takes, and queue then encodes only what the last take changed
/// (shared/MP3-PARALLEL.md, "Pre-encoding while the narrator records").
///
/// A segment is found by a key its caller makes of everything its encoder read and how: the
/// encoding, the samples of its input and where they lie in the stream, and whether it opens
/// or ends the stream. A key that names the same input finds the same frames, so a stored
/// segment is never stale; a changed chunk, gain or bitrate simply misses. The frames live in
/// unnamed scratch files in `folder`, which vanish with the store or the process.
public final class MP3SegmentStore: Sendable {
    let folder: String
    private let segments = Mutex<[String: EncodedMP3Segment]>([:])

    /// - Parameter folder: where scratch files go (about the size of the MP3 file, on its disk).
    public init(scratchFolder folder: String) {
        self.folder = folder
    }

    /// How many segments are stored.
    public var count: Int { segments.withLock { $0.count } }

    func segment(_ key: String) -> EncodedMP3Segment? {
        segments.withLock { $0[key] }
    }

    /// Stores segments just encoded.
    func add(_ encoded: [String: EncodedMP3Segment]) {
        segments.withLock { $0.merge(encoded) { $1 } }
    }

    /// Keeps only the segments of the stream last made (`keys`): the others' scratch files close.
    func keepOnly(_ keys: Set<String>) {
        let dropped = segments.withLock { stored in
            let dropped = stored.filter { !keys.contains($0.key) }
            for key in dropped.keys { stored[key] = nil }
            return dropped
        }
        withExtendedLifetime(dropped) {}
    }

    /// Drops every segment (after a failure that may have left them inconsistent, or when the
    /// article is left).
    public func removeAll() {
        let dropped = segments.withLock { stored in
            defer { stored = [:] }
            return stored
        }
        withExtendedLifetime(dropped) {}
    }
}

/// What one encode made of the segments: how many were encoded and how many taken as stored.
public struct MP3SegmentReuse: Sendable, Equatable {
    public let encoded: Int
    public let reused: Int

    public init(encoded: Int, reused: Int) {
        self.encoded = encoded
        self.reused = reused
    }
}
