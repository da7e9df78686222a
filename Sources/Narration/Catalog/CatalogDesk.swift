import Foundation
import GRDB
public import NarrationCore

/// The catalog as a reading service's `DeskStore`: the table `desk_article` added by the
/// migration `service-desk`, one row per article on the desk beside its row in `article`, in
/// SQL that SQLite and PostgreSQL both accept (snake_case names, `BIGINT` seconds since 1970,
/// `BOOLEAN`, `CHECK`s that repeat the engine's rules).
extension Catalog: DeskStore {
    static let deskSchema = [
        """
        CREATE TABLE desk_article (
            article_id TEXT NOT NULL PRIMARY KEY REFERENCES article (id) ON DELETE CASCADE,
            section TEXT NOT NULL,
            deadline_at BIGINT,
            deadline_has_time BOOLEAN NOT NULL,
            listen_until_at BIGINT,
            listen_until_has_time BOOLEAN NOT NULL,
            priority INTEGER NOT NULL CHECK (priority BETWEEN 0 AND 3),
            state TEXT NOT NULL CHECK (state IN ('open', 'assigned', 'recording', 'ready-for-review', 'pickups-requested', 'approved', 'published', 'expired', 'withdrawn')),
            assignee TEXT REFERENCES account (name),
            taking TEXT CHECK (taking IN ('assigned', 'claimed')),
            added_at BIGINT NOT NULL,
            changed_at BIGINT NOT NULL,
            version BIGINT NOT NULL,
            CHECK ((assignee IS NULL) = (taking IS NULL))
        )
        """,
        "CREATE INDEX desk_article_by_state ON desk_article (state)",
        "CREATE INDEX desk_article_by_assignee ON desk_article (assignee)",
        "CREATE INDEX desk_article_by_deadline ON desk_article (deadline_at)",
    ]

