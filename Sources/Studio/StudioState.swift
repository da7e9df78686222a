public import NarrationCore

/// The question before queue or submit: what will happen, and what is not read.
public struct SendQuestion: Sendable, Equatable {
    /// Whether it sends now (submit) rather than queues for sending later.
    public var submitting: Bool
    public var title: String
    /// The paragraphs that would go out unread; nil when every paragraph is read or skipped.
    public var unread: UnreadParagraphs?

    public init(submitting: Bool, title: String, unread: UnreadParagraphs?) {
        self.submitting = submitting
        self.title = title
        self.unread = unread
    }

    /// "Send "Budget" now?", "Queue "Budget" for sending?".
    public var question: String { submitting ? "Send \"\(title)\" now?" : "Queue \"\(title)\" for sending?" }

    /// "Paragraphs 2–10 of 10 are not read: it goes out without them." when some are.
    public var warning: String? {
        guard let unread else { return nil }
        let one = unread.numbers.count == 1
        return "\(unread.description) \(one ? "is" : "are") not read: it goes out without \(one ? "it" : "them")."
    }
}

/// Everything the studio screen shows, as one value: the session, `Studio`, builds it, a front
/// end draws it (the terminal's pure `StudioRenderer`), and `action(for:)` says what a key means
/// in it.
public struct StudioState: Sendable, Equatable {
    /// The article being narrated.
    public struct Header: Sendable, Equatable {
        public var title: String
        public var publication: String
        public var narrator: String
        public var state: ArticleState
        /// Seconds of audio in all chunks.
        public var duration: Double
        public var chunkCount: Int
        /// Whether the export is made ready for the chunks as they are: queue will be quick.
        public var exportReady = false

        public init(title: String, publication: String, narrator: String, state: ArticleState, duration: Double, chunkCount: Int) {
            self.title = title
            self.publication = publication
            self.narrator = narrator
            self.state = state
            self.duration = duration
            self.chunkCount = chunkCount
        }
    }

    /// One line of the chunk list.
    public struct ChunkRow: Sendable, Equatable {
        public var index: ChunkIndex
        public var duration: Double
        public var peak: Decibels
        /// RMS levels of equal stretches of the chunk, for its sparkline; empty until measured.
        public var levels: [Decibels]
        public var recovered: Bool
        /// The chunk's file is missing or unreadable.
        public var missing: Bool
        /// The number of the paragraph of the article's text the chunk reads, and its text.
        public var paragraph: Int?
        public var paragraphText: String?
        /// The paragraph the take check says the take sounds like, when it is another one: one
        /// action (`StudioAction.moveTakeToSuggested`) puts the take there.
        public var suggestedParagraph: Int?

        public init(index: ChunkIndex, duration: Double, peak: Decibels, levels: [Decibels] = [], recovered: Bool = false, missing: Bool = false) {
            self.index = index
            self.duration = duration
            self.peak = peak
            self.levels = levels
            self.recovered = recovered
            self.missing = missing
        }
    }

    /// What the studio is doing.
    public enum Activity: Sendable, Equatable {
        case ready
        /// Seconds captured so far, and where the take goes.
        case recording(seconds: Double, placement: ChunkPlacement)
        case playing(chunk: ChunkIndex, of: Int, position: Double, total: Double, paused: Bool)
        /// Exporting or sending: `stage` names it ("Exporting", "Sending"), `fraction` 0…1.
        case working(stage: String, fraction: Double)
    }

    /// What fills the middle of the screen.
    public enum Panel: Sendable, Equatable {
        case chunks
        case help
        /// "Delete chunk N?" waiting for y or n.
        case confirmDelete(ChunkIndex)
        /// "Send it now?" before queue or submit, naming what is unread; only y sends.
        case confirmSend(SendQuestion)
        /// What queue or submit did; any key goes on to the next article.
        case result(heading: String, lines: [String], remedy: Remedy?)
        case newArticle(NewArticleForm)
    }

    /// The reading pane over the chunk list, in an article with a text: the paragraph to read and
    /// the first words of the one after it.
    public struct Reading: Sendable, Equatable {
        /// Why this paragraph is the one shown.
        public enum Standing: Sendable, Equatable {
            /// The paragraph the next take reads: the first not read after the one read last.
            case next
            /// The volunteer moved to it: r and a read it (again, when it is read).
            case chosen
            /// The take being recorded reads it.
            case reading
            /// Every paragraph is read; this is the one read last.
            case allRead
        }

        /// 1 for the first paragraph of the text.
        public var number: Int
        /// How many paragraphs the text has.
        public var count: Int
        public var kind: ScriptParagraph.Kind
        public var text: String
        /// Whether a chunk reads it already (before the take being recorded, while recording).
        public var isRead: Bool
        public var standing: Standing
        /// The text of the paragraph after it; nil for the last.
        public var next: String?
        /// Whether the volunteer chose not to read it (k skips and unskips it).
        public var isSkipped = false

        public init(number: Int, count: Int, kind: ScriptParagraph.Kind, text: String, isRead: Bool, standing: Standing, next: String?) {
            self.number = number
            self.count = count
            self.kind = kind
            self.text = text
            self.isRead = isRead
            self.standing = standing
            self.next = next
        }
    }

    /// A sentence under the list: what just happened, or what went wrong.
    public struct Notice: Sendable, Equatable {
        public var text: String
        public var isProblem: Bool
        /// What the volunteer can do about it, said by the front end in its own words.
        public var remedy: Remedy?

        public init(_ text: String, isProblem: Bool = false, remedy: Remedy? = nil) {
            self.text = text
            self.isProblem = isProblem
            self.remedy = remedy
        }

        /// A failure's message and remedy.
        public init(_ error: NarrationError) {
            self.init(error.message, isProblem: true, remedy: error.remedy)
        }
    }

    public var header: Header?
    public var activity: Activity = .ready
    /// The live level meter, while recording or playing.
    public var meter: MeterDisplay?
    /// The latest peak level, shown beside the meter.
    public var peak: Decibels?
    /// A warning about the input: clipping, or a microphone that seems to be off.
    public var warning: String?
    /// The reading pane; nil for an article without a text, whose screen has none.
    public var reading: Reading?
    public var chunks: [ChunkRow] = []
    /// The selected chunk's position in `chunks` (0-based).
    public var selection = 0
    public var panel: Panel = .chunks
    public var notice: Notice?
    /// What sending the article now would leave out: paragraphs neither read nor skipped; nil
    /// when nothing is, or the article has no text.
    public var unread: UnreadParagraphs?
    /// Whether q and s always ask before they send (the terminal, where q reads as "quit"); a
    /// front end with labelled buttons asks only when paragraphs are unread.
    public var confirmsEverySend = true

    public init(header: Header? = nil, chunks: [ChunkRow] = [], panel: Panel = .chunks) {
        self.header = header
        self.chunks = chunks
        self.panel = panel
    }

    /// The selected chunk's index, if there are chunks.
    public var selectedIndex: ChunkIndex? {
        chunks.indices.contains(selection) ? chunks[selection].index : nil
    }

    public var isRecording: Bool {
        if case .recording = activity { return true }
        return false
    }

    public var isPlaying: Bool {
        if case .playing = activity { return true }
        return false
    }

    public var isWorking: Bool {
        if case .working = activity { return true }
        return false
    }
}
