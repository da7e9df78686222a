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

    /// A take a page uploads from the browser: the one recording now, or one set aside until
    /// its page comes back with the rest. The chunk list shows it as uploading until it is a chunk.
    public struct Upload: Sendable, Equatable {
        public var key: TakeUploadKey
        /// The frames of it the server has (taken from the page), and of those the frames on
        /// disk for certain: the page forgets its pieces up to `durableFrames`.
        public var receivedFrames: FrameCount
        public var durableFrames: FrameCount
        /// Seconds of its audio the server has.
        public var seconds: Double
        /// Whether it is the take recording now (else it waits for its page).
        public var isLive: Bool

        public init(key: TakeUploadKey, receivedFrames: FrameCount, durableFrames: FrameCount, seconds: Double, isLive: Bool) {
            self.key = key
            self.receivedFrames = receivedFrames
            self.durableFrames = durableFrames
            self.seconds = seconds
            self.isLive = isLive
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
        /// The take check's hints on this take not dismissed yet ("at 4.2 s: not heard: “…”"):
        /// the row stays flagged until the volunteer dismisses them.
        public var hints: [String] = []
        /// The paragraph the take check says the take sounds like, when it is another one: one
        /// action (`StudioAction.moveTakeToSuggested`) puts the take there.
        public var suggestedParagraph: Int?
        /// How many restarts the take check proposes to cut from this take, not yet accepted or
        /// dismissed (`StudioState.cuts` lists them).
        public var cuts = 0

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
        /// `position` and `total` are the article's; `inChunk` is how far into `chunk`.
        case playing(chunk: ChunkIndex, of: Int, position: Double, total: Double, paused: Bool, inChunk: Double = 0)
        /// Punch-and-roll's pre-roll: the seconds before the slip play, then the take over the
        /// chunk starts by itself. Nothing else starts a take meanwhile; Esc cancels the fix.
        case preRoll(PreRoll)
        /// Exporting or sending: `stage` names it ("Exporting", "Sending"), `fraction` 0…1.
        case working(stage: String, fraction: Double)
        /// A proposed cut's surroundings play through the studio's speaker, as read or as they
        /// would be cut (`asCut`).
        case listening(Cut, asCut: Bool)
    }

    /// The pre-roll of a punch-and-roll take: which chunk is fixed from where.
    public struct PreRoll: Sendable, Equatable {
        /// The chunk being fixed.
        public var chunk: ChunkIndex
        /// Where in the chunk the slip is, in seconds from its start.
        public var at: Double
        /// How many seconds before it play first.
        public var lead: Double
        /// The words to read on from, when the take check heard where they are; nil otherwise.
        public var words: String?

        public init(chunk: ChunkIndex, at: Double, lead: Double, words: String? = nil) {
            self.chunk = chunk
            self.at = at
            self.lead = lead
            self.words = words
        }

        /// "Playing the 3 s before the slip, then read on from “the mayor said”." The sentence
        /// both studios say while it plays.
        public var sentence: String {
            let tenths = self.lead.isFinite ? (min(max(0, self.lead), 60) * 10).rounded() / 10 : 0
            let lead = tenths == tenths.rounded() ? "\(Int(tenths))" : "\(tenths)"
            let from = words.map { "from “\($0)”" } ?? "from \(Timecode.tenths(at)) into chunk \(chunk)"
            return "Playing the \(lead) s before the slip in chunk \(chunk), then read on \(from)."
        }
    }

    /// A take check's hint on a take of the paragraph the reading pane shows.
    public struct Flag: Sendable, Equatable {
        public var chunk: ChunkIndex
        /// The hint's words and time: "at 4.2 s: not heard: “the council voted”".
        public var hint: String

        public init(chunk: ChunkIndex, hint: String) {
            self.chunk = chunk
            self.hint = hint
        }
    }

    /// A restart the take check proposes to cut from a take: where the reader went back and read
    /// words again. Accepting it takes the first attempt out (one edit, which undo takes back);
    /// dismissing it leaves the take as it is.
    public struct Cut: Sendable, Equatable {
        /// The take's id: accepting or dismissing names it, so that a cut of a take deleted or
        /// replaced meanwhile does nothing.
        public var take: ChunkID
        /// Where the take is in the article now.
        public var chunk: ChunkIndex
        /// The paragraph the take reads (1 is the first), if it reads one.
        public var paragraph: Int?
        /// The cut's number in the take's check (from 0): the same cut for as long as it is open.
        public var number: Int
        /// What was heard and what goes: "at 12.4 s: “the council met on” read twice: cut 12.40–14.05 s".
        public var sentence: String
        /// Seconds from the start of the take: the first cut and the first kept after it.
        public var start: Double
        public var end: Double

        public init(take: ChunkID, chunk: ChunkIndex, paragraph: Int?, number: Int, sentence: String, start: Double, end: Double) {
            self.take = take
            self.chunk = chunk
            self.paragraph = paragraph
            self.number = number
            self.sentence = sentence
            self.start = start
            self.end = end
        }

        /// The seconds accepting it takes out of the take.
        public var seconds: Double { max(0, end - start) }
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
        /// The articles, to open one (Enter), start a new one (n) or go back (Esc).
        case articles(ArticleList)
        /// The restarts the take check proposes to cut (`StudioState.cuts`), the one at
        /// `selection` (0-based) chosen: hear it as read or as cut, cut it, leave it, or cut all.
        case cuts(selection: Int)
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
            /// A punch-and-roll fixes a slip in a take of it (its pre-roll plays).
            case fixing
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
        /// The hints on its takes not dismissed yet, by chunk.
        public var flags: [Flag] = []
        /// Whether the volunteer chose not to read it (k skips and unskips it).
        public var isSkipped = false
        /// The restarts proposed to cut from its takes, not yet accepted or dismissed.
        public var cuts: [Cut] = []

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
    /// Takes uploaded from a page that are not chunks yet, oldest first.
    public var uploads: [Upload] = []
    /// The selected chunk's position in `chunks` (0-based).
    public var selection = 0
    public var panel: Panel = .chunks
    public var notice: Notice?
    /// Whether the catalog has articles to list: Esc in the new-article form shows them.
    public var canListArticles = false
    /// What sending the article now would leave out: paragraphs neither read nor skipped; nil
    /// when nothing is, or the article has no text.
    public var unread: UnreadParagraphs?
    /// Whether q and s always ask before they send (the terminal, where q reads as "quit"); a
    /// front end with labelled buttons asks only when paragraphs are unread.
    public var confirmsEverySend = true
    /// The restarts the take check proposes to cut from the article's takes, not yet accepted or
    /// dismissed, in the article's order (a take's in the order of the take).
    public var cuts: [Cut] = []

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

    /// Whether a punch-and-roll's pre-roll plays: no other take can start.
    public var isPreRolling: Bool {
        if case .preRoll = activity { return true }
        return false
    }

    public var isWorking: Bool {
        if case .working = activity { return true }
        return false
    }

    /// Whether a proposed cut's surroundings play.
    public var isListening: Bool {
        if case .listening = activity { return true }
        return false
    }

    /// The cut the cuts panel has chosen, while it shows.
    public var chosenCut: Cut? {
        guard case .cuts(let selection) = panel, cuts.indices.contains(selection) else { return nil }
        return cuts[selection]
    }
}
