import Foundation
import NarrationCore
import SQLEngines

/// Rows of the catalog (see `CatalogRecord`). Internal: the rest of the engine speaks `Article` and `Chunk`.
struct ArticleRow: CatalogRecord {
    static let table = "article"
    static let key = ["id"]
    var id: String
    var title: String
    var publication: String
    var narrator: String
    var sampleRate: Int
    var channels: Int
    var bitsPerSample: Int
    var createdAt: Date
    var state: String
    /// `YYYY-MM-DD`: the date listeners see, when the volunteer set one.
    var listenerDate: String?
    /// When the article went to the trash (`narrate delete-article`); nil while it is in use.
    var deletedAt: Date?

    init(_ article: Article) {
        id = article.id.rawValue
        title = article.title
        publication = article.publication
        narrator = article.narrator
        sampleRate = article.format.sampleRate
        channels = article.format.channels
        bitsPerSample = article.format.bitsPerSample
        createdAt = article.createdAt
        state = article.state.rawValue
        listenerDate = article.date
        deletedAt = nil
    }

    /// The columns `init(_: SQLRow)` reads, to follow with a condition.
    static let query = "SELECT id, title, publication, narrator, sampleRate, channels, bitsPerSample, createdAt, state, listenerDate, deletedAt FROM article"

    /// A row of `query`; a value of another type, or a time not in the catalog's form, throws
    /// `catalogCorrupt` naming the article.
    init(_ row: SQLRow) throws {
        guard let id = row.checked({ try $0.text("id") }), let title = row.checked({ try $0.text("title") }),
              let publication = row.checked({ try $0.text("publication") }), let narrator = row.checked({ try $0.text("narrator") }),
              let sampleRate = row.checked({ try $0.int("sampleRate") }), let channels = row.checked({ try $0.int("channels") }),
              let bitsPerSample = row.checked({ try $0.int("bitsPerSample") }),
              let createdAt = row.checked({ try $0.text("createdAt") }).flatMap(CatalogTime.date), let state = row.checked({ try $0.text("state") }),
              let listenerDate = row.checked({ try $0.optionalText("listenerDate") }),
              let deletedAt = row.checked({ try $0.optionalText("deletedAt") }).map({ text in text.map { CatalogTime.date($0) } }), deletedAt != .some(nil)
        else {
            let id = (row.checked { try $0.text("id") }).map { Catalog.quoted($0) } ?? "?"
            throw NarrationError(.catalogCorrupt, "The catalog's entry for article \(id) holds values narrate never writes. \(Catalog.damagedFix)")
        }
        self.id = id
        self.title = title
        self.publication = publication
        self.narrator = narrator
        self.sampleRate = sampleRate
        self.channels = channels
        self.bitsPerSample = bitsPerSample
        self.createdAt = createdAt
        self.state = state
        self.listenerDate = listenerDate
        self.deletedAt = deletedAt ?? nil
    }

    /// The article; a stored value the tool would not have written makes the catalog corrupt.
    func article() throws(NarrationError) -> Article {
        let format = AudioFormat(sampleRate: sampleRate, channels: channels, bitsPerSample: bitsPerSample)
        guard Identifier.isWellFormed(id) else {
            throw NarrationError(.catalogCorrupt, "The catalog holds an article whose id \"\(Catalog.quoted(id))\" narrate never makes. \(Catalog.damagedFix)")
        }
        guard (try? format.validate()) != nil, let state = ArticleState(rawValue: state), listenerDate.map(ListenerDate.isWellFormed) ?? true else {
            throw NarrationError(.catalogCorrupt, "The catalog's entry for article \(id) holds values narrate never writes (format \(format), state \"\(state)\"). \(Catalog.damagedFix)")
        }
        return Article(
            id: ArticleID(id), title: title, publication: publication, narrator: narrator,
            format: format, createdAt: createdAt, state: state, date: listenerDate)
    }
}

