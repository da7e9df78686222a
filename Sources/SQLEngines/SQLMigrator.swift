import Foundation

/// The steps that make a catalog's tables, run in order once each on either engine: every host
/// that opens the catalog runs those not yet recorded in `catalog_migration`, each step in one
/// transaction with its record, so a step is done whole or not at all.
///
/// Two hosts starting at once do not both run a step: on PostgreSQL each step's transaction
/// first takes one advisory lock (`pg_advisory_xact_lock`), and SQLite has one writer at a time.
///
/// Our own, small, rather than GRDB's `DatabaseMigrator`, which runs on SQLite only.
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

    public private(set) var steps: [Step] = []

    public init() {}

    public mutating func register(_ name: String, _ statements: @escaping @Sendable (SQLDialect) -> [String]) {
        precondition(!steps.contains { $0.name == name }, "a step is registered once")
        steps.append(Step(name, statements))
    }

    /// Runs the steps not yet run on `engine`.
    /// - Returns: the names of the steps this call ran.
    @discardableResult
    public func migrate(_ engine: any SQLEngine) throws(SQLEngineError) -> [String] {
        var ran: [String] = []
        for step in steps {
            let done = try engine.write { sql throws(SQLEngineError) -> Bool in
                if engine.dialect == .postgreSQL { _ = try sql.rows("SELECT pg_advisory_xact_lock(7243101)") }
                try sql.execute("CREATE TABLE IF NOT EXISTS catalog_migration (name TEXT PRIMARY KEY, ranAt \(engine.dialect.realType) NOT NULL)")
                guard try sql.row("SELECT name FROM catalog_migration WHERE name = ?", .text(step.name)) == nil else { return true }
                for statement in step.statements(engine.dialect) { try sql.execute(statement) }
                try sql.execute("INSERT INTO catalog_migration (name, ranAt) VALUES (?, ?)", .text(step.name), .real(Date().timeIntervalSince1970))
                return false
            }
            if !done { ran.append(step.name) }
        }
        return ran
    }
}
