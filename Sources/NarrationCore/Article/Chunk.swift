public import struct Foundation.Date

/// One recorded take: a WAV file in the article's format, and what was measured while recording it.
public struct Chunk: Hashable, Sendable {
    public var id: ChunkID
    public var articleID: ArticleID
    public var frames: FrameCount
    public var format: AudioFormat
    /// The highest sample magnitude of the take, in dBFS.
    public var peak: Decibels
    /// The RMS level over the whole take and all channels, in dBFS.
    public var rms: Decibels
    /// Capture overruns that were recovered while recording (each one lost some audio).
    public var overruns: Int
    /// Whether the take was adopted from a partial file after a crash or a lost device.
    public var recovered: Bool
    public var recordedAt: Date
    /// The paragraph of the article's text the take reads; nil when the article has no text,
    /// or the paragraph left the text.
    public var paragraphID: ParagraphID?

    public init(
        id: ChunkID, articleID: ArticleID, frames: FrameCount, format: AudioFormat,
        peak: Decibels, rms: Decibels, overruns: Int, recovered: Bool, recordedAt: Date, paragraphID: ParagraphID? = nil
    ) {
        self.id = id
        self.articleID = articleID
        self.frames = frames
        self.format = format
        self.peak = peak
        self.rms = rms
        self.overruns = overruns
        self.recovered = recovered
        self.recordedAt = recordedAt
        self.paragraphID = paragraphID
    }

    /// The take's length in seconds.
    public var duration: Double { format.seconds(frames) }

}