struct ChunkRow: CatalogRecord, Equatable {
    static let table = "chunk"
    static let key = ["id"]
    var id: String
    var articleId: String
    var position: Int
    var frames: Int
    var peakDBFS: Double
    var rmsDBFS: Double
    var overruns: Int
    var recovered: Bool
    var recordedAt: Date
    var paragraphId: String?

    /// More frames than any recording holds (a year at 48 kHz is 1.5 × 10¹²); a bound that keeps
    /// every sum and every conversion to milliseconds far from overflowing.
    static let maximumFrames = 1 << 44

    init(_ chunk: Chunk, position: Int) {
        id = chunk.id.rawValue
        articleId = chunk.articleID.rawValue
        self.position = position
        frames = chunk.frames
        peakDBFS = chunk.peak.value
        rmsDBFS = chunk.rms.value
        overruns = chunk.overruns
        recovered = chunk.recovered
        recordedAt = chunk.recordedAt
        paragraphId = chunk.paragraphID?.rawValue
    }

    /// The row of `row`, read column by column without `Codable`: an edit reads every chunk of
    /// its article twice, and a listing every chunk. A value of another type throws
    /// `SQLEngineError.unexpectedValue` naming the column, as `CatalogRecord`'s reading does.
    init(decoding row: SQLRow) throws {
        id = try row.text("id")
        articleId = try row.text("articleId")
        position = try row.int("position")
        frames = try row.int("frames")
        peakDBFS = try row.real("peakDBFS")
        rmsDBFS = try row.real("rmsDBFS")
        overruns = try row.int("overruns")
        recovered = try row.boolean("recovered")
        let recorded = try row.text("recordedAt")
        guard let date = CatalogTime.date(recorded) else { throw SQLEngineError.unexpectedValue(column: "recordedAt", found: "\"\(recorded)\"") }
        recordedAt = date
        paragraphId = try row.optionalText("paragraphId")
    }

    func chunk(format: AudioFormat) throws(NarrationError) -> Chunk {
        // The id names the chunk's file: anything else (a "../" above all) must never reach a path.
        guard Identifier.isWellFormed(id), Identifier.isWellFormed(articleId), paragraphId.map(Identifier.isWellFormed) ?? true else {
            throw NarrationError(.catalogCorrupt, "The catalog holds a chunk whose id \"\(Catalog.quoted(id))\" narrate never makes. \(Catalog.damagedFix)")
        }
        guard (0...Self.maximumFrames).contains(frames), overruns >= 0 else {
            throw NarrationError(.catalogCorrupt, "The catalog's entry for chunk \(id) holds a length or overrun count no recording has. \(Catalog.damagedFix)")
        }
        // A recorded level lies between silence and full scale; anything else was not written by narrate.
        let levels = Decibels.silence.value...0.001
        guard levels.contains(peakDBFS), levels.contains(rmsDBFS) else {
            throw NarrationError(.catalogCorrupt, "The catalog's entry for chunk \(id) holds levels no recording has (peak \(Decibels(peakDBFS).formatted), RMS \(Decibels(rmsDBFS).formatted) dBFS). \(Catalog.damagedFix)")
        }
        return Chunk(
            id: ChunkID(id), articleID: ArticleID(articleId), frames: frames, format: format,
            peak: Decibels(peakDBFS), rms: Decibels(rmsDBFS), overruns: overruns, recovered: recovered,
            recordedAt: recordedAt, paragraphID: paragraphId.map(ParagraphID.init))
    }
}

/// A take being recorded: written before its partial file is created, removed when the take is
/// committed, so that recovery knows where an abandoned take was meant to go.
struct PendingTakeRow: CatalogRecord {
    static let table = "pendingTake"
    static let key = ["chunkId"]
    var chunkId: String
    var articleId: String
    var placement: String
    var targetChunkId: String?
    var startedAt: Date
    /// The paragraph the take reads, when the article has a text.
    var paragraphId: String?
}

struct SettingRow: CatalogRecord {
    static let table = "setting"
    static let key = ["key"]
    var key: String
    var value: String
}
