public import Foundation
import GRDB
public import NarrationCore

/// The catalog as a reading service's `ReviewStore`: the tables `review_note` and
/// `review_send_back`, added by the migration `service-review`, in SQL that SQLite and
/// PostgreSQL both accept, except, as for the audit log, `INTEGER PRIMARY KEY` and the triggers
/// that refuse to delete a note or to change or delete a send-back.
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

    static func registerReviewMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("service-review") { db in
            for statement in reviewSchema { try db.execute(sql: statement) }
        }
    }

    public func addNote(_ note: ReviewNote, audit: AuditEntry) throws(NarrationError) -> ReviewNote {
        try write { db in
            let (kind, said, shouldBe, remark): (String, String?, String?, String?) =
                switch note.content {
                case .saidShouldBe(let said, let shouldBe): ("said-should-be", said.rawValue, shouldBe.rawValue, nil)
                case .remark(let text): ("remark", nil, nil, text.rawValue)
                }
            try db.execute(
                sql: """
                    INSERT INTO review_note (article_id, paragraph, milliseconds, kind, said, should_be, remark, author, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    note.article.rawValue, note.paragraph, note.milliseconds, kind, said, shouldBe, remark, note.author.rawValue,
                    Self.reviewSeconds(note.createdAt),
                ])
            let id = db.lastInsertedRowID
            try Self.append(audit, db)
            return ReviewNote(
                id: id, article: note.article, paragraph: note.paragraph, milliseconds: note.milliseconds, content: note.content,
                author: note.author, createdAt: Self.reviewDate(Self.reviewSeconds(note.createdAt)))
        }
    }

    public func notes(of article: ArticleID) throws(NarrationError) -> [ReviewNote] {
        try read { db in try Self.notes(of: article, db) }
    }

    public func recordSendBack(
        _ sendBack: ReviewSendBack, audit: @escaping @Sendable ([ReviewNote]) -> AuditEntry
    ) throws(NarrationError) -> (sendBack: ReviewSendBack, pickups: [ReviewNote]) {
        try write { db in
            let waiting = try Self.notes(of: sendBack.article, db).filter { $0.sendBack == nil }
            guard !waiting.isEmpty else { throw NarrationError.noNotesToSendBack }
            let chunks = sendBack.chunks.map {
                StoredReviewChunk(id: $0.id.rawValue, frames: $0.frames, paragraph: $0.paragraph?.rawValue, checksum: $0.checksum)
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            try db.execute(
                sql: "INSERT INTO review_send_back (article_id, sent_by, at, last_edit, chunks) VALUES (?, ?, ?, ?, ?)",
                arguments: [
                    sendBack.article.rawValue, sendBack.by.rawValue, Self.reviewSeconds(sendBack.at), sendBack.lastEdit,
                    String(decoding: try encoder.encode(chunks), as: UTF8.self),
                ])
            let id = db.lastInsertedRowID
            try db.execute(
                sql: "UPDATE review_note SET send_back_id = ? WHERE article_id = ? AND send_back_id IS NULL", arguments: [id, sendBack.article.rawValue])
            try Self.append(audit(waiting), db)
            let stored = ReviewSendBack(
                id: id, article: sendBack.article, by: sendBack.by, at: Self.reviewDate(Self.reviewSeconds(sendBack.at)), lastEdit: sendBack.lastEdit,
                chunks: sendBack.chunks)
            return (stored, try Self.notes(of: sendBack.article, db).filter { $0.sendBack == id })
        }
    }

    public func latestSendBack(of article: ArticleID) throws(NarrationError) -> ReviewSendBack? {
        try read { db in
            try Row.fetchOne(
                db, sql: "SELECT id, article_id, sent_by, at, last_edit, chunks FROM review_send_back WHERE article_id = ? ORDER BY id DESC LIMIT 1",
                arguments: [article.rawValue]
            ).map(Self.sendBack)
        }
    }

    public func markPickupDone(
        _ id: Int64, of article: ArticleID, edit: Int, by account: AccountName, at: Date, audit: AuditEntry
    ) throws(NarrationError) -> Bool {
        try write { db in
            try db.execute(
                sql: """
                    UPDATE review_note SET done_edit = ?, done_by = ?, done_at = ?
                    WHERE id = ? AND article_id = ? AND done_at IS NULL
                      AND send_back_id = (SELECT MAX(s.id) FROM review_send_back s WHERE s.article_id = ?)
                    """,
                arguments: [edit, account.rawValue, Self.reviewSeconds(at), id, article.rawValue, article.rawValue])
            guard db.changesCount == 1 else { return false }
            try Self.append(audit, db)
            return true
        }
    }

    // MARK: The article's facts

    /// The number of the article's last edit (0 when it has none), the numbers of its edits not
    /// undone, and the takes made by punch-and-roll in those, each with the number of its edit.
    func reviewHistory(of article: ArticleID) throws(NarrationError) -> (lastEdit: Int, standing: [Int], punches: [(edit: Int, chunk: ChunkID)]) {
        try read { db in
            let last = try Int.fetchOne(db, sql: "SELECT MAX(id) FROM edit WHERE articleId = ?", arguments: [article.rawValue]) ?? 0
            let standing = try Int.fetchAll(db, sql: "SELECT id FROM edit WHERE articleId = ? AND undoneAt IS NULL ORDER BY id", arguments: [article.rawValue])
            let rows = try EditRow.filter(Column("articleId") == article.rawValue).filter(Column("kind") == Edit.Kind.punch.rawValue)
                .filter(Column("undoneAt") == nil).order(Column("id")).fetchAll(db)
            let decoder = JSONDecoder()
            var punches: [(edit: Int, chunk: ChunkID)] = []
            for row in rows {
                let before = try decoder.decode(ChunkListSide.self, from: Data(row.chunksBefore.utf8))
                let after = try decoder.decode(ChunkListSide.self, from: Data(row.chunksAfter.utf8))
                let old = Set(before.order)
                for made in after.rows.map(\.id) where !old.contains(made) { punches.append((Int(row.id ?? 0), ChunkID(made))) }
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

    private static func notes(of article: ArticleID, _ db: Database) throws -> [ReviewNote] {
        try Row.fetchAll(db, sql: noteQuery + " WHERE article_id = ? ORDER BY id", arguments: [article.rawValue]).map(note)
    }

    /// A stored note, each value checked again: storage another program can write is outside input.
    private static func note(_ row: Row) throws -> ReviewNote {
        func text(_ column: Int, _ name: String, _ limit: Int) -> ReviewNoteText? {
            (field(row, column) as String?).flatMap { try? ReviewNoteText($0, field: name, limit: limit) }
        }
        let content: ReviewNote.Content?
        switch field(row, 4) as String? {
        case "said-should-be":
            content = text(5, "said", ReviewNoteText.phraseLimit).flatMap { said in
                text(6, "should-be", ReviewNoteText.phraseLimit).map { .saidShouldBe(said: said, shouldBe: $0) }
            }
        case "remark": content = text(7, "remark", ReviewNoteText.remarkLimit).map { .remark($0) }
        default: content = nil
        }
        let doneEdit = field(row, 11) as Int?, doneBy = (field(row, 12) as String?).flatMap { try? AccountName($0) }, doneAt = field(row, 13) as Int64?
        let pickup: ReviewNote.Pickup? =
            switch (doneEdit, doneBy, doneAt) {
            case (nil, nil, nil): .open
            case (let edit?, let by?, let at?): .done(edit: edit, by: by, at: reviewDate(at))
            default: nil
            }
        guard let id = field(row, 0) as Int64?, let article = field(row, 1) as String?, Identifier.isWellFormed(article),
              let paragraph = field(row, 2) as Int?, paragraph >= 1, let milliseconds = field(row, 3) as Int64?, milliseconds >= 0,
              let content, let author = (field(row, 8) as String?).flatMap({ try? AccountName($0) }), let created = field(row, 9) as Int64?,
              let pickup
        else {
            throw NarrationError(.catalogCorrupt, "The catalog holds a review note narrate never writes (\(quoted(row.description, limit: 80))). \(damagedFix)")
        }
        return ReviewNote(
            id: id, article: ArticleID(article), paragraph: paragraph, milliseconds: milliseconds, content: content, author: author,
            createdAt: reviewDate(created), sendBack: field(row, 10) as Int64?, pickup: pickup)
    }

    private static func sendBack(_ row: Row) throws -> ReviewSendBack {
        guard let id = field(row, 0) as Int64?, let article = field(row, 1) as String?, let by = (field(row, 2) as String?).flatMap({ try? AccountName($0) }),
              let at = field(row, 3) as Int64?, let lastEdit = field(row, 4) as Int?, let json = field(row, 5) as String?,
              let chunks = try? JSONDecoder().decode([StoredReviewChunk].self, from: Data(json.utf8)),
              chunks.allSatisfy({
                  Identifier.isWellFormed($0.id) && (0...ChunkRow.maximumFrames).contains($0.frames) && ($0.checksum.map(ReviewChunk.isChecksum) ?? true)
              })
        else {
            throw NarrationError(.catalogCorrupt, "The catalog holds a send-back narrate never writes (\(quoted(row.description, limit: 80))). \(damagedFix)")
        }
        return ReviewSendBack(
            id: id, article: ArticleID(article), by: by, at: reviewDate(at), lastEdit: lastEdit,
            chunks: chunks.map {
                ReviewChunk(id: ChunkID($0.id), frames: $0.frames, paragraph: $0.paragraph.map(ParagraphID.init), checksum: $0.checksum)
            })
    }

    /// The value of `column` if it is a `T`; nil when it is NULL or of another type.
    private static func field<T: DatabaseValueConvertible>(_ row: Row, _ column: Int) -> T? {
        T.fromDatabaseValue(row[column] as DatabaseValue)
    }

    private static func reviewSeconds(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.down)) }
    private static func reviewDate(_ seconds: Int64) -> Date { Date(timeIntervalSince1970: TimeInterval(seconds)) }
}
