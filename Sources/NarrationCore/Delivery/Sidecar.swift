public import struct Foundation.Date

/// The JSON metadata record delivered beside each audio file.
public struct Sidecar: Codable, Sendable, Equatable {
    public struct ChunkEntry: Codable, Sendable, Equatable {
        public let index: Int
        /// Seconds from the start of the file.
        public let start: Double
        public let duration: Double

        public init(index: Int, start: Double, duration: Double) {
            self.index = index
            self.start = start
            self.duration = duration
        }
    }

    /// A paragraph of the article's text where it lies in the file.
    public struct ParagraphEntry: Codable, Sendable, Equatable {
        /// The paragraph's number in the text, from 1.
        public let number: Int
        /// "heading" or "paragraph".
        public let kind: String
        public let text: String
        /// Seconds from the start of the file.
        public let start: Double
        public let end: Double

        public init(number: Int, kind: String, text: String, start: Double, end: Double) {
            self.number = number
            self.kind = kind
            self.text = text
            self.start = start
            self.end = end
        }

        /// One entry per span of the plan that reads a paragraph.
        public static func entries(_ plan: ExportPlan) -> [ParagraphEntry] {
            plan.spans.compactMap { span in
                span.paragraph.map {
                    ParagraphEntry(
                        number: $0.number, kind: $0.kind.rawValue, text: $0.text, start: plan.format.seconds(span.startFrame),
                        end: plan.format.seconds(span.endFrame))
                }
            }
        }
    }

    /// A file delivered beside the audio and the sidecar (see `DeliveryItem`).
    public struct FileEntry: Codable, Sendable, Equatable {
        /// Its name, in the audio file's folder.
        public let name: String
        /// "transcript", "chapters", "epub" or "daisy".
        public let role: String
        /// Its Content-Type.
        public let type: String
        public let bytes: Int
        public let sha256: String

        public init(name: String, role: String, type: String, bytes: Int, sha256: String) {
            self.name = name
            self.role = role
            self.type = type
            self.bytes = bytes
            self.sha256 = sha256
        }
    }

    public let articleId: String
    public let title: String
    public let publication: String
    public let narrator: String
    /// "yyyy-MM-dd": the day recording began.
    public let date: String
    public let duration: Double
    public let file: String
    public let format: String
    public let profile: String
    public let bytes: Int
    public let sha256: String
    public let chunks: [ChunkEntry]
    /// Seconds of audio the volunteer recorded for the article (kept takes).
    public let recordingSeconds: Double
    public let queuedAt: Date
    /// The paragraphs read, in the file's order; absent for an article without a text.
    public var paragraphs: [ParagraphEntry]?
    /// The transcripts' file names beside the audio (WebVTT, then SubRip), when the article has a text.
    public var transcripts: [String]?
    /// The chapters the file holds: 0 for a format that holds none (WAV, Ogg); absent in
    /// sidecars written before it was recorded.
    public var chapters: Int?
    /// What the delivery carries (`DeliveryItem` names, "audio" first); absent in sidecars
    /// written before profiles could name more than the audio.
    public var carries: [String]?
    /// The files delivered beside the audio and this sidecar, each with its SHA-256.
    public var files: [FileEntry]?

    public init(
        articleId: String, title: String, publication: String, narrator: String, date: String, duration: Double,
        file: String, format: String, profile: String, bytes: Int, sha256: String, chunks: [ChunkEntry],
        recordingSeconds: Double, queuedAt: Date
    ) {
        self.articleId = articleId
        self.title = title
        self.publication = publication
        self.narrator = narrator
        self.date = date
        self.duration = duration
        self.file = file
        self.format = format
        self.profile = profile
        self.bytes = bytes
        self.sha256 = sha256
        self.chunks = chunks
        self.recordingSeconds = recordingSeconds
        self.queuedAt = queuedAt
    }

    /// Where a delivery goes, the same for a folder and for object storage, so that a retry
    /// overwrites rather than duplicates: `<publication>/<date>/<title>-<article id>.<ext>`.
    public var deliveryPath: String { Self.deliveryPath(publication: publication, date: date, file: file) }

    /// `<publication>/<date>/<file>`, each part made safe as a file name.
    public static func deliveryPath(publication: String, date: String, file: String) -> String {
        "\(publicationFolder(publication))/\(SafeFileName.make(date, limit: 40))/\(file)"
    }

    /// The folder below a destination that holds a publication's deliveries (and its feed).
    public static func publicationFolder(_ publication: String) -> String {
        SafeFileName.make(publication.isEmpty ? "unknown publication" : publication, limit: 80)
    }

    public static func fileName(title: String, articleID: String, format: ExportFormat) -> String {
        "\(SafeFileName.make(title, limit: 100))-\(articleID).\(format.fileExtension)"
    }
}
