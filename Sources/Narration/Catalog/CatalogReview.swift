public import Foundation
public import NarrationCore
import SQLEngines

/// The catalog as a reading service's `ReviewStore`, on either engine: the tables `review_note`
/// and `review_send_back`, added by the step `service-review`, whose triggers refuse to delete a
/// note or to change or delete a send-back (`CatalogSchema` gives PostgreSQL the row ids and
/// the triggers its own way).
extension Catalog: ReviewStore {
    static let reviewSchema = [
        """
        CREATE TABLE review_send_back (
            id INTEGER PRIMARY KEY,
            article_id TEXT NOT NULL,
            sent_by TEXT NOT NULL,
            at BIGINT NOT NULL,
            last_edit BIGINT NOT NULL CHECK (last_edit >= 0),
            chunks TEXT NOT NULL
        )
        """,
        "CREATE INDEX review_send_back_by_article ON review_send_back (article_id, id)",
        """
        CREATE TABLE review_note (
            id INTEGER PRIMARY KEY,
            article_id TEXT NOT NULL,
            paragraph INTEGER NOT NULL CHECK (paragraph >= 1),
            milliseconds BIGINT NOT NULL CHECK (milliseconds >= 0),
            kind TEXT NOT NULL CHECK (kind IN ('said-should-be', 'remark')),
            said TEXT,
            should_be TEXT,
            remark TEXT,
            author TEXT NOT NULL,
            created_at BIGINT NOT NULL,
            send_back_id BIGINT REFERENCES review_send_back (id),
            done_edit BIGINT,
            done_by TEXT,
            done_at BIGINT
        )
        """,
        "CREATE INDEX review_note_by_article ON review_note (article_id, id)",
        """
        CREATE TRIGGER review_note_no_delete BEFORE DELETE ON review_note
        BEGIN SELECT RAISE(ABORT, 'review notes are never deleted'); END
        """,
        """
        CREATE TRIGGER review_send_back_no_update BEFORE UPDATE ON review_send_back
        BEGIN SELECT RAISE(ABORT, 'a send-back is never changed'); END
        """,
        """
        CREATE TRIGGER review_send_back_no_delete BEFORE DELETE ON review_send_back
        BEGIN SELECT RAISE(ABORT, 'a send-back is never changed'); END
        """,
    ]

    public func addNote(_ note: ReviewNote, audit: AuditEntry) throws(NarrationError) -> ReviewNote {
        try writing { sql in
            let (kind, said, shouldBe, remark): (String, SQLValue, SQLValue, SQLValue) =
                switch note.content {
                case .saidShouldBe(let said, let shouldBe): ("said-should-be", .text(said.rawValue), .text(shouldBe.rawValue), .null)
                case .remark(let text): ("remark", .null, .null, .text(text.rawValue))
                }
            let inserted = try sql.row(
                """
                INSERT INTO review_note (article_id, paragraph, milliseconds, kind, said, should_be, remark, author, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
                """,
                .text(note.article.rawValue), .integer(note.paragraph), .integer(note.milliseconds), .text(kind), said, shouldBe, remark,
                .text(note.author.rawValue), Self.seconds(note.createdAt))
            let id = try Self.returnedID(inserted)
            try Self.append(audit, sql)
            return ReviewNote(
                id: id, article: note.article, paragraph: note.paragraph, milliseconds: note.milliseconds, content: note.content,
                author: note.author, createdAt: Self.wholeSeconds(note.createdAt))
        }
    }

    public func notes(of article: ArticleID) throws(NarrationError) -> [ReviewNote] {
        try reading { sql in try Self.notes(of: article, sql) }
    }

