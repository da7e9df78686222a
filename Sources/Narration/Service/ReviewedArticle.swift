public import NarrationCore

/// What review needs to know of an article, read from its library in one go: its paragraphs,
/// its chunks, its history's last edit and its punches. A plain value, so that `ReviewService`
/// decides from it alone.
public struct ReviewedArticle: Sendable {
    /// A take made by punch-and-roll, and the edit of the history that made it.
    public struct Punch: Sendable, Equatable {
        public let edit: Int
        public let chunk: ChunkID

        public init(edit: Int, chunk: ChunkID) {
            self.edit = edit
            self.chunk = chunk
        }
    }

    public let id: ArticleID
    public let sampleRate: Int
    /// How many paragraphs its text has (0 without a text).
    public let paragraphCount: Int
    /// The number of each paragraph of its text, from 1.
    public let paragraphNumbers: [ParagraphID: Int]
    /// Its chunks in order.
    public let chunks: [ReviewChunk]
    /// The number of its last edit (0 when none).
    public let lastEdit: Int
    /// The numbers of its edits that stand (not undone), oldest first.
    public let standingEdits: [Int]
    /// The takes made by punch-and-roll in edits that stand.
    public let punches: [Punch]

    public init(
        id: ArticleID, sampleRate: Int, paragraphCount: Int, paragraphNumbers: [ParagraphID: Int], chunks: [ReviewChunk], lastEdit: Int,
        standingEdits: [Int], punches: [Punch]
    ) {
        self.id = id
        self.sampleRate = sampleRate
        self.paragraphCount = paragraphCount
        self.paragraphNumbers = paragraphNumbers
        self.chunks = chunks
        self.lastEdit = lastEdit
        self.standingEdits = standingEdits
        self.punches = punches
    }

    /// The length of its audio in seconds.
    public var seconds: Double { Double(chunks.reduce(0) { $0 + $1.frames }) / Double(max(sampleRate, 1)) }

    /// Its chunks as a pickup target is found among them.
    public var pickupChunks: [PickupTarget.Chunk] {
        chunks.map { PickupTarget.Chunk(frames: $0.frames, paragraph: $0.paragraph.flatMap { paragraphNumbers[$0] }) }
    }
}

extension NarrationLibrary {
    /// What review needs to know of `article`, as the catalog has it now, with each chunk file's
    /// checksum (read whole: a few milliseconds a minute of audio).
    public func reviewedArticle(_ article: Article) throws(NarrationError) -> ReviewedArticle {
        let paragraphs = try catalog.paragraphs(of: article.id)
        let chunks = try catalog.chunks(of: article)
        let history = try catalog.reviewHistory(of: article.id)
        return ReviewedArticle(
            id: article.id, sampleRate: article.format.sampleRate, paragraphCount: paragraphs.count,
            paragraphNumbers: Dictionary(paragraphs.map { ($0.id, $0.number) }, uniquingKeysWith: { first, _ in first }),
            chunks: chunks.map { chunk in
                ReviewChunk(
                    id: chunk.id, frames: chunk.frames, paragraph: chunk.paragraphID,
                    checksum: try? Checksum.sha256(of: root.chunkURL(chunk.id, of: article.id)))
            }, lastEdit: history.lastEdit, standingEdits: history.standing,
            punches: history.punches.map { ReviewedArticle.Punch(edit: $0.edit, chunk: $0.chunk) })
    }
}
