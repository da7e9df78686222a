import Foundation
import SQLEngines
public import NarrationCore

/// What skipping or unskipping paragraphs did.
public struct SkipChange: Sendable, Equatable {
    /// Whether the paragraphs were skipped (true) or unskipped.
    public let skipping: Bool
    /// The paragraphs whose state changed, ascending.
    public let changed: [Int]
    /// The paragraphs named that were in that state already, ascending.
    public let unchanged: [Int]
}

/// What putting a chunk on another paragraph did.
public struct RebindResult: Sendable, Equatable {
    /// The chunk's index before and after: it goes among its new paragraph's chunks.
    public let from: ChunkIndex
    public let to: ChunkIndex
    /// The paragraph it read before (nil: none) and the one it reads now.
    public let oldParagraph: Int?
    public let paragraph: Int
    public let withdrawn: WithdrawnExport?
}

/// Edits of how the article's text is read that record no take: skipping paragraphs (share bars,
/// advertisements, bylines) and putting a take on the paragraph it really reads. Each is one
/// transaction that records itself in the history, so that undo reverses it.
extension Catalog {
    /// The article's paragraphs and chunks, read inside a transaction, as a plan.
    private func readingPlan(of article: ArticleID, _ sql: any SQLTransaction) throws -> (ReadingPlan, [ParagraphRow], [ChunkRow]) {
        let rows = try ParagraphRow.all(sql, where: "articleId = ? ORDER BY position", .text(article.rawValue))
        let paragraphs = try rows.map { (row) throws(NarrationError) in try row.paragraph() }
        let chunks = try chunkRows(of: article, sql)
        let plan = ReadingPlan(
            paragraphs: paragraphs,
            chunks: chunks.map { ReadingPlan.ChunkBinding(id: ChunkID($0.id), paragraph: $0.paragraphId.map(ParagraphID.init), recordedAt: $0.recordedAt) })
        return (plan, rows, chunks)
    }

    /// Marks exactly the paragraphs in `ids` of the article skipped, the others not.
    func setSkipped(_ ids: Set<String>, of article: ArticleID, _ sql: any SQLTransaction) throws {
        for row in try ParagraphRow.all(sql, where: "articleId = ?", .text(article.rawValue)) where row.skipped != ids.contains(row.id) {
            try sql.execute("UPDATE paragraph SET skipped = ? WHERE id = ?", .boolean(!row.skipped), .text(row.id))
        }
    }

    /// Skips (or unskips) paragraphs `numbers` of the article, as one edit in its history; no edit
    /// when none changes. A skipped paragraph is not read: one that a take reads is refused.
    /// - Throws: `usage` for an article without a text, a paragraph that does not exist, and a
    ///   paragraph to skip that a chunk reads (naming the chunks); nothing is changed then.
    func skipParagraphs(_ numbers: [Int], skipping: Bool, of article: Article) throws(NarrationError) -> SkipChange {
        try writing(holding: article.id) { sql in
            let (plan, rows, chunks) = try self.readingPlan(of: article.id, sql)
            guard !plan.paragraphs.isEmpty else {
                throw NarrationError(.usage, "\"\(article.title)\" has no text, so there is no paragraph to skip.", remedy: .attachText)
            }
            let named = Set(numbers).sorted()
            let paragraphs = try named.map { (number) throws(NarrationError) in try plan.paragraph(number) }
            if skipping {
                let read = paragraphs.filter { !plan.chunks(of: $0.id).isEmpty }
                if !read.isEmpty {
                    let bound = Set(read.map(\.id.rawValue))
                    let chunkNumbers = chunks.enumerated().filter { $0.element.paragraphId.map(bound.contains) ?? false }.map { $0.offset + 1 }
                    let numbers = read.map(\.number)
                    let which = "Paragraph\(numbers.count == 1 ? "" : "s") \(UnreadParagraphs.spelled(UnreadParagraphs.ranges(of: numbers)))"
                    throw NarrationError(
                        .usage,
                        "\(which) of \"\(article.title)\" \(read.count == 1 ? "is" : "are") read (\(chunkNumbers.count == 1 ? "chunk" : "chunks") \(UnreadParagraphs.spelled(UnreadParagraphs.ranges(of: chunkNumbers)))): delete \(chunkNumbers.count == 1 ? "it" : "them") or put \(chunkNumbers.count == 1 ? "it" : "them") on another paragraph before skipping. Nothing was changed.",
                        remedy: .listChunks)
                }
            }
            let changed = paragraphs.filter { $0.isSkipped != skipping }.map(\.number)
            let unchanged = paragraphs.filter { $0.isSkipped == skipping }.map(\.number)
            guard !changed.isEmpty else { return SkipChange(skipping: skipping, changed: [], unchanged: unchanged) }
            let before = Set(rows.filter(\.skipped).map(\.id))
            var after = before
            for paragraph in paragraphs where paragraph.isSkipped != skipping {
                if skipping { after.insert(paragraph.id.rawValue) } else { after.remove(paragraph.id.rawValue) }
            }
            try self.setSkipped(after, of: article.id, sql)
            let spelled = UnreadParagraphs.spelled(UnreadParagraphs.ranges(of: changed))
            try self.recordEdit(
                .skip, of: article.id, summary: "\(skipping ? "Skipped" : "Unskipped") paragraph\(changed.count == 1 ? "" : "s") \(spelled).",
                before: chunks, skips: (before.sorted(), after.sorted()), sql)
            return SkipChange(skipping: skipping, changed: changed, unchanged: unchanged)
        }
    }

