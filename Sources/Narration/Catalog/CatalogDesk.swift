import Foundation
public import NarrationCore
import SQLEngines

/// The catalog as a reading service's `DeskStore`, on either engine: the table `desk_article`
/// added by the step `service-desk`, one row per article on the desk beside its row in
/// `article` (snake_case names, `BIGINT` seconds since 1970, booleans as 0 and 1, `CHECK`s that
/// repeat the desk's rules).
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

    /// The listing's order as an index (`deskOrder`, term for term): a page of the whole desk,
    /// or of a filter the state index does not narrow, walks the index and stops after the page
    /// instead of sorting every article. With twenty thousand articles a page deep in the
    /// desk took 55 ms to sort, 10 ms with the index (`Scripts/bench service`).
    static let deskUrgencyIndex =
        "CREATE INDEX desk_article_by_urgency ON desk_article (priority DESC, (deadline_at IS NULL), deadline_at, added_at, article_id)"

    public func addEntry(_ entry: DeskEntry, audit: AuditEntry) throws(NarrationError) {
        try writing { sql in
            guard try sql.row("SELECT article_id FROM desk_article WHERE article_id = ?", .text(entry.article.rawValue)) == nil else {
                throw NarrationError.usage("The article \(entry.article) is on the desk already.")
            }
            try sql.execute(
                """
                INSERT INTO desk_article (article_id, section, deadline_at, deadline_has_time, listen_until_at, listen_until_has_time,
                    priority, state, assignee, taking, added_at, changed_at, version)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [.text(entry.article.rawValue)] + Self.columns(of: entry) + [Self.seconds(entry.addedAt), Self.seconds(entry.changedAt), .integer(entry.version)])
            try Self.append(audit, sql)
        }
    }

    public func entry(_ article: ArticleID) throws(NarrationError) -> DeskEntry? {
        try reading { sql in try sql.row(Self.deskQuery() + " WHERE d.article_id = ?", .text(article.rawValue)).map(Self.deskEntry) }
    }

    public func entries(_ filter: DeskFilter) throws(NarrationError) -> [DeskEntry] {
        let (condition, arguments) = Self.condition(filter)
        let query = Self.deskQuery() + " WHERE " + condition + Self.deskOrder
        return try reading { sql in try sql.rows(query, arguments).map(Self.deskEntry) }
    }

    /// One page of `entries(filter)` and how many there are in all, both in SQL: a page of a
    /// desk of twenty thousand joins a hundred rows to their articles, not twenty thousand. The
    /// page is cut from `desk_article` alone (the condition asks `article` through subqueries the
    /// engine reads once), walking the index of the listing's order (`deskUrgencyIndex`, which
    /// PostgreSQL is told to read as a catalog in memory is read: `readIndexesAsMemory`); only
    /// its rows are joined.
    public func entries(_ filter: DeskFilter, offset: Int, limit: Int) throws(NarrationError) -> (entries: [DeskEntry], total: Int) {
        let (condition, arguments) = Self.condition(filter)
        let count = "SELECT COUNT(*) AS total FROM desk_article d WHERE " + condition
        let page = "SELECT * FROM desk_article d WHERE " + condition + Self.deskOrder + " LIMIT ? OFFSET ?"
        let query = Self.deskQuery(rows: "(\(page))") + Self.deskOrder
        let setting = engine.dialect.readIndexesAsMemory
        return try reading { sql in
            if let setting { _ = try sql.execute(setting, []) }
            let total = try sql.row(count, arguments)?.int("total") ?? 0
            let rows = try sql.rows(query, arguments + [.integer(max(0, limit)), .integer(max(0, offset))])
            return (try rows.map(Self.deskEntry), total)
        }
    }

    /// The listing's order (`DeskFilter.precedes`), which `deskUrgencyIndex` repeats.
    private static let deskOrder = " ORDER BY d.priority DESC, d.deadline_at IS NULL, d.deadline_at, d.added_at, d.article_id"

    /// The SQL condition `filter` sets (`DeskFilter.admits`) on `desk_article d`, with its
    /// arguments. What it asks of the article (not in the trash, its publication) it asks through
    /// subqueries, so that a page is cut before any row is joined.
    private static func condition(_ filter: DeskFilter) -> (String, [SQLValue]) {
        var conditions = ["d.article_id NOT IN (SELECT x.id FROM article x WHERE x.deletedAt IS NOT NULL)"]
        var arguments: [SQLValue] = []
        if let publication = filter.publication {
            conditions.append("d.article_id IN (SELECT x.id FROM article x WHERE x.publication = ?)")
            arguments.append(.text(publication))
        }
        if let state = filter.state {
            conditions.append("d.state = ?")
            arguments.append(.text(state.rawValue))
        }
        if let volunteer = filter.volunteer {
            conditions.append("d.assignee = ?")
            arguments.append(.text(volunteer.rawValue))
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
        try writing { sql in
            // The check and the change in one statement: of two changes from the same reading,
            // the second finds the version moved on and changes nothing.
            let changed = try sql.execute(
                """
                UPDATE desk_article SET section = ?, deadline_at = ?, deadline_has_time = ?, listen_until_at = ?, listen_until_has_time = ?,
                    priority = ?, state = ?, assignee = ?, taking = ?, changed_at = ?, version = version + 1
                WHERE article_id = ? AND version = ?
                """,
                Self.columns(of: entry) + [Self.seconds(entry.changedAt), .text(entry.article.rawValue), .integer(entry.version)])
            guard changed == 1 else { return false }
            try Self.append(audit, sql)
            return true
        }
    }

    // MARK: Rows

    /// Records with their articles' titles and publications, from `rows` (the table, or a
    /// subquery cutting a page of it) as `d`.
    private static func deskQuery(rows: String = "desk_article") -> String {
        """
        SELECT d.article_id, a.title, a.publication, d.section, d.deadline_at, d.deadline_has_time, d.listen_until_at, d.listen_until_has_time,
               d.priority, d.state, d.assignee, d.taking, d.added_at, d.changed_at, d.version
        FROM \(rows) d JOIN article a ON a.id = d.article_id
        """
    }

    /// The columns from `section` to `taking`, in the order the statements above name them.
    private static func columns(of entry: DeskEntry) -> [SQLValue] {
        [
            .text(entry.section), entry.deadline.map { seconds($0.instant) } ?? .null, .boolean(entry.deadline?.hasTime ?? false),
            entry.listenUntil.map { seconds($0.instant) } ?? .null, .boolean(entry.listenUntil?.hasTime ?? false),
            .integer(entry.priority.rawValue), .text(entry.state.rawValue), entry.assignee.map { .text($0.rawValue) } ?? .null,
            entry.taking.map { .text($0.rawValue) } ?? .null,
        ]
    }

    private static func deskEntry(_ row: SQLRow) throws -> DeskEntry {
        let stateText = try row.text("state")
        let takingText = try row.optionalText("taking")
        let priorityValue = try row.int("priority")
        guard let state = DeskState(rawValue: stateText), let priority = DeskPriority(rawValue: priorityValue) else {
            throw NarrationError(.catalogCorrupt, "The catalog holds a desk state or priority narrate never writes (\(quoted(stateText)), \(priorityValue)). \(damagedFix)")
        }
        let taking = try takingText.map { text in
            guard let taking = DeskTaking(rawValue: text) else {
                throw NarrationError(.catalogCorrupt, "The catalog holds a way of taking an article narrate never writes (\(quoted(text))). \(damagedFix)")
            }
            return taking
        }
        let deadline = try row.optionalInteger("deadline_at").map { DeskTime(instant: date($0), hasTime: try row.boolean("deadline_has_time")) }
        let listenUntil = try row.optionalInteger("listen_until_at").map { DeskTime(instant: date($0), hasTime: try row.boolean("listen_until_has_time")) }
        return DeskEntry(
            article: ArticleID(try row.text("article_id")), title: try row.text("title"), publication: try row.text("publication"),
            section: try row.text("section"), deadline: deadline, listenUntil: listenUntil, priority: priority, state: state,
            assignee: try row.optionalText("assignee").map(name), taking: taking, addedAt: date(try row.integer("added_at")),
            changedAt: date(try row.integer("changed_at")), version: try row.integer("version"))
    }
}
