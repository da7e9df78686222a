public import struct Foundation.Date

/// Which paragraph a take reads and where it goes among the chunks: pure logic over the
/// article's paragraphs and its chunks in order, which the recorder turns into a take's target.
///
/// Chunks of one paragraph stay together, and paragraphs' chunks follow the text's order: a
/// paragraph read for the first time goes before the chunks of any later paragraph. Chunks that
/// belong to no paragraph (recorded before the text was attached, or whose paragraph left the
/// text) keep their places and do not move anything.
public struct ReadingPlan: Sendable {
    /// A chunk as the plan sees it: which paragraph it belongs to and when it was recorded.
    public struct ChunkBinding: Sendable, Equatable {
        public let id: ChunkID
        public let paragraph: ParagraphID?
        public let recordedAt: Date

        public init(id: ChunkID, paragraph: ParagraphID?, recordedAt: Date) {
            self.id = id
            self.paragraph = paragraph
            self.recordedAt = recordedAt
        }
    }

    /// What the volunteer asked to read.
    public enum Choice: Sendable, Equatable {
        /// The next paragraph not read yet (after the one read last).
        case next
        /// Paragraph `number` again: its chunks are replaced by the new take.
        case reread(Int)
        /// Another chunk for paragraph `number`, or for the paragraph read last when nil.
        case continuing(Int?)
    }

    /// Where the take goes, by chunk identity.
    public enum Position: Sendable, Equatable {
        case append
        case before(ChunkID)
        case after(ChunkID)
        /// In place of this chunk, the paragraph's first; the paragraph's other chunks go too.
        case replacingParagraphFrom(ChunkID)
    }

    /// The paragraph a take reads and where it goes.
    public struct Take: Sendable, Equatable {
        public let paragraph: Paragraph
        public let position: Position

        public init(paragraph: Paragraph, position: Position) {
            self.paragraph = paragraph
            self.position = position
        }
    }

    public let paragraphs: [Paragraph]
    public let chunks: [ChunkBinding]
    /// The paragraphs by id, for the chunks' bindings.
    private let byID: [ParagraphID: Paragraph]

    public init(paragraphs: [Paragraph], chunks: [ChunkBinding]) {
        self.paragraphs = paragraphs
        self.chunks = chunks
        byID = Dictionary(uniqueKeysWithValues: paragraphs.map { ($0.id, $0) })
    }

    /// The chunks of each paragraph, in the article's order.
    public func chunks(of paragraph: ParagraphID) -> [ChunkID] {
        chunks.filter { $0.paragraph == paragraph }.map(\.id)
    }

    /// The paragraph of the chunk recorded last, if it belongs to one still in the text.
    public var lastRead: Paragraph? {
        chunks.compactMap { chunk in chunk.paragraph.flatMap { byID[$0] }.map { (chunk.recordedAt, $0) } }
            .max { $0.0 < $1.0 }?.1
    }

    /// The paragraph `record` reads next: the first neither read nor skipped after the one read
    /// last, else the first neither read nor skipped at all; nil when there is none.
    public var next: Paragraph? {
        let unread = unreadParagraphs
        let after = lastRead?.number ?? 0
        return unread.first { $0.number > after } ?? unread.first
    }

    /// The paragraphs no take reads that are not skipped, in the text's order.
    public var unreadParagraphs: [Paragraph] {
        let read = Set(chunks.compactMap(\.paragraph))
        return paragraphs.filter { !read.contains($0.id) && !$0.isSkipped }
    }

    /// What sending the article now would leave out; nil when nothing (or it has no text).
    public var unread: UnreadParagraphs? {
        UnreadParagraphs(numbers: unreadParagraphs.map(\.number), total: paragraphs.count)
    }

    /// Throws the refusal to send the article while paragraphs are unread (see
    /// `UnreadParagraphs.refusal`); returns when every paragraph is read or skipped.
    public func requireFinished() throws(NarrationError) {
        if let unread { throw unread.refusal }
    }

