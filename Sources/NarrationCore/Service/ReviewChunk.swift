/// One chunk of an article as review keeps it when the article is sent back: which take it is,
/// its length and the paragraph it reads. The list of them is the send-back's snapshot, against
/// which `ReviewChanges` finds what the volunteer changed.
public struct ReviewChunk: Hashable, Sendable {
    /// The take: a chunk changed in any way (re-recorded, punched, trimmed) is a new take with a
    /// new id, so the same id is the same audio.
    public let id: ChunkID
    public let frames: FrameCount
    /// The paragraph it reads; nil when it reads none.
    public let paragraph: ParagraphID?
    /// The SHA-256 of its file (64 lower-case hex digits), so that a file changed under the same
    /// id still counts as changed; nil when the file could not be read.
    public let checksum: String?

    public init(id: ChunkID, frames: FrameCount, paragraph: ParagraphID?, checksum: String? = nil) {
        self.id = id
        self.frames = frames
        self.paragraph = paragraph
        self.checksum = checksum
    }

    /// Whether `other` is the same audio as far as can be told: the same take, and the same
    /// file when both checksums are known.
    public func isSameAudio(as other: ReviewChunk) -> Bool {
        guard id == other.id else { return false }
        guard let checksum, let otherChecksum = other.checksum else { return true }
        return checksum == otherChecksum
    }

    /// Whether `text` is a checksum as narrate writes it: 64 lower-case hex digits.
    public static func isChecksum(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
