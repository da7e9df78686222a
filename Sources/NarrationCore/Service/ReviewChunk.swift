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

    public init(id: ChunkID, frames: FrameCount, paragraph: ParagraphID?) {
        self.id = id
        self.frames = frames
        self.paragraph = paragraph
    }
}
