import Foundation

/// The steps that make a catalog's tables, run in order once each on either engine: every host
/// that opens the catalog runs those not yet recorded in `catalog_migration`, each step in one
/// transaction with its record, so a step is done whole or not at all.
///
/// Two hosts starting at once do not both run a step: on PostgreSQL each step's transaction
/// first takes one advisory lock (`pg_advisory_xact_lock`), and SQLite has one writer at a time.
///
/// Our own, small, rather than GRDB's `DatabaseMigrator`, which runs on SQLite only. Catalogs
/// that GRDB's migrator made name their steps in `grdb_migrations`; a step named there counts as
/// run (`earlierRecords`), so those catalogs go on from where they were.
public struct SQLMigrator: Sendable {
    public struct Step: Sendable {
        public let name: String
        /// The statements, written for the engine's dialect.
        public let statements: @Sendable (SQLDialect) -> [String]

        public init(_ name: String, _ statements: @escaping @Sendable (SQLDialect) -> [String]) {
            self.name = name
            self.statements = statements
        }
    }

    /// A table in which an earlier migrator recorded the steps it ran, by name in `column`.
    public struct EarlierRecords: Sendable {
        public let table: String
        public let column: String

        public init(table: String, column: String) {
            self.table = table
            self.column = column
        }
    }

    public private(set) var steps: [Step] = []
    public let earlierRecords: EarlierRecords?

    public init(earlierRecords: EarlierRecords? = nil) {
        self.earlierRecords = earlierRecords
    }

    public mutating func register(_ name: String, _ statements: @escaping @Sendable (SQLDialect) -> [String]) {
        precondition(!steps.contains { $0.name == name }, "a step is registered once")
        steps.append(Step(name, statements))
    }

    /// Runs the steps not yet run on `engine`; with `last`, only up to the step of that name
    /// (to make a catalog as an older narrate left it).
    /// - Returns: the names of the steps this call ran.
    @discardableResult
    public func migrate(_ engine: any SQLEngine, upTo last: String? = nil) throws(SQLEngineError) -> [String] {
        // Most openings find nothing to do: one read says so, without taking the write lock.
        let waiting = Set(try pending(on: engine))
        guard !waiting.isEmpty else { return [] }
        var ran: [String] = []
        let end = last.flatMap { name in steps.firstIndex { $0.name == name } }.map { $0 + 1 } ?? steps.count
        precondition(last == nil || end <= steps.count && steps[end - 1].name == last, "the last step is one of the steps")
        for step in steps[..<end] where waiting.contains(step.name) {
            let done = try engine.write { sql throws(SQLEngineError) -> Bool in
                if engine.dialect == .postgreSQL { _ = try sql.rows("SELECT pg_advisory_xact_lock(7243101)") }
                try sql.execute("CREATE TABLE IF NOT EXISTS catalog_migration (name TEXT PRIMARY KEY, ranAt \(engine.dialect.realType) NOT NULL)")
                guard try !self.hasRun(step.name, sql, engine.dialect) else { return true }
                for statement in step.statements(engine.dialect) { try sql.execute(statement) }
                try sql.execute("INSERT INTO catalog_migration (name, ranAt) VALUES (?, ?)", .text(step.name), .real(Date().timeIntervalSince1970))
                return false
            }
            if !done { ran.append(step.name) }
        }
        return ran
    }

    /// The names of the steps not yet run on `engine`, found without writing anything (for a
    /// catalog opened only to read).
    public func pending(on engine: any SQLEngine) throws(SQLEngineError) -> [String] {
        try engine.read { sql throws(SQLEngineError) -> [String] in
            var pending: [String] = []
            for step in steps where try !self.hasRun(step.name, sql, engine.dialect) { pending.append(step.name) }
            return pending
        }
    }

    private func hasRun(_ name: String, _ sql: any SQLTransaction, _ dialect: SQLDialect) throws(SQLEngineError) -> Bool {
        if try Self.tableExists("catalog_migration", sql, dialect),
           try sql.row("SELECT name FROM catalog_migration WHERE name = ?", .text(name)) != nil {
            return true
        }
        guard let earlierRecords, try Self.tableExists(earlierRecords.table, sql, dialect) else { return false }
        return try sql.row("SELECT \(earlierRecords.column) FROM \(earlierRecords.table) WHERE \(earlierRecords.column) = ?", .text(name)) != nil
    }

    private static func tableExists(_ table: String, _ sql: any SQLTransaction, _ dialect: SQLDialect) throws(SQLEngineError) -> Bool {
        switch dialect {
        case .sqlite: try sql.row("SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?", .text(table)) != nil
        case .postgreSQL: try sql.row("SELECT to_regclass(?) IS NOT NULL AS found", .text(table))?.integer("found") == 1
        }
    }
}
