import Foundation
package import GRDB

/// The catalog in one SQLite file (GRDB): the embedded default, for one host.
///
/// One connection, so transactions run one at a time, writes and reads alike; another process
/// on the same file waits up to `busyTimeout` for SQLite's lock.
public final class SQLiteEngine: SQLEngine {
    public let dialect = SQLDialect.sqlite
    public let path: String
    private let database: DatabaseQueue

    /// Opens (and if new, creates) the SQLite file at `path`.
    /// - Throws: `plantedLink` when the file or its journal is a symbolic link; `unreachable`
    ///   when the file cannot be opened as a database.
    public init(path: String, busyTimeout: Double = 10) throws(SQLEngineError) {
        self.path = path
        // SQLite follows links when it opens a database and its journal by name, and would write
        // into the link's target: refused before anything is opened (as `Catalog` does).
        for name in [path, path + "-journal", path + "-wal", path + "-shm"] {
            if (try? FileManager.default.attributesOfItem(atPath: name)[.type] as? FileAttributeType) == .typeSymbolicLink {
                throw .plantedLink(name)
            }
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.foreignKeysEnabled = true
        do {
            database = try DatabaseQueue(path: path, configuration: configuration)
        } catch {
            throw .unreachable(path, reason: "\(error)")
        }
    }

    /// An engine over a queue its caller opened and keeps using: for the catalog, which still
    /// speaks GRDB for what only SQLite has (the online backup, the integrity check, the data
    /// version). Both run on the one connection, one transaction at a time.
    package init(sharing database: DatabaseQueue, path: String) {
        self.path = path
        self.database = database
    }

    public func write<T>(_ body: (any SQLTransaction) throws(SQLEngineError) -> T) throws(SQLEngineError) -> T {
        try run { try database.write { db in try Self.body(body, db, path: path) } }
    }

    public func read<T>(_ body: (any SQLTransaction) throws(SQLEngineError) -> T) throws(SQLEngineError) -> T {
        try run { try database.read { db in try Self.body(body, db, path: path) } }
    }

    public func close() {
        try? database.close()
    }

    /// Runs `body` with a transaction over `db`, carrying its typed error through GRDB's untyped closure.
    private static func body<T>(_ body: (any SQLTransaction) throws(SQLEngineError) -> T, _ db: Database, path: String) throws -> T {
        do {
            return try body(Transaction(db: db, path: path))
        } catch {
            throw Carried(error: error)
        }
    }

    private func run<T>(_ work: () throws -> T) throws(SQLEngineError) -> T {
        do {
            return try work()
        } catch let carried as Carried {
            throw carried.error
        } catch let error as DatabaseError {
            throw translate(error, sql: error.sql ?? "")
        } catch {
            throw .unreachable(path, reason: "\(error)")
        }
    }

    private struct Carried: Error {
        let error: SQLEngineError
    }

    func translate(_ error: DatabaseError, sql: String) -> SQLEngineError {
        Self.translate(error, sql: sql, path: path)
    }

    static func translate(_ error: DatabaseError, sql: String, path: String) -> SQLEngineError {
        switch error.resultCode {
        case .SQLITE_CONSTRAINT: .constraint(sql, message: error.message ?? "\(error)")
        case .SQLITE_BUSY, .SQLITE_LOCKED: .busy(error.message ?? "locked")
        case .SQLITE_FULL: .storageFull(path)
        case .SQLITE_CANTOPEN, .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_IOERR: .unreachable(path, reason: error.message ?? "\(error.resultCode)")
        default: .statement(sql, message: error.message ?? "\(error)")
        }
    }

    private struct Transaction: SQLTransaction {
        let db: Database
        let path: String

        func execute(_ sql: String, _ arguments: [SQLValue]) throws(SQLEngineError) -> Int {
            do {
                try db.execute(sql: sql, arguments: StatementArguments(arguments.map(Self.databaseValue)))
                return db.changesCount
            } catch let error as DatabaseError {
                throw SQLiteEngine.translate(error, sql: sql, path: path)
            } catch {
                throw .statement(sql, message: "\(error)")
            }
        }

        func rows(_ sql: String, _ arguments: [SQLValue]) throws(SQLEngineError) -> [SQLRow] {
            do {
                return try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments.map(Self.databaseValue))).map { row in
                    SQLRow(columns: Array(row.columnNames), values: row.databaseValues.map(Self.value))
                }
            } catch let error as DatabaseError {
                throw SQLiteEngine.translate(error, sql: sql, path: path)
            } catch {
                throw .statement(sql, message: "\(error)")
            }
        }

        static func databaseValue(_ value: SQLValue) -> DatabaseValue {
            switch value {
            case .null: .null
            case .integer(let value): value.databaseValue
            case .real(let value): value.databaseValue
            case .text(let value): value.databaseValue
            case .blob(let bytes): Data(bytes).databaseValue
            }
        }

        static func value(_ value: DatabaseValue) -> SQLValue {
            switch value.storage {
            case .null: .null
            case .int64(let value): .integer(value)
            case .double(let value): .real(value)
            case .string(let value): .text(value)
            case .blob(let data): .blob([UInt8](data))
            }
        }
    }
}
