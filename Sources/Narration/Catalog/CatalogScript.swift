import Foundation
import SQLEngines
public import NarrationCore

/// A paragraph of an article's text as the catalog stores it.
struct ParagraphRow: CatalogRecord {
    static let table = "paragraph"
    static let key = ["id"]
    var id: String
    var articleId: String
    var position: Int
    var kind: String
    var text: String
    var words: Int
    /// Whether the volunteer chose not to read it (see `Paragraph.isSkipped`).
    var skipped: Bool

    func paragraph() throws(NarrationError) -> Paragraph {
        guard Identifier.isWellFormed(id), let kind = ScriptParagraph.Kind(rawValue: kind), position >= 0, words >= 0 else {
            throw NarrationError(
                .catalogCorrupt, "The catalog's entry for paragraph \"\(Catalog.quoted(id))\" holds values narrate never writes. \(Catalog.damagedFix)")
        }
        return Paragraph(id: ParagraphID(id), number: position + 1, kind: kind, text: text, wordCount: words, isSkipped: skipped)
    }
}

/// What attaching or replacing an article's text did.
public struct TextChange: Sendable, Equatable {
    /// The paragraphs of the new text.
    public let paragraphs: Int
    /// Paragraphs that were in the old text unchanged: their takes stay bound to them.
    public let unchanged: Int
    /// Chunks that stay bound to their unchanged paragraph.
    public let keptTakes: Int
    /// Chunks whose paragraph left the text: they stay in the article, bound to none.
    public let unboundChunks: [ChunkIndex]
    /// The article's export that the new text withdrew, if it had one.
    public let withdrawn: WithdrawnExport?
}

extension Catalog {
    /// The article's text, in order; empty when it has none.
    public func paragraphs(of article: ArticleID) throws(NarrationError) -> [Paragraph] {
        let rows = try reading { sql in try ParagraphRow.all(sql, where: "articleId = ? ORDER BY position", .text(article.rawValue)) }
        return try rows.map { (row) throws(NarrationError) in try row.paragraph() }
    }

    /// The article's paragraphs and its chunks' bindings, for choosing what a take reads.
    public func readingPlan(of article: Article) throws(NarrationError) -> ReadingPlan {
        ReadingPlan(
            paragraphs: try paragraphs(of: article.id),
            chunks: try chunks(of: article).map { ReadingPlan.ChunkBinding(id: $0.id, paragraph: $0.paragraphID, recordedAt: $0.recordedAt) })
    }

    /// Attaches `text` to the article, replacing any text it had, in one transaction.
    ///
    /// A paragraph of the new text that was in the old one (same kind, same words) keeps its
    /// identity, and with it its takes; the chunks are put in the order of the new text (a chunk
    /// bound to no paragraph stays after the chunk before it). Chunks whose paragraph left the
    /// text stay in the article, bound to none: nothing recorded is thrown away. When the text
    /// changed, the article's export is withdrawn, since its chapters and transcript came from it.
    func replaceText(of article: ArticleID, with text: [ScriptParagraph]) throws(NarrationError) -> TextChange {
        try writing(holding: article) { sql in
            let old = try ParagraphRow.all(sql, where: "articleId = ? ORDER BY position", .text(article.rawValue))
            var unused: [String: [String]] = [:]  // "kind text" → ids of old paragraphs, in order
            for row in old { unused["\(row.kind) \(row.text)", default: []].append(row.id) }
            let skipped = Set(old.filter(\.skipped).map(\.id))  // an unchanged paragraph stays skipped
            var kept: Set<String> = []
            let rows = text.enumerated().map { position, paragraph in
                let key = "\(paragraph.kind.rawValue) \(paragraph.text)"
                var id = ParagraphID.random().rawValue
                if var ids = unused[key], !ids.isEmpty {
                    id = ids.removeFirst()
                    unused[key] = ids
                    kept.insert(id)
                }
                return ParagraphRow(
                    id: id, articleId: article.rawValue, position: position, kind: paragraph.kind.rawValue, text: paragraph.text,
                    words: paragraph.wordCount, skipped: skipped.contains(id))
            }
            let changed = old.map(\.id) != rows.map(\.id)
            guard changed else {
                let bound = try sql.row("SELECT COUNT(*) AS n FROM chunk WHERE articleId = ? AND paragraphId IS NOT NULL", .text(article.rawValue))?.int("n") ?? 0
                return TextChange(paragraphs: rows.count, unchanged: rows.count, keptTakes: bound, unboundChunks: [], withdrawn: nil)
            }
            let before = try self.chunkRows(of: article, sql)
            for row in old where !kept.contains(row.id) {
                try sql.execute("UPDATE chunk SET paragraphId = NULL WHERE paragraphId = ?", .text(row.id))
                try row.delete(sql)
            }
            for row in rows {
                if kept.contains(row.id) { try row.update(sql) } else { try row.insert(sql) }
            }
            let chunks = try self.chunkRows(of: article, sql)
            let numbers = Dictionary(uniqueKeysWithValues: rows.map { ($0.id, $0.position) })
            // Each chunk sorts by its paragraph's new place; one bound to none stays after the chunk before it.
            var place = -1
            let keyed = chunks.map { chunk -> (ChunkRow, Int) in
                if let position = chunk.paragraphId.flatMap({ numbers[$0] }) { place = position }
                return (chunk, place)
            }
            let ordered = keyed.enumerated().sorted { ($0.element.1, $0.offset) < ($1.element.1, $1.offset) }.map(\.element.0)
            for (position, chunk) in ordered.enumerated() where chunk.position != position {
                try sql.execute("UPDATE chunk SET position = ? WHERE id = ?", .integer(position), .text(chunk.id))
            }
            let unbound = ordered.enumerated().filter { $0.element.paragraphId == nil }.map { ChunkIndex(position: $0.offset) }
            let keptTakes = ordered.count - unbound.count
            try self.recordEdit(
                .text, of: article, summary: "Attached a new text (\(rows.count) paragraph\(rows.count == 1 ? "" : "s"), \(kept.count) unchanged).",
                before: before, sql)
            let withdrawn = try self.withdrawExport(of: article, sql)
            return TextChange(paragraphs: rows.count, unchanged: kept.count, keptTakes: keptTakes, unboundChunks: unbound, withdrawn: withdrawn)
        }
    }
}
