import Foundation
import SQLEngines
public import NarrationCore

/// An edit as the catalog stores it: the article's chunk list before and after (JSON, see
/// `ChunkListSide`), and its details before and after when they changed.
struct EditRow: CatalogRecord {
    static let table = "edit"
    static let key = ["id"]
    var id: Int64?
    var articleId: String
    var kind: String
    var summary: String
    var madeAt: Date
    var chunksBefore: String
    var chunksAfter: String
    var detailsBefore: String?
    var detailsAfter: String?
    var undoneAt: Date?
    /// The ids of the article's skipped paragraphs before and after (JSON lists), for an edit
    /// that skipped or unskipped some; nil for every other edit.
    var skipsBefore: String?
    var skipsAfter: String?

    func edit() throws(NarrationError) -> Edit {
        try EditEntryRow(id: id ?? 0, articleId: articleId, kind: kind, summary: summary, madeAt: madeAt, undoneAt: undoneAt).edit()
    }
}

/// An edit as `history` lists it: its sentence without its chunk lists, which only undo reads.
struct EditEntryRow: CatalogRecord {
    static let table = "edit"
    static let key = ["id"]
    static let query = "SELECT id, articleId, kind, summary, madeAt, undoneAt FROM edit"
    var id: Int64
    var articleId: String
    var kind: String
    var summary: String
    var madeAt: Date
    var undoneAt: Date?

    func edit() throws(NarrationError) -> Edit {
        guard let kind = Edit.Kind(rawValue: kind), Identifier.isWellFormed(articleId) else {
            throw NarrationError(.catalogCorrupt, "The catalog's history holds an edit narrate never writes (\"\(Catalog.quoted(kind))\"). \(Catalog.damagedFix)")
        }
        return Edit(number: Int(id), article: ArticleID(articleId), kind: kind, summary: summary, madeAt: madeAt, undoneAt: undoneAt)
    }
}

/// What history keeps of an article's chunk list on one side of an edit: the order of its
/// chunks, and the rows that differ on the other side (those the edit added, removed or changed).
/// The rows an edit left alone are the same on both sides and kept by neither, so an edit costs
/// its chunk ids and the rows it touched, not the whole list twice.
struct ChunkListSide: Codable {
    var order: [String]
    var rows: [ChunkRow]
}

/// What an edit of an article's details can change.
struct ArticleDetails: Codable, Equatable {
    var title: String
    var publication: String
    var narrator: String
    var listenerDate: String?

    init(_ row: ArticleRow) {
        title = row.title
        publication = row.publication
        narrator = row.narrator
        listenerDate = row.listenerDate
    }
}

/// What `undo` did.
public struct UndoneEdit: Sendable {
    public let edit: Edit
    /// Chunks whose files came back from the trash.
    public let restored: [ChunkID]
    /// Chunks whose files went to the trash.
    public let removed: [ChunkID]
    /// The article's export that the undo withdrew, if it had one.
    public let withdrawn: WithdrawnExport?
}

/// Which edits `undo` may reverse.
public enum UndoScope: Sendable {
    /// The last edit of this article, its deletion included.
    case article(ArticleID)
    /// The last edit of the current article (if any) or the last deletion of an article,
    /// whichever is later: what a volunteer who just did something means.
    case latest(current: ArticleID?)
}

extension Catalog {
    // MARK: Recording edits

    /// The article's chunk rows in order: what history keeps before and after an edit.
    func chunkRows(of article: ArticleID, _ sql: any SQLTransaction) throws -> [ChunkRow] {
        try ChunkRow.all(sql, where: "articleId = ? ORDER BY position", .text(article.rawValue))
    }