    public func recordSendBack(
        _ sendBack: ReviewSendBack, audit: @escaping @Sendable ([ReviewNote]) -> AuditEntry
    ) throws(NarrationError) -> (sendBack: ReviewSendBack, pickups: [ReviewNote]) {
        try writing { sql in
            let waiting = try Self.notes(of: sendBack.article, sql).filter { $0.sendBack == nil }
            guard !waiting.isEmpty else { throw NarrationError.noNotesToSendBack }
            let chunks = sendBack.chunks.map {
                StoredReviewChunk(id: $0.id.rawValue, frames: $0.frames, paragraph: $0.paragraph?.rawValue, checksum: $0.checksum)
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let inserted = try sql.row(
                "INSERT INTO review_send_back (article_id, sent_by, at, last_edit, chunks) VALUES (?, ?, ?, ?, ?) RETURNING id",
                .text(sendBack.article.rawValue), .text(sendBack.by.rawValue), Self.seconds(sendBack.at), .integer(sendBack.lastEdit),
                .text(String(decoding: try encoder.encode(chunks), as: UTF8.self)))
            let id = try Self.returnedID(inserted)
            try sql.execute(
                "UPDATE review_note SET send_back_id = ? WHERE article_id = ? AND send_back_id IS NULL", .integer(id), .text(sendBack.article.rawValue))
            try Self.append(audit(waiting), sql)
            let stored = ReviewSendBack(
                id: id, article: sendBack.article, by: sendBack.by, at: Self.wholeSeconds(sendBack.at), lastEdit: sendBack.lastEdit,
                chunks: sendBack.chunks)
            return (stored, try Self.notes(of: sendBack.article, sql).filter { $0.sendBack == id })
        }
    }

    public func latestSendBack(of article: ArticleID) throws(NarrationError) -> ReviewSendBack? {
        try reading { sql in
            try sql.row(
                "SELECT id, article_id, sent_by, at, last_edit, chunks FROM review_send_back WHERE article_id = ? ORDER BY id DESC LIMIT 1",
                .text(article.rawValue)
            ).map(Self.sendBack)
        }
    }

    public func markPickupDone(
        _ id: Int64, of article: ArticleID, edit: Int, by account: AccountName, at: Date, audit: AuditEntry
    ) throws(NarrationError) -> Bool {
        try writing { sql in
            let marked = try sql.execute(
                """
                UPDATE review_note SET done_edit = ?, done_by = ?, done_at = ?
                WHERE id = ? AND article_id = ? AND done_at IS NULL
                  AND send_back_id = (SELECT MAX(s.id) FROM review_send_back s WHERE s.article_id = ?)
                """,
                .integer(edit), .text(account.rawValue), Self.seconds(at), .integer(id), .text(article.rawValue), .text(article.rawValue))
            guard marked == 1 else { return false }
            try Self.append(audit, sql)
            return true
        }
    }

    // MARK: The article's facts

    /// The number of the article's last edit (0 when it has none), the numbers of its edits not
    /// undone, and the takes made by punch-and-roll in those, each with the number of its edit.
    func reviewHistory(of article: ArticleID) throws(NarrationError) -> (lastEdit: Int, standing: [Int], punches: [(edit: Int, chunk: ChunkID)]) {
        try reading { sql in
            let edits = try sql.rows(
                "SELECT id, kind, chunksBefore, chunksAfter, undoneAt IS NULL AS standing FROM edit WHERE articleId = ? ORDER BY id", .text(article.rawValue))
            let decoder = JSONDecoder()
            var last = 0
            var standing: [Int] = []
            var punches: [(edit: Int, chunk: ChunkID)] = []
            for edit in edits {
                let id = try edit.int("id")
                last = max(last, id)
                guard try edit.boolean("standing") else { continue }
                standing.append(id)
                guard try edit.text("kind") == Edit.Kind.punch.rawValue else { continue }
                let before = try decoder.decode(ChunkListSide.self, from: Data(try edit.text("chunksBefore").utf8))
                let after = try decoder.decode(ChunkListSide.self, from: Data(try edit.text("chunksAfter").utf8))
                let old = Set(before.order)
                for made in after.rows.map(\.id) where !old.contains(made) { punches.append((id, ChunkID(made))) }
            }
            return (last, standing, punches)
        }
    }

    // MARK: Rows

    /// A chunk of a send-back's snapshot as its JSON keeps it.
    private struct StoredReviewChunk: Codable {
        var id: String
        var frames: Int
        var paragraph: String?
        var checksum: String?
    }

    private static let noteQuery = """
        SELECT id, article_id, paragraph, milliseconds, kind, said, should_be, remark, author, created_at, send_back_id, done_edit, done_by, done_at
        FROM review_note
        """

    private static func notes(of article: ArticleID, _ sql: any SQLTransaction) throws -> [ReviewNote] {
        try sql.rows(noteQuery + " WHERE article_id = ? ORDER BY id", .text(article.rawValue)).map(note)
    }

    /// The id `INSERT … RETURNING id` gave.
    private static func returnedID(_ row: SQLRow?) throws -> Int64 {
        guard let id = try row?.integer("id") else {
            throw NarrationError(.catalogCorrupt, "The catalog gave no id to a row it was given. \(damagedFix)")
        }
        return id
    }

    /// A stored note, each value checked again: storage another program can write is outside input.
    private static func note(_ row: SQLRow) throws -> ReviewNote {
        func text(_ column: String, _ name: String, _ limit: Int) -> ReviewNoteText? {
            (try? row.optionalText(column))?.flatMap { try? ReviewNoteText($0, field: name, limit: limit) }
        }
        let content: ReviewNote.Content?
        switch (try? row.optionalText("kind")) ?? nil {
        case "said-should-be":
            content = text("said", "said", ReviewNoteText.phraseLimit).flatMap { said in
                text("should_be", "should-be", ReviewNoteText.phraseLimit).map { .saidShouldBe(said: said, shouldBe: $0) }
            }
        case "remark": content = text("remark", "remark", ReviewNoteText.remarkLimit).map { .remark($0) }
        default: content = nil
        }
        let doneEdit = row.checked { try $0.optionalInteger("done_edit") }, doneBy = row.checked { try $0.optionalText("done_by") }
        let doneAt = row.checked { try $0.optionalInteger("done_at") }
        let pickup: ReviewNote.Pickup? =
            switch (doneEdit, doneBy, doneAt) {
            case (nil?, nil?, nil?): .open
            case (let edit??, let by??, let at??): Int(exactly: edit).flatMap { edit in (try? AccountName(by)).map { .done(edit: edit, by: $0, at: date(at)) } }
            default: nil
            }
        guard let id = try? row.integer("id"), let article = try? row.text("article_id"), Identifier.isWellFormed(article),
              let paragraph = try? row.int("paragraph"), paragraph >= 1, let milliseconds = try? row.integer("milliseconds"), milliseconds >= 0,
              let content, let author = (try? row.text("author")).flatMap({ try? AccountName($0) }), let created = try? row.integer("created_at"),
              let sendBack = row.checked({ try $0.optionalInteger("send_back_id") }), let pickup
        else {
            throw NarrationError(.catalogCorrupt, "The catalog holds a review note narrate never writes (\(quoted(Self.shown(row), limit: 80))). \(damagedFix)")
        }
        return ReviewNote(
            id: id, article: ArticleID(article), paragraph: paragraph, milliseconds: milliseconds, content: content, author: author,
            createdAt: date(created), sendBack: sendBack, pickup: pickup)
    }

    private static func sendBack(_ row: SQLRow) throws -> ReviewSendBack {
        guard let id = try? row.integer("id"), let article = try? row.text("article_id"), let by = (try? row.text("sent_by")).flatMap({ try? AccountName($0) }),
              let at = try? row.integer("at"), let lastEdit = try? row.int("last_edit"), let json = try? row.text("chunks"),
              let chunks = try? JSONDecoder().decode([StoredReviewChunk].self, from: Data(json.utf8)),
              chunks.allSatisfy({
                  Identifier.isWellFormed($0.id) && (0...ChunkRow.maximumFrames).contains($0.frames) && ($0.checksum.map(ReviewChunk.isChecksum) ?? true)
              })
        else {
            throw NarrationError(.catalogCorrupt, "The catalog holds a send-back narrate never writes (\(quoted(Self.shown(row), limit: 80))). \(damagedFix)")
        }
        return ReviewSendBack(
            id: id, article: ArticleID(article), by: by, at: date(at), lastEdit: lastEdit,
            chunks: chunks.map {
                ReviewChunk(id: ChunkID($0.id), frames: $0.frames, paragraph: $0.paragraph.map(ParagraphID.init), checksum: $0.checksum)
            })
    }

    /// A row's values for a sentence, as `[name:value …]`.
    private static func shown(_ row: SQLRow) -> String {
        "[" + zip(row.columns, row.values).map { "\($0):\($1)" }.joined(separator: " ") + "]"
    }

    /// `date` as the tables keep it, to the second below.
    private static func wholeSeconds(_ date: Date) -> Date { Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)) }
}
