/// Where a volunteer picks up what a note asks: a punch-and-roll within a chunk from the note's
/// time, or the whole paragraph read again when the time lies in no chunk of the note's
/// paragraph (the note was pinned between chunks, in a chunk bound to another paragraph or to
/// none, or the paragraph has no take yet).
public enum PickupTarget: Sendable, Equatable {
    /// Punch in at `seconds` from the start of the article's chunk `chunk` (numbered from 1).
    case punch(chunk: Int, seconds: Double)
    /// Read paragraph `paragraph` (numbered from 1) again.
    case reread(paragraph: Int)

    /// One chunk of the article as a pickup sees it: its length and the number of the paragraph
    /// it reads (nil when it reads none).
    public struct Chunk: Sendable, Equatable {
        public let frames: FrameCount
        public let paragraph: Int?

        public init(frames: FrameCount, paragraph: Int?) {
            self.frames = frames
            self.paragraph = paragraph
        }
    }

    /// The target of `note` in an article of `chunks`, in order, at `sampleRate` frames a second.
    /// The chunk that holds the note's time is the one it starts in (a time on the boundary of two
    /// chunks belongs to the later); the article's very end belongs to its last chunk.
    public static func of(_ note: ReviewNote, chunks: [Chunk], sampleRate: Int) -> PickupTarget {
        let rate = Int64(max(sampleRate, 1))
        // The note's frame, in integers: milliseconds are bounded by the article's length.
        let frame = note.milliseconds * rate / 1000
        var start: Int64 = 0
        for (position, chunk) in chunks.enumerated() {
            let end = start + Int64(chunk.frames)
            let isLast = position == chunks.count - 1
            if frame >= start, frame < end || (isLast && frame == end) {
                guard chunk.paragraph == note.paragraph else { break }
                let offsetFrames = frame - start
                return .punch(chunk: position + 1, seconds: Double(offsetFrames) / Double(rate))
            }
            start = end
        }
        return .reread(paragraph: note.paragraph)
    }

    /// What the volunteer is asked to do, in words: "punch in at 4.2 s into chunk 3".
    public var sentence: String {
        switch self {
        case .punch(let chunk, let seconds): "punch in at \(ReviewNote.shown(seconds)) s into chunk \(chunk)"
        case .reread(let paragraph): "read paragraph \(paragraph) again"
        }
    }
}