    /// Adds an edit to the history inside the edit's own transaction: the chunk rows `before`
    /// it against the rows now (see `ChunkListSide`).
    func recordEdit(
        _ kind: Edit.Kind, of article: ArticleID, summary: String, before: [ChunkRow],
        details: (before: ArticleDetails, after: ArticleDetails)? = nil, skips: (before: [String], after: [String])? = nil, _ sql: any SQLTransaction
    ) throws {
        let after = try chunkRows(of: article, sql)
        let beforeByID = Dictionary(uniqueKeysWithValues: before.map { ($0.id, $0) })
        let afterByID = Dictionary(uniqueKeysWithValues: after.map { ($0.id, $0) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        func json<T: Encodable>(_ value: T) throws -> String { String(decoding: try encoder.encode(value), as: UTF8.self) }
        let row = EditRow(
            id: nil, articleId: article.rawValue, kind: kind.rawValue, summary: summary, madeAt: Date(),
            chunksBefore: try json(ChunkListSide(order: before.map(\.id), rows: before.filter { afterByID[$0.id] != $0 })),
            chunksAfter: try json(ChunkListSide(order: after.map(\.id), rows: after.filter { beforeByID[$0.id] != $0 })),
            detailsBefore: try details.map { try json($0.before) }, detailsAfter: try details.map { try json($0.after) }, undoneAt: nil,
            skipsBefore: try skips.map { try json($0.before) }, skipsAfter: try skips.map { try json($0.after) })
        try row.insert(sql)
    }

    // MARK: Reading history

    /// Edits, newest first: of one article (its deletion included), or of every article; with
    /// `kinds`, only those. Reads the edits' sentences, never their chunk lists.
    public func history(of article: ArticleID?, kinds: Set<Edit.Kind>? = nil, limit: Int? = nil) throws(NarrationError) -> [Edit] {
        var conditions: [String] = []
        var arguments: [SQLValue] = []
        if let article {
            conditions.append("articleId = ?")
            arguments.append(.text(article.rawValue))
        }
        if let kinds {
            conditions.append(kinds.isEmpty ? "0 = 1" : "kind IN (\(Array(repeating: "?", count: kinds.count).joined(separator: ", ")))")
            arguments += kinds.map { .text($0.rawValue) }
        }
        var query = EditEntryRow.query + (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")) + " ORDER BY id DESC"
        if let limit {
            query += " LIMIT ?"
            arguments.append(.integer(max(0, limit)))
        }
        let rows = try reading { sql in try sql.rows(query, arguments).map { try EditEntryRow(decoding: $0) } }
        return try rows.map { (row) throws(NarrationError) in try row.edit() }
    }

    /// The titles of these articles, those in the trash included, by id.
    public func titles(of articles: Set<ArticleID>) throws(NarrationError) -> [ArticleID: String] {
        let ids = articles.map(\.rawValue)
        let rows = try reading { sql in try ArticleRow.all(sql, whereColumn: "id", in: ids.map { .text($0) }) }
        return Dictionary(rows.map { (ArticleID($0.id), $0.title) }, uniquingKeysWith: { first, _ in first })
    }

    // MARK: Undo

    /// Reverses the article's last edit not undone yet, in one transaction whose last step is
    /// `moveFiles(leaving, returning)`: chunks that leave the list go to the trash, chunks that
    /// come back return from it. The article's export, if it had one, is withdrawn.
    /// - Throws: `usage` when there is nothing to undo or the last edit cannot be undone (a new
    ///   text), `catalogCorrupt` when the chunks are not as the edit left them.
    func undo(
        _ article: ArticleID, moveFiles: @escaping @Sendable (_ article: ArticleID, _ leaving: [ChunkID], _ returning: [ChunkID]) throws -> Void
    ) throws(NarrationError) -> UndoneEdit {
        try writing(holding: article) { sql in
            let last = try EditRow.all(sql, where: "undoneAt IS NULL AND articleId = ? ORDER BY id DESC LIMIT 1", .text(article.rawValue))
            guard var row = last.first else {
                throw NarrationError(.usage, "There is nothing to undo: no edit of the article is left to reverse.", remedy: .showHistory)
            }
            let edit = try row.edit()
            guard edit.kind.canUndo else {
                throw NarrationError(
                    .usage,
                    "The last edit attached a new text, which undo cannot take back.", remedy: .attachOldText)
            }
            let decoder = JSONDecoder()
            let before = try decoder.decode(ChunkListSide.self, from: Data(row.chunksBefore.utf8))
            let after = try decoder.decode(ChunkListSide.self, from: Data(row.chunksAfter.utf8))
            let current = try self.chunkRows(of: edit.article, sql)
            guard current.map(\.id) == after.order else {
                throw NarrationError(
                    .catalogCorrupt,
                    "The chunks of the article are not as its last edit (\(Self.quoted(edit.summary, limit: 60))) left them, so undo cannot know what to restore. Nothing was changed.")
            }
            let wanted = Set(before.order)
            let present = Set(current.map(\.id))
            let leaving = current.filter { !wanted.contains($0.id) }.map { ChunkID($0.id) }
            let returning = before.order.filter { !present.contains($0) }.map(ChunkID.init)
            for id in leaving { try ChunkRow.delete(sql, key: .text(id.rawValue)) }
            // The rows the edit changed or removed, as they were; the others it left alone.
            for var chunk in before.rows {
                if let paragraph = chunk.paragraphId, try !ParagraphRow.exists(sql, key: .text(paragraph)) { chunk.paragraphId = nil }
                if present.contains(chunk.id) { try chunk.update(sql) } else { try chunk.insert(sql) }
            }
            for id in returning { try self.restoreTakeCheck(of: id, sql) }
            if let details = row.detailsBefore {
                let restored = try decoder.decode(ArticleDetails.self, from: Data(details.utf8))
                try sql.execute(
                    "UPDATE article SET title = ?, publication = ?, narrator = ?, listenerDate = ? WHERE id = ?",
                    .text(restored.title), .text(restored.publication), .text(restored.narrator), restored.listenerDate.map { .text($0) } ?? .null,
                    .text(edit.article.rawValue))
            }
            if let skips = row.skipsBefore {
                let restored = try decoder.decode([String].self, from: Data(skips.utf8))
                try self.setSkipped(Set(restored), of: edit.article, sql)
            }
            var withdrawn: WithdrawnExport?
            if edit.kind == .skip {
                // What is skipped holds no chunk: the export's audio, chapters and text stay as they are.
            } else if edit.kind == .deleteArticle {
                try sql.execute("UPDATE article SET deletedAt = NULL WHERE id = ?", .text(edit.article.rawValue))
                try SettingRow(key: Self.currentArticleKey, value: edit.article.rawValue).save(sql)
            } else {
                withdrawn = try self.withdrawExport(of: edit.article, sql)
            }
            row.undoneAt = Date()
            try row.update(sql)
            try moveFiles(edit.article, leaving, returning)
            return UndoneEdit(edit: try row.edit(), restored: returning, removed: leaving, withdrawn: withdrawn)
        }
    }
}