    static func registerDeskMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("service-desk") { db in
            for statement in deskSchema { try db.execute(sql: statement) }
        }
    }

    /// The listing's order as an index (`deskOrder`, term for term): a page of the whole desk,
    /// or of a filter the state index does not narrow, walks the index and stops after the page
    /// instead of sorting every article. With twenty thousand articles a page deep in the
    /// desk took 55 ms to sort, 10 ms with the index (`Scripts/bench service`).
    static let deskUrgencyIndex =
        "CREATE INDEX desk_article_by_urgency ON desk_article (priority DESC, (deadline_at IS NULL), deadline_at, added_at, article_id)"

    /// Registered after every other migration, so that catalogs that have the desk already get
    /// the index too.
    static func registerDeskUrgencyMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("service-desk-urgency") { db in
            try db.execute(sql: deskUrgencyIndex)
        }
    }

    public func addEntry(_ entry: DeskEntry, audit: AuditEntry) throws(NarrationError) {
        try write { db in
            guard try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM desk_article WHERE article_id = ?", arguments: [entry.article.rawValue]) == 0 else {
                throw NarrationError.usage("The article \(entry.article) is on the desk already.")
            }
            try db.execute(
                sql: """
                    INSERT INTO desk_article (article_id, section, deadline_at, deadline_has_time, listen_until_at, listen_until_has_time,
                        priority, state, assignee, taking, added_at, changed_at, version)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: StatementArguments([entry.article.rawValue] + Self.columns(of: entry) + [Self.seconds(entry.addedAt), Self.seconds(entry.changedAt), entry.version]))
            try Self.append(audit, db)
        }
    }

    public func entry(_ article: ArticleID) throws(NarrationError) -> DeskEntry? {
        try read { db in
            try Row.fetchOne(db, sql: Self.deskQuery + " WHERE d.article_id = ?", arguments: [article.rawValue]).map(Self.deskEntry)
        }
    }

    public func entries(_ filter: DeskFilter) throws(NarrationError) -> [DeskEntry] {
        let (condition, arguments) = Self.condition(filter)
        let sql = Self.deskQuery + " WHERE " + condition + Self.deskOrder
        return try read { db in
            try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map(Self.deskEntry)
        }
    }

    /// One page of `entries(filter)` and how many there are in all, both in SQL: a page of a
    /// desk of twenty thousand reads a hundred rows, not twenty thousand.
    public func entries(_ filter: DeskFilter, offset: Int, limit: Int) throws(NarrationError) -> (entries: [DeskEntry], total: Int) {
        let (condition, arguments) = Self.condition(filter)
        let count = "SELECT COUNT(*) FROM desk_article d JOIN article a ON a.id = d.article_id WHERE " + condition
        let sql = Self.deskQuery + " WHERE " + condition + Self.deskOrder + " LIMIT ? OFFSET ?"
        return try read { db in
            let total = try Int.fetchOne(db, sql: count, arguments: StatementArguments(arguments)) ?? 0
            let rows = try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments + [max(0, limit), max(0, offset)]))
            return (try rows.map(Self.deskEntry), total)
        }
    }

    /// The listing's order (`DeskFilter.precedes`), which `deskUrgencyIndex` repeats.
    private static let deskOrder = " ORDER BY d.priority DESC, d.deadline_at IS NULL, d.deadline_at, d.added_at, d.article_id"

    /// The SQL condition `filter` sets (`DeskFilter.admits`), with its arguments.
    private static func condition(_ filter: DeskFilter) -> (String, [(any DatabaseValueConvertible)?]) {
        var conditions = ["a.deletedAt IS NULL"]
        var arguments: [(any DatabaseValueConvertible)?] = []
        if let publication = filter.publication {
            conditions.append("a.publication = ?")
            arguments.append(publication)
        }
        if let state = filter.state {
            conditions.append("d.state = ?")
            arguments.append(state.rawValue)
        }
        if let volunteer = filter.volunteer {
            conditions.append("d.assignee = ?")
            arguments.append(volunteer.rawValue)
        }
        if let dueBefore = filter.dueBefore {
            conditions.append("d.deadline_at <= ?")
            arguments.append(seconds(dueBefore))
        }
        if let lateAt = filter.lateAt {
            conditions.append("d.deadline_at <= ? AND d.state NOT IN ('approved', 'published', 'expired', 'withdrawn')")
            arguments.append(seconds(lateAt))
        }
        return (conditions.joined(separator: " AND "), arguments)
    }

    public func replaceEntry(_ entry: DeskEntry, audit: AuditEntry) throws(NarrationError) -> Bool {
        try write { db in
            // The check and the change in one statement: of two changes from the same reading,
            // the second finds the version moved on and changes nothing.
            try db.execute(
                sql: """
                    UPDATE desk_article SET section = ?, deadline_at = ?, deadline_has_time = ?, listen_until_at = ?, listen_until_has_time = ?,
                        priority = ?, state = ?, assignee = ?, taking = ?, changed_at = ?, version = version + 1
                    WHERE article_id = ? AND version = ?
                    """,
                arguments: StatementArguments(Self.columns(of: entry) + [Self.seconds(entry.changedAt), entry.article.rawValue, entry.version]))
            guard db.changesCount == 1 else { return false }
            try Self.append(audit, db)
            return true
        }
    }

    // MARK: Rows

    /// A record with its article's title and publication.
    private static let deskQuery = """
        SELECT d.article_id, a.title, a.publication, d.section, d.deadline_at, d.deadline_has_time, d.listen_until_at, d.listen_until_has_time,
               d.priority, d.state, d.assignee, d.taking, d.added_at, d.changed_at, d.version
        FROM desk_article d JOIN article a ON a.id = d.article_id
        """

    /// The columns from `section` to `taking`, in the order the statements above name them.
    private static func columns(of entry: DeskEntry) -> [(any DatabaseValueConvertible)?] {
        [
            entry.section, entry.deadline.map { seconds($0.instant) }, entry.deadline?.hasTime ?? false,
            entry.listenUntil.map { seconds($0.instant) }, entry.listenUntil?.hasTime ?? false,
            entry.priority.rawValue, entry.state.rawValue, entry.assignee?.rawValue, entry.taking?.rawValue,
        ]
    }

    private static func deskEntry(_ row: Row) throws -> DeskEntry {
        let stateText: String = row[9]
        let takingText: String? = row[11]
        let priorityValue: Int = row[8]
        guard let state = DeskState(rawValue: stateText), let priority = DeskPriority(rawValue: priorityValue) else {
            throw NarrationError(.catalogCorrupt, "The catalog holds a desk state or priority narrate never writes (\(quoted(stateText)), \(priorityValue)). \(damagedFix)")
        }
        let taking = try takingText.map { text in
            guard let taking = DeskTaking(rawValue: text) else {
                throw NarrationError(.catalogCorrupt, "The catalog holds a way of taking an article narrate never writes (\(quoted(text))). \(damagedFix)")
            }
            return taking
        }
        let deadline = (row[4] as Int64?).map { DeskTime(instant: date($0), hasTime: row[5]) }
        let listenUntil = (row[6] as Int64?).map { DeskTime(instant: date($0), hasTime: row[7]) }
        return DeskEntry(
            article: ArticleID(row[0]), title: row[1], publication: row[2], section: row[3], deadline: deadline, listenUntil: listenUntil,
            priority: priority, state: state, assignee: try (row[10] as String?).map(name), taking: taking, addedAt: date(row[12]),
            changedAt: date(row[13]), version: row[14])
    }
}
