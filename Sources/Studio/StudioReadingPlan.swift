import Narration
import NarrationCore

/// The reading plan in the studio: the open article's paragraphs and which chunks read them, the
/// paragraph the volunteer moved the reading pane to, where the next take goes, and what the take
/// check said about each take (its open hints, the sentences it heard).
struct StudioReadingPlan {
    private(set) var plan = ReadingPlan(paragraphs: [], chunks: [])
    /// The paragraph the volunteer moved the reading pane to (p, n); nil while it follows the text.
    private(set) var chosen: Int?
    /// The take check's hints not dismissed yet, by chunk, as of the last load.
    private var hints: [ChunkID: [String]] = [:]
    /// The reports of the article's checked takes, for the words a punch-and-roll reads on from.
    private var reports: [ChunkID: TakeCheckReport] = [:]
    /// The paragraph each chunk's take check heard instead of its own (1-based), by chunk.
    private var heard: [ChunkID: Int] = [:]
    /// The restarts proposed to cut, neither accepted nor dismissed, by chunk, in the take's order.
    private var cuts: [ChunkID: [(number: Int, cut: ProposedCut)]] = [:]

    var hasText: Bool { !plan.paragraphs.isEmpty }
    var unread: UnreadParagraphs? { plan.unread }

    /// Reads the article's plan and take checks again.
    mutating func load(_ article: Article, library: NarrationLibrary) throws(NarrationError) {
        plan = try library.records(of: article).readingPlan()
        let checks = plan.paragraphs.isEmpty ? [:] : try library.records(of: article).takeChecks()
        hints = checks.compactMapValues { $0.openHints.isEmpty ? nil : $0.openHints.map(\.description) }
        reports = checks.mapValues(\.report)
        heard = checks.compactMapValues { check in
            check.openHints.first { $0.kind == .wrongParagraph && $0.paragraph != nil }?.paragraph.map { $0 + 1 }
        }
        cuts = checks.compactMapValues { $0.openCuts.isEmpty ? nil : $0.openCuts }
    }

    /// No article is open.
    mutating func clear() {
        plan = ReadingPlan(paragraphs: [], chunks: [])
        chosen = nil
        hints = [:]
        reports = [:]
        heard = [:]
        cuts = [:]
    }

    /// The pane follows the text again (the next take reads on).
    mutating func followText() { chosen = nil }

    /// The open hints of the chunk `id`'s take.
    func hints(of id: ChunkID) -> [String] { hints[id] ?? [] }

    /// The restarts proposed to cut from the take of `entry`, not yet accepted or dismissed.
    func cuts(of entry: NarrationLibrary.ChunkEntry) -> [StudioState.Cut] {
        let paragraph = paragraph(reading: entry)?.number
        return (cuts[entry.chunk.id] ?? []).map { open in
            StudioState.Cut(
                take: entry.chunk.id, chunk: entry.index, paragraph: paragraph, number: open.number, sentence: open.cut.description,
                start: open.cut.start, end: open.cut.end)
        }
    }

    /// Every restart proposed to cut from the article's takes, in the article's order.
    func cuts(in chunks: StudioChunks) -> [StudioState.Cut] {
        chunks.entries.flatMap(cuts(of:))
    }

    /// The paragraph the take check heard in chunk `id` instead of `reading` (the one it reads), if any.
    func suggestedParagraph(of id: ChunkID, reading: Int?) -> Int? {
        guard let number = heard[id], number != reading else { return nil }
        return number
    }

    /// The paragraph `entry` reads, if the article has a text and the chunk one.
    func paragraph(reading entry: NarrationLibrary.ChunkEntry) -> Paragraph? {
        entry.chunk.paragraphID.flatMap { id in plan.paragraphs.first { $0.id == id } }
    }

    /// What the reading pane shows: the paragraph being read while recording (`take`), else the
    /// one being fixed during a pre-roll (`fixing`), else the one the volunteer moved to, else the
    /// one the next take reads, else (every paragraph read) the one read last.
    mutating func reading(fixing: Paragraph?, take: Recording?, chunks: StudioChunks) -> StudioState.Reading? {
        guard !plan.paragraphs.isEmpty else {
            chosen = nil
            return nil
        }
        if let number = chosen, !plan.paragraphs.indices.contains(number - 1) { chosen = nil }  // the text changed
        let read = Set(plan.chunks.compactMap(\.paragraph))
        let shown: Paragraph
        let standing: StudioState.Reading.Standing
        var next: Paragraph?
        if let fixing {
            (shown, standing) = (fixing, .fixing)
        } else if let take, let paragraph = take.paragraph {
            (shown, standing, next) = (paragraph, .reading, take.upNext)
        } else if let number = chosen {
            (shown, standing) = (plan.paragraphs[number - 1], .chosen)
        } else if let paragraph = plan.next {
            (shown, standing) = (paragraph, .next)
        } else {
            (shown, standing) = (plan.lastRead ?? plan.paragraphs[plan.paragraphs.count - 1], .allRead)
        }
        if standing != .reading { next = plan.paragraph(after: shown) }
        var reading = StudioState.Reading(
            number: shown.number, count: plan.paragraphs.count, kind: shown.kind, text: shown.text, isRead: read.contains(shown.id),
            standing: standing, next: next?.text)
        reading.isSkipped = shown.isSkipped
        let takes = chunks.entries.filter { $0.chunk.paragraphID == shown.id }
        reading.flags = takes.flatMap { entry in
            hints(of: entry.chunk.id).map { StudioState.Flag(chunk: entry.index, hint: $0) }
        }
        reading.cuts = takes.flatMap(cuts(of:))
        return reading
    }

