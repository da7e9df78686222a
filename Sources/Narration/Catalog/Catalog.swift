import Foundation
import GRDB
public import NarrationCore
public import SQLEngines

/// The catalog (`catalog.sqlite`): articles, the order of their chunks, takes being recorded,
/// and settings such as the current article.
///
/// Chunk order lives only here, so every edit of the chunk list is one transaction. File moves
/// that go with an edit run last inside that transaction, so that a failed move rolls it back.
public final class Catalog: Sendable {
    /// The SQLite connection of the parts of the catalog that still speak GRDB; nil on PostgreSQL,
    /// where only the parts written for both engines run.
    let database: DatabaseQueue?
    /// The catalog's engine: on SQLite, the same connection as `database`. The parts written for
    /// both engines (`reading`, `writing`) use it.
    let engine: any SQLEngine
    public let path: String

    /// Opens (and if new, creates) the catalog at `path`.
    /// - Throws: `catalogCorrupt` when the file is not a usable catalog, naming it.
    public init(path: String) throws(NarrationError) {
        self.path = path
        try Self.refuseLinks(at: path)
        let queue = try Self.open(path, readOnly: false)
        database = queue
        engine = SQLiteEngine(sharing: queue, path: path)
        do {
            try CatalogSchema.migrator.migrate(engine)
        } catch {
            throw Self.translate(error, path: path)
        }
    }

