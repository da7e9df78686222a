import Foundation
import Narration
import NarrationCore

/// The JSON shapes of the command-line contract (DESIGN.md): stable keys for scripts.
struct ArticleJSON: Encodable {
    let id: String
    let title: String
    let publication: String
    let narrator: String
    let sampleRate: Int
    let channels: Int
    let bitsPerSample: Int
    let createdAt: Date
    let state: String
    let chunks: Int?
    let duration: Double?
    let current: Bool?
    /// The article's file at each destination it was delivered to (`narrate list`).
    var deliveries: [DeliveryJSON]?

    init(_ article: Article, chunks: Int? = nil, frames: FrameCount? = nil, current: Bool? = nil) {
        id = article.id.rawValue
        title = article.title
        publication = article.publication
        narrator = article.narrator
        sampleRate = article.format.sampleRate
        channels = article.format.channels
        bitsPerSample = article.format.bitsPerSample
        createdAt = article.createdAt
        state = article.state.rawValue
        self.chunks = chunks
        duration = frames.map { article.format.seconds($0) }
        self.current = current
    }
}

/// An article's file at one destination.
struct DeliveryJSON: Encodable {
    let destination: String
    let location: String
    let deliveredAt: Date
    /// False once the article changed after this delivery: the file holds an older version.
    let current: Bool

    init(_ delivery: NarrationLibrary.Delivery) {
        destination = delivery.destination
        location = delivery.location
        deliveredAt = delivery.deliveredAt
        current = delivery.isCurrent
    }
}

struct ChunkJSON: Encodable {
    let index: Int
    let id: String
    let frames: Int
    let sampleRate: Int
    let channels: Int
    let bitsPerSample: Int
    let duration: Double
    let peakDBFS: Double
    let rmsDBFS: Double
    let overruns: Int
    let recovered: Bool
    let recordedAt: Date
    let file: String
    let fileMissing: Bool
    /// "missing", "truncated", "otherFormat", "unreadable", or null when the file is sound.
    let fileProblem: NullWhenAbsent<String>
    /// The paragraph of the article's text the chunk reads (numbered from 1), or null.
    let paragraph: NullWhenAbsent<Int>

    init(_ chunk: Chunk, index: ChunkIndex, file: URL, fileMissing: Bool, fileProblem: String? = nil, paragraph: Int? = nil) {
        self.index = index.number
        id = chunk.id.rawValue
        frames = chunk.frames
        sampleRate = chunk.format.sampleRate
        channels = chunk.format.channels
        bitsPerSample = chunk.format.bitsPerSample
        duration = chunk.duration
        peakDBFS = chunk.peak.value
        rmsDBFS = chunk.rms.value
        overruns = chunk.overruns
        recovered = chunk.recovered
        recordedAt = chunk.recordedAt
        self.file = file.path
        self.fileMissing = fileMissing
        self.fileProblem = NullWhenAbsent(fileProblem ?? (fileMissing ? "missing" : nil))
        self.paragraph = NullWhenAbsent(paragraph)
    }
}