    /// Binds chunk `index` to paragraph `number` and puts it among that paragraph's chunks (see
    /// `ReadingPlan.rebinding`), as one edit in the history. The chunk's take check, made against
    /// the paragraph it read before, is dropped: the next check compares it with its new one.
    /// - Throws: `chunkIndexOutOfRange`; `usage` for an article without a text, a paragraph that
    ///   does not exist or is skipped, and a chunk that reads that paragraph already.
    func rebindChunk(at index: ChunkIndex, toParagraph number: Int, of article: Article) throws(NarrationError) -> RebindResult {
        try writing(holding: article.id) { sql in
            let (plan, _, chunks) = try self.readingPlan(of: article.id, sql)
            var order = ChunkOrder(chunks.map { ChunkID($0.id) })
            let id = try order.id(at: index)
            guard !plan.paragraphs.isEmpty else {
                throw NarrationError(.usage, "\"\(article.title)\" has no text, so there is no paragraph to put chunk \(index.number) on.", remedy: .attachText)
            }
            let take = try plan.rebinding(id, to: number, title: article.title)
            let row = chunks[index.position]
            let old = row.paragraphId.flatMap { bound in plan.paragraphs.first { $0.id.rawValue == bound } }
            guard old?.id != take.paragraph.id else {
                throw NarrationError(.usage, "Chunk \(index.number) reads paragraph \(number) already; nothing was changed.", remedy: .listParagraphs)
            }
            try order.remove(at: index)
            var ids = order.ids
            switch take.position {
            case .append, .replacingParagraphFrom: ids.append(id)
            case .before(let other): ids.insert(id, at: ids.firstIndex(of: other) ?? ids.count)
            case .after(let other): ids.insert(id, at: ids.firstIndex(of: other).map { $0 + 1 } ?? ids.count)
            }
            try sql.execute("UPDATE chunk SET paragraphId = ? WHERE id = ?", .text(take.paragraph.id.rawValue), .text(id.rawValue))
            try self.store(ChunkOrder(ids), sql)
            try TakeCheckRow.delete(sql, key: .text(id.rawValue))
            let destination = ChunkIndex(position: ids.firstIndex(of: id) ?? 0)
            let moved = destination == index ? "" : " (now chunk \(destination.number))"
            try self.recordEdit(
                .rebind, of: article.id, summary: "Put chunk \(index.number) on paragraph \(number)\(moved).", before: chunks, sql)
            let withdrawn = try self.withdrawExport(of: article.id, sql)
            return RebindResult(from: index, to: destination, oldParagraph: old?.number, paragraph: number, withdrawn: withdrawn)
        }
    }
}