    /// Throws unless `paragraph` may be read: a skipped one is unskipped first.
    private func requireReadable(_ paragraph: Paragraph, title: String) throws(NarrationError) {
        guard paragraph.isSkipped else { return }
        throw NarrationError(
            .usage, "Paragraph \(paragraph.number) of \"\(title)\" is skipped, so it is not read.", remedy: .unskipParagraph(paragraph.number))
    }

    /// The paragraph after `paragraph` in the text, for a glimpse of what comes next.
    public func paragraph(after paragraph: Paragraph) -> Paragraph? {
        paragraph.number < paragraphs.count ? paragraphs[paragraph.number] : nil
    }

    /// The paragraph numbered `number`.
    /// - Throws: a usage error naming how many paragraphs there are.
    public func paragraph(_ number: Int) throws(NarrationError) -> Paragraph {
        guard number >= 1, number <= paragraphs.count else {
            let range = paragraphs.count == 1 ? "the text has 1 paragraph" : "the text has \(paragraphs.count) paragraphs (1–\(paragraphs.count))"
            throw NarrationError(.usage, "There is no paragraph \(number): \(range).", remedy: .listParagraphs)
        }
        return paragraphs[number - 1]
    }

    /// The take `choice` asks for.
    /// - Throws: when the article has no text, when the paragraph does not exist, and when every
    ///   paragraph is read and none was named.
    public func take(_ choice: Choice, title: String) throws(NarrationError) -> Take {
        guard !paragraphs.isEmpty else {
            throw NarrationError(.usage, "\"\(title)\" has no text, so there is no paragraph to read.", remedy: .attachText)
        }
        switch choice {
        case .next:
            guard let next else {
                let skipped = paragraphs.filter(\.isSkipped).count
                let counts = skipped == 0 ? "\(paragraphs.count) of \(paragraphs.count)" : "\(paragraphs.count - skipped) read, \(skipped) skipped"
                throw NarrationError(
                    .usage, "Every paragraph of \"\(title)\" is read\(skipped == 0 ? "" : " or skipped") (\(counts)).", remedy: .rereadOrContinue)
            }
            return Take(paragraph: next, position: firstReading(next))
        case .reread(let number):
            let paragraph = try paragraph(number)
            try requireReadable(paragraph, title: title)
            guard let first = chunks(of: paragraph.id).first else { return Take(paragraph: paragraph, position: firstReading(paragraph)) }
            return Take(paragraph: paragraph, position: .replacingParagraphFrom(first))
        case .continuing(let number):
            let paragraph: Paragraph
            if let number {
                paragraph = try self.paragraph(number)
            } else if let last = lastRead {
                paragraph = last
            } else {
                throw NarrationError(.usage, "No paragraph of \"\(title)\" is read yet, so there is none to continue.", remedy: .recordChunk)
            }
            try requireReadable(paragraph, title: title)
            guard let last = chunks(of: paragraph.id).last else { return Take(paragraph: paragraph, position: firstReading(paragraph)) }
            return Take(paragraph: paragraph, position: .after(last))
        }
    }

    /// Where chunk `chunk` goes when it is bound to `paragraph` instead (the take check heard
    /// another paragraph in it): after that paragraph's chunks, else where the paragraph read for
    /// the first time would go, the chunk itself left out of the reckoning.
    /// - Throws: when the paragraph does not exist or is skipped.
    public func rebinding(_ chunk: ChunkID, to number: Int, title: String) throws(NarrationError) -> Take {
        let paragraph = try self.paragraph(number)
        try requireReadable(paragraph, title: title)
        let others = ReadingPlan(paragraphs: paragraphs, chunks: chunks.filter { $0.id != chunk })
        guard let last = others.chunks(of: paragraph.id).last else { return Take(paragraph: paragraph, position: others.firstReading(paragraph)) }
        return Take(paragraph: paragraph, position: .after(last))
    }

    /// Where a paragraph read for the first time goes: before the first chunk of a later paragraph.
    private func firstReading(_ paragraph: Paragraph) -> Position {
        let later = chunks.first { chunk in chunk.paragraph.flatMap { byID[$0] }.map { $0.number > paragraph.number } ?? false }
        return later.map { .before($0.id) } ?? .append
    }
}