    /// Opens the catalog at `path` for reading only, for a data root that cannot be written: no
    /// migration runs and nothing is ever written (SQLite opens the file read-only).
    /// - Throws: `dataRootNotWritable` when there is no catalog yet, or when it was written by an
    ///   older narrate and must be brought up to date first, which needs writing;
    ///   `catalogCorrupt` when the file is not a usable catalog.
    public init(readingOnly path: String) throws(NarrationError) {
        self.path = path
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: path) else {
            throw NarrationError(
                .dataRootNotWritable,
                "The data folder \(folder) is read-only and holds no catalog yet, so there is nothing to read; make it writable to start recording.")
        }
        try Self.refuseLinks(at: path)
        let queue = try Self.open(path, readOnly: true)
        database = queue
        engine = SQLiteEngine(sharing: queue, path: path)
        let current: Bool
        do {
            current = try CatalogSchema.migrator.pending(on: engine).isEmpty
        } catch {
            throw Self.translate(error, path: path)
        }
        guard current else {
            throw NarrationError(
                .dataRootNotWritable,
                "The catalog \(path) was written by an older narrate and must be brought up to date before this one can read it, which needs writing: make \(folder) writable.",
                subject: .file(path), remedy: .openLibraryOnce)
        }
    }

    /// The SQLite file at `path`, opened and read once: a file that is not a database (or a
    /// damaged one) is found here, by SQLite's own code.
    private static func open(_ path: String, readOnly: Bool) throws(NarrationError) -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = readOnly
        configuration.busyMode = .timeout(10)
        configuration.foreignKeysEnabled = true
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            _ = try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") }
            return queue
        } catch {
            throw translate(error, path: path)
        }
    }

    /// The catalog in `engine` (a PostgreSQL server several hosts share), its tables made or
    /// brought up to date. `name` names it in sentences (the server's address, never a password).
    ///
    /// Every part runs on it but those only SQLite has: the file's backup, its integrity check
    /// (PostgreSQL checks its own pages, and every reference on every write) and its data version.
    public init(engine: any SQLEngine, name: String) throws(NarrationError) {
        self.path = name
        self.database = nil
        self.engine = engine
        do {
            try CatalogSchema.migrator.migrate(engine)
        } catch {
            throw Self.translate(error, path: name, dialect: engine.dialect)
        }
    }

    /// SQLite opens the catalog and its journal by name, following symbolic links (GRDB has no
    /// way to pass `SQLITE_OPEN_NOFOLLOW`, which covers the database file alone): a link planted
    /// as either would have SQLite write the catalog's pages or its journal into the link's
    /// target. Both are refused before SQLite opens anything.
    /// - Throws: `foreignFile` naming the link.
    static func refuseLinks(at path: String) throws(NarrationError) {
        for name in [path, path + "-journal", path + "-wal", path + "-shm"] {
            if let found = try? FileSystem.linkStatus(of: name), found.kind == .symbolicLink {
                throw .foreignFile(name, .symbolicLink)
            }
        }
    }

    // MARK: Articles

    /// Adds an article and makes it the current one.
    public func add(_ article: Article) throws(NarrationError) {
        try writing { sql in
            try ArticleRow(article).insert(sql)
            try Self.setSetting(Self.currentArticleKey, to: article.id.rawValue, sql)
        }
    }

    /// All articles, newest first.
    public func articles() throws(NarrationError) -> [Article] {
        let rows = try reading { sql in
            try sql.rows(ArticleRow.query + " WHERE deletedAt IS NULL ORDER BY createdAt DESC, id", []).map(ArticleRow.init)
        }
        return try rows.map { (row) throws(NarrationError) in try row.article() }
    }

    /// The number of chunks and total frames of every article, by id.
    public func chunkTotals() throws(NarrationError) -> [ArticleID: (chunks: Int, frames: FrameCount)] {
        let rows = try reading { sql in
            // The sum as an integer: PostgreSQL sums BIGINTs as NUMERIC.
            try sql.rows("SELECT articleId, COUNT(*) AS count, CAST(SUM(frames) AS BIGINT) AS frames FROM chunk GROUP BY articleId", [])
        }
        var totals: [ArticleID: (chunks: Int, frames: FrameCount)] = [:]
        for row in rows {
            guard let id = row.checked({ try $0.text("articleId") }), let count = row.checked({ try $0.int("count") }),
                  let total = row.checked({ try $0.int("frames") }), (0...ChunkRow.maximumFrames).contains(total)
            else {
                throw NarrationError(.catalogCorrupt, "The catalog \(path) holds chunk lengths no recording has. \(Self.damagedFix)")
            }
            totals[ArticleID(id)] = (count, total)
        }
        return totals
    }

    /// The article with this id, or the only one whose id starts with it; articles in the trash
    /// are not found.
    /// - Throws: `unknownArticle` when none or several match, saying so when the one that
    ///   matches is in the trash.
    public func article(matching text: String) throws(NarrationError) -> Article {
        let lowered = text.lowercased()
        guard Identifier.isWellFormed(lowered) else { throw .unknownArticle(text) }
        let all = try reading { sql in
            try sql.rows(ArticleRow.query + " WHERE id = ? OR id LIKE ?", .text(lowered), .text(lowered + "%")).map(ArticleRow.init)
        }
        let rows = all.filter { $0.deletedAt == nil }
        if rows.isEmpty, all.count == 1, let deleted = all.first {
            throw NarrationError(
                .unknownArticle,
                "The article \(deleted.id) \"\(Self.quoted(deleted.title))\" is in the trash.",
                subject: .article(ArticleID(deleted.id)), remedy: .undoDeletion)
        }
        if let exact = rows.first(where: { $0.id == lowered }) { return try exact.article() }
        guard rows.count == 1, let only = rows.first else {
            throw rows.isEmpty ? .unknownArticle(text) : .ambiguousArticle(text, matches: rows.map { ArticleID($0.id) })
        }
        return try only.article()
    }

    static let currentArticleKey = "currentArticle"

    /// The article later commands default to, if any (and if it still exists).
    public func currentArticle() throws(NarrationError) -> Article? {
        let row = try reading { sql -> ArticleRow? in
            try sql.row(
                ArticleRow.query + " WHERE deletedAt IS NULL AND id = (SELECT value FROM setting WHERE key = ?)", .text(Self.currentArticleKey)
            ).map(ArticleRow.init)
        }
        return try row?.article()
    }

    public func setCurrentArticle(_ id: ArticleID?) throws(NarrationError) {
        try writing { sql in
            if let id {
                try Self.setSetting(Self.currentArticleKey, to: id.rawValue, sql)
            } else {
                try sql.execute("DELETE FROM setting WHERE key = ?", .text(Self.currentArticleKey))
            }
        }
    }

    /// Sets the setting `key`, replacing its value if it has one.
    static func setSetting(_ key: String, to value: String, _ sql: any SQLTransaction) throws {
        try sql.execute(
            "INSERT INTO setting (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", .text(key), .text(value))
    }

    // MARK: Chunks

    /// An article's chunks in order.
    public func chunks(of article: Article) throws(NarrationError) -> [Chunk] {
        let rows = try reading { sql in try self.chunkRows(of: article.id, sql) }
        return try rows.map { (row) throws(NarrationError) in try row.chunk(format: article.format) }
    }

    /// One chunk by its id, if it is in an article.
    func chunk(_ id: ChunkID, format: AudioFormat) throws(NarrationError) -> Chunk? {
        try reading { sql in try ChunkRow.one(sql, key: .text(id.rawValue)) }.map { (row) throws(NarrationError) in try row.chunk(format: format) }
    }

    func order(of article: ArticleID, _ sql: any SQLTransaction) throws -> ChunkOrder {
        let ids = try sql.rows("SELECT id FROM chunk WHERE articleId = ? ORDER BY position", .text(article.rawValue)).map { try $0.text("id") }
        // Ids name files: one that is not ours (a "../" above all) must never reach a path.
        if let strange = ids.first(where: { !Identifier.isWellFormed($0) }) {
            throw NarrationError(.catalogCorrupt, "The catalog holds a chunk whose id \"\(Self.quoted(strange))\" narrate never makes. \(Self.damagedFix)")
        }
        return ChunkOrder(ids.map(ChunkID.init))
    }

    /// The current order of an article's chunks.
    public func order(of article: ArticleID) throws(NarrationError) -> ChunkOrder {
        try reading { sql in try self.order(of: article, sql) }
    }

    /// Writes each chunk's position after an edit of the order.
    func store(_ order: ChunkOrder, _ sql: any SQLTransaction) throws {
        for (position, id) in order.ids.enumerated() {
            try sql.execute("UPDATE chunk SET position = ? WHERE id = ? AND position != ?", .integer(position), .text(id.rawValue), .integer(position))
        }
    }

    /// Records that a take has started, before its partial file is created; with `upload`, that
    /// a page sends its audio under that key (a key used before is refused).
    func beginTake(
        _ chunk: ChunkID, of article: ArticleID, target: TakeTarget, paragraph: ParagraphID?, at date: Date, upload: TakeUploadTag? = nil
    ) throws(NarrationError) {
        try writing { sql in
            if let upload {
                guard try sql.row("SELECT 1 AS found FROM take_upload WHERE upload_key = ?", .text(upload.key.rawValue)) == nil else {
                    throw NarrationError.usage("The page named its new take with a key another take has: reload the page.")
                }
            }
            try PendingTakeRow(
                chunkId: chunk.rawValue, articleId: article.rawValue, placement: target.storedKind,
                targetChunkId: target.storedTarget, startedAt: date, paragraphId: paragraph?.rawValue
            ).insert(sql)
            if let upload { try Self.insertUpload(upload, chunk: chunk, article: article, at: date, sql) }
        }
    }

    /// Takes that were started and never committed, with where they were meant to go and the
    /// paragraph they read.
    func pendingTakes() throws(NarrationError) -> [(chunk: ChunkID, article: ArticleID, target: TakeTarget, paragraph: ParagraphID?)] {
        let rows = try reading { sql in try PendingTakeRow.all(sql) }
        for row in rows where !Identifier.isWellFormed(row.chunkId) || !Identifier.isWellFormed(row.articleId)
            || !(row.paragraphId.map(Identifier.isWellFormed) ?? true) {
            throw NarrationError(.catalogCorrupt, "The catalog holds an unfinished take whose id \"\(Self.quoted(row.chunkId))\" narrate never makes. \(Catalog.damagedFix)")
        }
        return rows.map {
            (ChunkID($0.chunkId), ArticleID($0.articleId), TakeTarget(stored: $0.placement, target: $0.targetChunkId), $0.paragraphId.map(ParagraphID.init))
        }
    }

    /// Forgets a take that left nothing to keep.
    func abandonTake(_ chunk: ChunkID) throws(NarrationError) {
        try writing { sql in try PendingTakeRow.delete(sql, key: .text(chunk.rawValue)) }
    }

    /// Puts a finished take into the article where `target` says, in one transaction whose last
    /// step is `moveFiles(replacedChunks)` (rename the partial file, move replaced takes to the
    /// trash). If that throws, nothing changes. A take that reads a paragraph again replaces all
    /// of that paragraph's chunks (the first in place, the others leave the order).
    /// The article's export, if it had one, is withdrawn in the same transaction.
    /// - Returns: the take's index, the chunks it replaced, and the export withdrawn.
    func commitTake(
        _ chunk: Chunk, target: TakeTarget, moveFiles: @escaping @Sendable ([ChunkID]) throws -> Void
    ) throws(NarrationError) -> (index: ChunkIndex, replaced: [ChunkID], withdrawn: WithdrawnExport?) {
        try writing(holding: chunk.articleID) { sql in
            let before = try self.chunkRows(of: chunk.articleID, sql)
            var order = try self.order(of: chunk.articleID, sql)
            var replaced: [ChunkID] = []
            if case .replaceParagraph(let first) = target, let paragraph = chunk.paragraphID {
                let others = before.filter { $0.paragraphId == paragraph.rawValue && $0.id != first.rawValue }.map { ChunkID($0.id) }
                for other in others {
                    guard let index = order.index(of: other) else { continue }
                    _ = try order.remove(at: index)
                    try ChunkRow.delete(sql, key: .text(other.rawValue))
                    replaced.append(other)
                }
            }
            let placed = try order.place(chunk.id, target.placement(in: order))
            if let first = placed.replaced {
                try ChunkRow.delete(sql, key: .text(first.rawValue))
                replaced.insert(first, at: 0)
            }
            var row = ChunkRow(chunk, position: placed.index.position)
            if let paragraph = row.paragraphId, try !ParagraphRow.exists(sql, key: .text(paragraph)) {
                row.paragraphId = nil  // the text changed while the take was recorded: keep the take, bound to none
            }
            try row.insert(sql)
            try self.store(order, sql)
            try PendingTakeRow.delete(sql, key: .text(chunk.id.rawValue))
            let edit = Self.takeEdit(chunk, target: target, index: placed.index, replaced: replaced.count)
            try self.recordEdit(edit.kind, of: chunk.articleID, summary: edit.summary, before: before, sql)
            let withdrawn = try self.withdrawExport(of: chunk.articleID, sql)
            try moveFiles(replaced)
            return (placed.index, replaced, withdrawn)
        }
    }

    /// Removes the chunk at `index` from the order in one transaction whose last step is
    /// `moveFile(id)` (moving its file to the trash). The article's export, if it had one, is
    /// withdrawn in the same transaction.
    /// - Parameter expected: the chunk the caller showed at `index`; when another is there now
    ///   (another command changed the article meanwhile), nothing is deleted.
    /// - Returns: the removed chunk and the export withdrawn.
    /// - Throws: `chunkIndexOutOfRange`; `usage` when the chunk at `index` is not `expected`.
    func deleteChunk(
        at index: ChunkIndex, of article: Article, expected: ChunkID? = nil, moveFile: @escaping @Sendable (ChunkID) throws -> Void
    ) throws(NarrationError) -> (chunk: Chunk, withdrawn: WithdrawnExport?) {
        let (row, withdrawn) = try writing(holding: article.id) { sql -> (ChunkRow, WithdrawnExport?) in
            let before = try self.chunkRows(of: article.id, sql)
            var order = try self.order(of: article.id, sql)
            if let expected, order.index(of: expected) != index {
                throw NarrationError(.usage, "Chunk \(index) changed since the list was shown (another narrate command changed the article), so nothing was deleted: look at the list again.")
            }
            let removed = try order.remove(at: index)
            guard let row = before.first(where: { $0.id == removed.rawValue }) else {
                throw NarrationError(.catalogCorrupt, "The catalog lists chunk \(removed) in the order but holds no entry for it. \(Self.damagedFix)")
            }
            try row.delete(sql)
            try self.store(order, sql)
            let length = Timecode.precise(article.format.seconds(row.frames))
            try self.recordEdit(.delete, of: article.id, summary: "Deleted chunk \(index.number) (\(length)).", before: before, sql)
            let withdrawn = try self.withdrawExport(of: article.id, sql)
            try moveFile(removed)
            return (row, withdrawn)
        }
        return (try row.chunk(format: article.format), withdrawn)
    }

    /// The kind of edit a committed take is, and its sentence in the history.
    static func takeEdit(_ chunk: Chunk, target: TakeTarget, index: ChunkIndex, replaced: Int) -> (kind: Edit.Kind, summary: String) {
        let length = Timecode.precise(chunk.duration)
        if chunk.recovered { return (.recover, "Recovered an interrupted take as chunk \(index.number) (\(length)).") }
        switch target {
        case .append: return (.record, "Recorded chunk \(index.number) (\(length)).")
        case .insertBefore, .insertAfter: return (.insert, "Inserted chunk \(index.number) (\(length)).")
        case .replace, .punch: return (.rerecord, "Re-recorded chunk \(index.number) (\(length)).")
        case .replaceParagraph:
            let others = replaced > 1 ? " in place of its \(replaced) chunks" : ""
            return (.reread, "Read a paragraph again as chunk \(index.number)\(others) (\(length)).")
        }
    }

    /// A number that changes whenever another connection (another narrate command) has changed
    /// the catalog since this one last looked; this process's own changes leave it alone. Cheap:
    /// SQLite's `PRAGMA data_version`, no table is read. PostgreSQL has no such number: a
    /// catalog there throws `catalogCorrupt` saying so, and a studio watching it does not refresh
    /// by itself.
    public func dataVersion() throws(NarrationError) -> Int {
        try readSQLite { try Int.fetchOne($0, sql: "PRAGMA data_version") ?? 0 }
    }

    // MARK: Access

    /// Runs `body` on the SQLite file itself, for what only SQLite has (its pages' own check,
    /// its data version, its online backup).
    func readSQLite<T>(_ body: @escaping (Database) throws -> T) throws(NarrationError) -> T {
        do { return try sqliteDatabase().read(body) } catch { throw Self.translate(error, path: path) }
    }

    func sqliteDatabase() throws(NarrationError) -> DatabaseQueue {
        guard let database else {
            throw NarrationError(
                .catalogCorrupt, "This part of narrate works on a SQLite catalog only, and \(path) is kept by PostgreSQL.")
        }
        return database
    }

    /// Runs `body` in a transaction of the catalog's engine that only reads.
    func reading<T>(_ body: (any SQLTransaction) throws -> T) throws(NarrationError) -> T {
        try transaction(writes: false, body)
    }

    /// Runs `body` in a transaction of the catalog's engine: all of it is written, or, when it
    /// throws (our own errors too), none of it.
    func writing<T>(_ body: (any SQLTransaction) throws -> T) throws(NarrationError) -> T {
        try transaction(writes: true, body)
    }

    /// `writing`, holding the article's row first, so that two edits of one article (from two
    /// hosts, or two threads of one) run one after the other: each reads the chunk order the
    /// other left, never one that changes under it. SQLite runs one writer at a time anyway.
    func writing<T>(holding article: ArticleID, _ body: (any SQLTransaction) throws -> T) throws(NarrationError) -> T {
        try transaction(writes: true) { sql in
            try hold(article, sql)
            return try body(sql)
        }
    }

    /// Holds the article's row until the transaction ends (see `writing(holding:_:)`).
    func hold(_ article: ArticleID, _ sql: any SQLTransaction) throws {
        guard engine.dialect == .postgreSQL else { return }  // SQLite: one writer at a time already
        _ = try sql.rows("SELECT id FROM article WHERE id = ?" + engine.dialect.holdRowForWrite, .text(article.rawValue))
    }

    private func transaction<T>(writes: Bool, _ body: (any SQLTransaction) throws -> T) throws(NarrationError) -> T {
        // The engine's transactions carry its own errors only: another one (a refusal of ours)
        // is kept aside, and the transaction given up.
        var ours: (any Error)?
        let run = { (sql: any SQLTransaction) throws(SQLEngineError) -> T in
            do {
                return try body(sql)
            } catch let error as SQLEngineError {
                throw error
            } catch {
                ours = error
                throw .givenUp
            }
        }
        do {
            return try writes ? engine.write(run) : engine.read(run)
        } catch {
            throw Self.translate(ours ?? error, path: path, dialect: engine.dialect)
        }
    }

    /// Our own errors pass through; SQLite's become sentences about the catalog.
    /// What to do about a damaged catalog, ending every sentence that reports one.
    static let damagedFix = "No recording was changed; move the catalog aside to start a new one, the chunk files stay under the articles folder."

    /// `text` for an error sentence: on one line, at most `limit` characters.
    static func quoted(_ text: String, limit: Int = 40) -> String {
        let line = text.map { $0.isNewline || $0 == "\t" ? " " : $0 }
        return line.count > limit ? String(line.prefix(limit - 1)) + "…" : String(line)
    }

    static func translate(_ error: any Error, path: String, dialect: SQLDialect = .sqlite) -> NarrationError {
        if let error = error as? NarrationError { return error }
        if let error = error as? SQLEngineError { return translate(error, path: path, dialect: dialect) }
        guard let databaseError = error as? DatabaseError else {
            // A stored value of the wrong type: GRDB describes it, then dumps the whole row.
            let description = String(describing: error)
            let what = description.components(separatedBy: ", column index:").first ?? description
            return NarrationError(
                .catalogCorrupt,
                "The catalog \(path) holds a value narrate never writes (\(quoted(what, limit: 120))). \(damagedFix)")
        }
        let subject = NarrationError.Subject.file(path)
        let cause = NarrationError.Cause.database(code: databaseError.extendedResultCode.rawValue)
        switch databaseError.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            return NarrationError(
                .catalogCorrupt,
                "The catalog \(path) is damaged (\(databaseError.message ?? "not a database")). \(damagedFix)",
                subject: subject, cause: cause)
        case .SQLITE_FULL:
            return NarrationError(
                .diskFull, "The disk holding the catalog \(path) is full. Free some space and try again.", subject: subject, cause: cause)
        case .SQLITE_CANTOPEN, .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_IOERR:
            return NarrationError(
                .dataRootNotWritable,
                "Cannot use the catalog \(path) (\(databaseError.message ?? "cannot open")). Check that its folder is writable, or set NARRATE_HOME.",
                subject: subject, cause: cause)
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return NarrationError(
                .articleBusy, "The catalog \(path) is locked by another narrate command. Try again in a moment.", subject: subject, cause: cause)
        default:
            return NarrationError(
                .catalogCorrupt, "The catalog \(path) could not be used: \(databaseError.message ?? "\(databaseError.resultCode)").",
                subject: subject, cause: cause)
        }
    }

    /// An engine's error as a sentence about the catalog at `path` (a file, or a PostgreSQL
    /// server's address).
    static func translate(_ error: SQLEngineError, path: String, dialect: SQLDialect = .sqlite) -> NarrationError {
        let subject = NarrationError.Subject.file(path)
        switch error {
        case .busy:
            return NarrationError(.articleBusy, "The catalog \(path) is locked by another narrate command. Try again in a moment.", subject: subject)
        case .unexpectedValue(let column, let found):
            return NarrationError(.catalogCorrupt, "The catalog \(path) holds a value narrate never writes (\(column): \(quoted(found, limit: 60))). \(damagedFix)", subject: subject)
        case .plantedLink(let link):
            return .foreignFile(link, .symbolicLink)
        case .storageFull:
            return NarrationError(.diskFull, "The disk holding the catalog \(path) is full. Free some space and try again.", subject: subject)
        case .unreachable(_, let reason) where dialect == .postgreSQL:
            return NarrationError(
                .dataRootNotWritable, "Cannot reach the catalog \(path) (\(reason)). Check that the PostgreSQL server runs and that its address is right.",
                subject: subject)
        case .refused(_, let reason) where dialect == .postgreSQL:
            return NarrationError(
                .dataRootNotWritable, "The catalog \(path) refused the login (\(reason)). Check the user, the password and the database name.",
                subject: subject)
        case .unreachable(_, let reason):
            return NarrationError(
                .dataRootNotWritable, "Cannot use the catalog \(path) (\(reason)). Check that its folder is writable, or set NARRATE_HOME.",
                subject: subject)
        case .refused, .configuration:
            return NarrationError(.dataRootNotWritable, "Cannot use the catalog \(path): \(error.message)", subject: subject)
        case .statement, .constraint, .givenUp:
            return NarrationError(.catalogCorrupt, "The catalog \(path) could not be used: \(error.message)", subject: subject)
        }
    }
}
