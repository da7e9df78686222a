import Foundation
import NarrationCore
import Studio

/// What the page is drawn from: the studio's state as the page's JSON, plus what only the web
/// studio has (which microphone, the format the browser must send, the audio's version).
///
/// Pure: built from values, encoded to one JSON text. The page's `render(state)` draws it, as the
/// terminal's `StudioRenderer` draws `StudioState`.
struct PageState: Encodable, Equatable {
    struct Header: Encodable, Equatable {
        var id, title, publication, narrator, state: String
        var duration: Double
        var chunkCount: Int
        var exportReady: Bool
    }

    struct Activity: Encodable, Equatable {
        var kind: String
        var seconds: Double?
        var `where`: String?
        var stage: String?
        var fraction: Double?
        /// A pre-roll's chunk being fixed, the seconds played before the slip, and its sentence.
        var chunk: Int?
        var lead: Double?
        var text: String?
    }

    struct Meter: Encodable, Equatable {
        var average, peak, heldPeak: Double
    }

    struct Reading: Encodable, Equatable {
        var number, count: Int
        var kind, text: String
        var isRead: Bool
        var standing: String
        var next: String?
        /// Whether the volunteer chose not to read it.
        var isSkipped = false
        var flags: [Flag]
    }

    /// A take check's hint on a take of the paragraph shown.
    struct Flag: Encodable, Equatable {
        var chunk: Int
        var hint: String
    }

    /// One row of the article list.
    struct ArticleRow: Encodable, Equatable {
        var id, title, publication, state, progress: String
        var paragraphs, paragraphsRead, chunkCount: Int
        var duration: Double
        /// Seconds since 1970: the page shows it in the browser's time zone.
        var lastChange: Double
        var canOpen: Bool
    }

    struct Chunk: Encodable, Equatable {
        var number: Int
        /// The chunk's id: what the page names it by in the messages that act on it.
        var id: String?
        var duration: Double
        var peak: Double
        var levels: [Double]
        var recovered, missing: Bool
        var paragraph: Int?
        var paragraphText: String?
        var hints: [String]
        /// The paragraph the take check says the take sounds like, when it is another one.
        var suggestedParagraph: Int?
        /// The restarts the take check proposes to cut from the take, not yet made or left.
        var cuts: [Cut] = []
    }

    /// A restart proposed to cut from a take (`StudioState.Cut`): the page plays its
    /// surroundings from `GET /api/cuts/ID/CUT/audio` and answers with a `cut` message.
    struct Cut: Encodable, Equatable {
        /// The cut's number in its take's check (from 0): what the route and the message name.
        var cut: Int
        /// "at 12.4 s: “the council met on” read twice: cut 12.40–14.05 s"
        var text: String
        /// Seconds from the start of the take: the first cut and the first kept after it.
        var start, end: Double
    }

    struct Panel: Encodable, Equatable {
        var kind: String
        var chunk: Int?
        var heading: String?
        var lines: [String]?
        var remedy: String?
        var publication, narrator, problem: String?
        var articles: [ArticleRow]?
        var selection: Int?
        var openArticle: String?
        /// For "confirmSend": whether it sends now, the question, and what is not read
        /// ("Paragraphs 2–10 of 10 are not read: …") with their numbers.
        var submitting: Bool?
        var question: String?
        var unread: String?
        var unreadNumbers: [Int]?
    }

    struct Notice: Encodable, Equatable {
        var text: String
        var isProblem: Bool
    }

    struct Format: Encodable, Equatable {
        var sampleRate, channels: Int
    }

    /// A take a page uploads that is not a chunk yet (`StudioState.Upload`).
    struct Upload: Encodable, Equatable {
        var take: String
        var received, durable: Int
        var seconds: Double
        var live: Bool
    }

    var header: Header?
    var activity: Activity
    var meter: Meter?
    var peak: Double?
    var warning: String?
    var reading: Reading?
    var chunks: [Chunk]
    var uploads: [Upload]
    var selection: Int
    var panel: Panel
    var notice: Notice?
    var microphone: String
    var deviceName: String
    var format: Format
    var audioVersion: String
    var canListArticles: Bool

