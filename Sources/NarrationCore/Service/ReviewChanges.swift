/// What changed in an article since it was sent back, for the proof-listener to hear only that:
/// each take that replaced, punched, was inserted in or deleted from the list, with the paragraph
/// it reads and where it lies in the article's audio now.
///
/// The lists are compared by take: a chunk kept from the snapshot (same id, and the same file
/// checksum when both are known) is the same audio.
/// Between two kept chunks (or before the first, after the last), each new take is paired with
/// the first take that left from there reading the same paragraph: a pair is a take replaced
/// (or punched, when the new take is one of `punched`), a new take without one was inserted,
/// and a take that left without one was deleted. A kept take moved elsewhere is not a change.
public struct ReviewChanges: Sendable, Equatable {
    /// How one take changed.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// Recorded again in place of a take.
        case replaced
        /// A take's end recorded again from a time on (punch-and-roll).
        case punched
        /// A new take between others.
        case inserted
        /// A take gone from the list.
        case deleted
    }

    /// One take that changed.
    public struct Change: Sendable, Equatable {
        public let kind: Kind
        /// The paragraph the take reads (for a deleted one, read), from 1; nil for none.
        public let paragraph: Int?
        /// The take's number in the article now, from 1; nil for a deleted take.
        public let chunk: Int?
        /// Where it lies in the article's audio now, in seconds; a deleted take is the point
        /// where it was (start and end equal).
        public let start: Double
        public let end: Double

        public init(kind: Kind, paragraph: Int?, chunk: Int?, start: Double, end: Double) {
            self.kind = kind
            self.paragraph = paragraph
            self.chunk = chunk
            self.start = start
            self.end = end
        }
    }

    /// What changed in one paragraph: its changes, and the stretch of the audio that holds them.
    public struct ParagraphChanges: Sendable, Equatable {
        public let paragraph: Int?
        public let changes: [Change]
        public var start: Double { changes.map(\.start).min() ?? 0 }
        public var end: Double { changes.map(\.end).max() ?? 0 }
    }

    /// Every change, in the order of the audio now.
    public let changes: [Change]

    /// The changes by paragraph, in the order each paragraph is first heard.
    public var byParagraph: [ParagraphChanges] {
        var order: [Int?] = []
        var grouped: [Int?: [Change]] = [:]
        for change in changes {
            if grouped[change.paragraph] == nil { order.append(change.paragraph) }
            grouped[change.paragraph, default: []].append(change)
        }
        return order.map { ParagraphChanges(paragraph: $0, changes: grouped[$0] ?? []) }
    }

    /// What changed from `before` (the snapshot) to `after` (the chunks now); `punched` are
    /// the takes made by punch-and-roll, `paragraphNumbers` the number of each paragraph of the
    /// text now (a paragraph that left the text counts as none), at `sampleRate` frames a second.
    public init(
        before: [ReviewChunk], after: [ReviewChunk], punched: Set<ChunkID>, paragraphNumbers: [ParagraphID: Int], sampleRate: Int
    ) {
        let rate = Double(max(sampleRate, 1))
        // The takes kept: the same id, and the same file where both checksums are known.
        let afterByID = Dictionary(after.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let kept = Set(before.filter { old in afterByID[old.id].map(old.isSameAudio) ?? false }.map(\.id))
        func number(_ chunk: ReviewChunk) -> Int? { chunk.paragraph.flatMap { paragraphNumbers[$0] } }

        // The takes that left, by the kept take they followed (nil: the start).
        var leftAfter: [ChunkID?: [ReviewChunk]] = [:]
        var anchor: ChunkID?
        for chunk in before {
            if kept.contains(chunk.id) { anchor = chunk.id } else { leftAfter[anchor, default: []].append(chunk) }
        }

        var changes: [Change] = []
        var gapAnchor: ChunkID?
        var gapNew: [(chunk: ReviewChunk, number: Int, start: FrameCount)] = []
        var frame: FrameCount = 0
        func closeGap(at gapEnd: FrameCount) {
            var gone = leftAfter[gapAnchor] ?? []
            for new in gapNew {
                let pair = gone.firstIndex { $0.paragraph == new.chunk.paragraph }
                if let pair { gone.remove(at: pair) }
                let kind: Kind = punched.contains(new.chunk.id) ? .punched : pair != nil ? .replaced : .inserted
                changes.append(Change(
                    kind: kind, paragraph: number(new.chunk), chunk: new.number, start: Double(new.start) / rate,
                    end: Double(new.start + new.chunk.frames) / rate))
            }
            for old in gone {
                let point = Double(gapEnd) / rate
                changes.append(Change(kind: .deleted, paragraph: number(old), chunk: nil, start: point, end: point))
            }
        }
        for (position, chunk) in after.enumerated() {
            if kept.contains(chunk.id) {
                closeGap(at: frame)
                gapAnchor = chunk.id
                gapNew = []
            } else {
                gapNew.append((chunk, position + 1, frame))
            }
            frame += chunk.frames
        }
        closeGap(at: frame)
        self.changes = changes
    }
}