    /// Moves the pane by `delta` paragraphs from `reading`; moving onto the paragraph the next
    /// take reads anyway goes back to following the text.
    /// - Returns: what to say when it cannot move (at the first or last paragraph).
    mutating func move(from reading: StudioState.Reading, by delta: Int) -> StudioState.Notice? {
        let number = min(max(1, reading.number + delta), reading.count)
        guard number != reading.number else {
            return .init(delta < 0 ? "This is the first paragraph of the text." : "This is the last paragraph of the text.")
        }
        chosen = number == plan.next?.number ? nil : number
        return nil
    }

    /// Where a new take reading `choice` goes among the chunks, as the status line says it: in an
    /// article with a text a paragraph read for the first time may go before later paragraphs'
    /// chunks, and one read again replaces its chunks.
    func whereTakeGoes(_ choice: ReadingPlan.Choice, title: String, chunks: StudioChunks) -> ChunkPlacement {
        guard !plan.paragraphs.isEmpty, let take = try? plan.take(choice, title: title) else { return .append }
        switch take.position {
        case .append:
            return .append
        case .before(let id):
            return chunks.index(of: id).map { .insert(before: $0) } ?? .append
        case .after(let id):
            guard let after = chunks.index(of: id), after.position + 1 < chunks.count else { return .append }
            return .insert(before: ChunkIndex(position: after.position + 1))
        case .replacingParagraphFrom(let id):
            return chunks.index(of: id).map { .replace($0) } ?? .append
        }
    }

    /// The paragraph chunk `index` reads, if the article has a text and the chunk one.
    func paragraph(of index: ChunkIndex, chunks: StudioChunks) -> Paragraph? {
        chunks.entry(at: index.position).flatMap(paragraph(reading:))
    }

    /// The words a punch-and-roll at `seconds` into chunk `index` reads on from: the sentence
    /// the take check heard there, from about the word at that point; nil without a check.
    func wordsToReadOn(_ index: ChunkIndex, at seconds: Double, chunks: StudioChunks) -> String? {
        guard let entry = chunks.entry(at: index.position), let report = reports[entry.chunk.id], let paragraph = paragraph(reading: entry)
        else { return nil }
        return Self.words(at: seconds, cues: report.sentenceCues, sentences: paragraph.content.sentences.map(\.text))
    }

    /// Up to six words of the sentence heard at `seconds`, from the word its cue places there
    /// (the sentence's words spread evenly over the cue); the next sentence's start between two.
    static func words(at seconds: Double, cues: [SentenceCue], sentences: [String]) -> String? {
        guard let cue = cues.first(where: { seconds < $0.end }), sentences.indices.contains(cue.sentence) else { return nil }
        let words = sentences[cue.sentence].split(separator: " ")
        guard !words.isEmpty else { return nil }
        let share = cue.end > cue.start ? min(max(0, (seconds - cue.start) / (cue.end - cue.start)), 1) : 0
        let first = min(words.count - 1, Int((share * Double(words.count)).rounded(.down)))
        let taken = words[first...].prefix(6)
        return taken.joined(separator: " ") + (first + taken.count < words.count ? "…" : "")
    }

    /// What the take check found, when it found something: the chunk, the first hint, and what
    /// the volunteer can do, then the restarts it proposes to cut; nil when no take needs a listen.
    func notice(for checks: [TakeCheck], chunks: StudioChunks) -> StudioState.Notice? {
        let restarts = checks.reduce(0) { $0 + $1.report.cuts.count }
        let places = restarts == 1 ? "a place where words were read again: press t to hear it and cut it" : "\(restarts) places where words were read again: press t to hear them and cut them"
        guard let flagged = checks.first(where: { !$0.report.hints.isEmpty }), let hint = flagged.report.hints.first else {
            return restarts == 0 ? nil : .init("The take check found \(places).")
        }
        let chunk = chunks.entries.first { $0.chunk.id == flagged.chunk }
        let paragraph = chunk.flatMap(paragraph(reading:))
        let which = [chunk.map { "Chunk \($0.index)" }, paragraph.map { "paragraph \($0.number)" }].compactMap { $0 }.joined(separator: ", ")
        let move = hint.kind == .wrongParagraph ? hint.paragraph.map { " Or select it and press m to put it on paragraph \($0 + 1)." } ?? "" : ""
        let cuts = restarts == 0 ? "" : " It also found \(places)."
        return .init(
            "\(which.isEmpty ? "A take" : which) may need a listen: \(hint.description). It stays marked ⚑ until you dismiss it (d); to read it again, move to it with p or n and press a.\(move)\(cuts)")
    }
}