    /// - Parameters:
    ///   - chunkIDs: the ids of `state.chunks`, in their order (`Studio.chunkIDs`).
    ///   - canSend: whether a destination is set, which changes what the outbox's advice says.
    init(
        _ state: StudioState, article: ArticleID?, chunkIDs: [ChunkID] = [], microphone: Studio.Microphone, deviceName: String, format: AudioFormat,
        audioVersion: String, canSend: Bool
    ) {
        header = state.header.map {
            Header(
                id: article?.rawValue ?? "", title: $0.title, publication: $0.publication, narrator: $0.narrator, state: $0.state.rawValue,
                duration: Self.rounded($0.duration), chunkCount: $0.chunkCount, exportReady: $0.exportReady)
        }
        switch state.activity {
        case .ready, .playing, .listening:  // the page plays in the browser; the server's player is not used
            activity = Activity(kind: "ready")
        case .preRoll(let preRoll):
            activity = Activity(
                kind: "preRoll", seconds: Self.rounded(preRoll.at), chunk: preRoll.chunk.number, lead: Self.rounded(preRoll.lead),
                text: preRoll.sentence)
        case .recording(let seconds, let placement):
            activity = Activity(kind: "recording", seconds: Self.rounded(seconds), where: Self.words(placement))
        case .working(let stage, let fraction):
            activity = Activity(kind: "working", stage: stage, fraction: Self.rounded(fraction))
        }
        meter = state.meter.map { Meter(average: Self.rounded($0.averageLevel), peak: Self.rounded($0.peakLevel), heldPeak: Self.rounded($0.heldPeakLevel)) }
        peak = state.peak.map { Self.rounded($0.value) }
        warning = state.warning
        reading = state.reading.map {
            Reading(
                number: $0.number, count: $0.count, kind: Self.words($0.kind), text: $0.text, isRead: $0.isRead,
                standing: Self.words($0.standing), next: $0.next, isSkipped: $0.isSkipped, flags: $0.flags.map { Flag(chunk: $0.chunk.number, hint: $0.hint) })
        }
        chunks = state.chunks.enumerated().map { position, row in
            Chunk(
                number: row.index.number, id: chunkIDs.indices.contains(position) ? chunkIDs[position].rawValue : nil,
                duration: Self.exact(row.duration), peak: Self.rounded(row.peak.value), levels: row.levels.map { Self.rounded(max(-90, $0.value)) },
                recovered: row.recovered, missing: row.missing, paragraph: row.paragraph, paragraphText: row.paragraphText, hints: row.hints,
                suggestedParagraph: row.suggestedParagraph,
                cuts: state.cuts.filter { $0.chunk == row.index }.map { Cut(cut: $0.number, text: $0.sentence, start: Self.exact($0.start), end: Self.exact($0.end)) })
        }
        uploads = state.uploads.map {
            Upload(take: $0.key.rawValue, received: $0.receivedFrames, durable: $0.durableFrames, seconds: Self.rounded($0.seconds), live: $0.isLive)
        }
        selection = state.selection
        switch state.panel {
        case .chunks, .cuts: panel = Panel(kind: "chunks")  // the page lists the cuts under their chunks
        case .help: panel = Panel(kind: "help")
        case .confirmDelete(let index): panel = Panel(kind: "confirmDelete", chunk: index.number)
        case .result(let heading, let lines, let remedy):
            panel = Panel(kind: "result", heading: heading, lines: lines, remedy: remedy.map { WebRemedy.sentence($0, canSend: canSend) })
        case .newArticle(let form):
            panel = Panel(kind: "newArticle", publication: form.publication, narrator: form.narrator, problem: form.problem)
        case .articles(let list):
            panel = Panel(
                kind: "articles",
                articles: list.rows.map {
                    ArticleRow(
                        id: $0.id.rawValue, title: $0.title, publication: $0.publication, state: $0.state.rawValue, progress: $0.progress,
                        paragraphs: $0.paragraphs, paragraphsRead: $0.paragraphsRead, chunkCount: $0.chunkCount, duration: Self.rounded($0.seconds),
                        lastChange: $0.lastChange.timeIntervalSince1970.rounded(), canOpen: $0.canOpen)
                },
                selection: list.selection, openArticle: list.openArticle?.rawValue)
        case .confirmSend(let question):
            panel = Panel(
                kind: "confirmSend", submitting: question.submitting, question: question.question, unread: question.warning,
                unreadNumbers: question.unread?.numbers)
        }
        notice = state.notice.map { notice in
            Notice(text: notice.remedy.map { "\(notice.text) \(WebRemedy.sentence($0, canSend: canSend))" } ?? notice.text, isProblem: notice.isProblem)
        }
        self.microphone = microphone.rawValue
        self.deviceName = deviceName
        self.format = Format(sampleRate: format.sampleRate, channels: format.channels)
        self.audioVersion = audioVersion
        canListArticles = state.canListArticles
    }

    /// The state as the `state` message the page reads.
    func message() -> String {
        Self.encode(["type": AnyEncodable("state"), "state": AnyEncodable(self)])
    }

    static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "{}" }  // only finite numbers and strings are encoded
        return String(decoding: data, as: UTF8.self)
    }

    /// Two decimals are all a display needs, and keep the 20-a-second messages small.
    private static func rounded(_ value: Double) -> Double {
        guard value.isFinite else { return value < 0 ? -90 : 0 }
        return (value * 100).rounded() / 100
    }

    /// A chunk's length to a tenth of a millisecond: the page adds them up to find which chunk a
    /// playing position is in.
    private static func exact(_ seconds: Double) -> Double {
        (seconds * 10_000).rounded() / 10_000
    }

    private static func words(_ placement: ChunkPlacement) -> String {
        switch placement {
        case .append: "a new chunk at the end"
        case .insert(let index): "before chunk \(index)"
        case .replace(let index): "over chunk \(index)"
        }
    }

    private static func words(_ kind: ScriptParagraph.Kind) -> String { kind.rawValue }

    private static func words(_ standing: StudioState.Reading.Standing) -> String {
        switch standing {
        case .next: "next"
        case .chosen: "chosen"
        case .reading: "reading"
        case .allRead: "allRead"
        case .fixing: "fixing"
        }
    }
}

/// Any encodable value, for messages made of a type and a payload.
struct AnyEncodable: Encodable {
    private let encodeValue: (any Encoder) throws -> Void

    init(_ value: some Encodable) {
        encodeValue = value.encode(to:)
    }

    func encode(to encoder: any Encoder) throws {
        try encodeValue(encoder)
    }
}

extension PageState {
    /// A failure as one sentence for the page: what happened and, in the page's words, what to do.
    static func sentence(_ error: NarrationError, canSend: Bool) -> String {
        error.remedy.map { "\(error.message) \(WebRemedy.sentence($0, canSend: canSend))" } ?? error.message
    }
}
