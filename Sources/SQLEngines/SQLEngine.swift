/// Where the catalog's rows live: one SQLite file (`SQLiteEngine`, the embedded default) or a
/// PostgreSQL server that several hosts share (`PostgreSQLEngine`).
///
/// The catalog writes its statements once, in the SQL both engines understand, with `?` for each
/// argument; where the two differ (a type in a table's definition, taking a row no other host is
/// taking), it asks the engine's `dialect`. Every read and write runs in a transaction: a `write`
/// that throws leaves nothing behind.
///
/// Calls block their thread until the engine answers: they come from the catalog's callers on
/// blocking-work threads (`BlockingWork`), never from an event loop or the concurrency pool.
public protocol SQLEngine: Sendable {
    /// How this engine's SQL differs where the catalog must say it differently.
    var dialect: SQLDialect { get }

    /// Runs `body` in a transaction that may write; commits if it returns, rolls back if it throws.
    /// Writes of all hosts and threads are serialized where the engine needs it to keep the
    /// catalog's rules (SQLite: one writer; PostgreSQL: row locks the statements take).
    func write<T>(_ body: (any SQLTransaction) throws(SQLEngineError) -> T) throws(SQLEngineError) -> T

    /// Runs `body` in a transaction that only reads, seeing one consistent state.
    func read<T>(_ body: (any SQLTransaction) throws(SQLEngineError) -> T) throws(SQLEngineError) -> T

    /// Ends the engine's connections; later calls throw `unreachable`.
    func close()
}

/// A transaction under way: statements run in it in order.
public protocol SQLTransaction {
    /// Runs a statement that returns no rows; `?` marks each of `arguments` in order.
    /// - Returns: how many rows it inserted, changed or deleted.
    @discardableResult
    func execute(_ sql: String, _ arguments: [SQLValue]) throws(SQLEngineError) -> Int

    /// Runs a query; `?` marks each of `arguments` in order.
    func rows(_ sql: String, _ arguments: [SQLValue]) throws(SQLEngineError) -> [SQLRow]
}

extension SQLTransaction {
    @discardableResult
    public func execute(_ sql: String, _ arguments: SQLValue...) throws(SQLEngineError) -> Int {
        try execute(sql, arguments)
    }

    public func rows(_ sql: String, _ arguments: SQLValue...) throws(SQLEngineError) -> [SQLRow] {
        try rows(sql, arguments)
    }

    /// The query's first row; nil when it has none.
    public func row(_ sql: String, _ arguments: SQLValue...) throws(SQLEngineError) -> SQLRow? {
        try rows(sql, arguments).first
    }

    /// The query's first row; nil when it has none.
    public func row(_ sql: String, _ arguments: [SQLValue]) throws(SQLEngineError) -> SQLRow? {
        try rows(sql, arguments).first
    }
}

/// Where the two engines' SQL differs.
public enum SQLDialect: Sendable, Equatable {
    case sqlite
    case postgreSQL

    /// The column type of bytes.
    public var blobType: String { self == .sqlite ? "BLOB" : "BYTEA" }

    /// The column type of a real number.
    public var realType: String { self == .sqlite ? "REAL" : "DOUBLE PRECISION" }

    /// Ends a `SELECT` of rows to change, so that two hosts never take the same row: PostgreSQL
    /// locks the rows and passes over those another transaction holds; SQLite has one writer at
    /// a time, so its rows are never held by another.
    public var takeRowsNoOtherHolds: String { self == .sqlite ? "" : " FOR UPDATE SKIP LOCKED" }

    /// Ends a `SELECT` of a row whose dependants the transaction changes, so that another host's
    /// transaction doing the same waits until this one ends: PostgreSQL holds the row (`FOR NO
    /// KEY UPDATE`, which lets rows that merely refer to it be written meanwhile); SQLite has one
    /// writer at a time already.
    public var holdRowForWrite: String { self == .sqlite ? "" : " FOR NO KEY UPDATE" }

    /// A statement that, for the rest of its transaction, has the engine read rows through an
    /// index as readily as in sequence, as a catalog that stays in memory is read; nil when the
    /// engine does so already. PostgreSQL's default cost of a random read (`random_page_cost`
    /// 4, made for spinning disks) has it sort all twenty thousand rows of a desk to cut a deep
    /// page of the listing (60 ms here) rather than walk the index kept in the listing's order
    /// (10 ms); `SET LOCAL` changes this transaction only, not the server's or the operator's
    /// setting. SQLite walks the index anyway.
    public var readIndexesAsMemory: String? { self == .sqlite ? nil : "SET LOCAL random_page_cost = 1.1" }
}
