import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

/// The catalog in PostgreSQL (PostgresNIO): for a reading service on several hosts, which share
/// it. The only code that imports PostgresNIO.
///
/// Transactions run on connections of a small pool, each borrowed by one thread for the whole
/// transaction; a thread waits for one when all are in use. Writes run at PostgreSQL's default
/// isolation (read committed) and take the rows they change with row locks
/// (`SQLDialect.takeRowsNoOtherHolds`); reads see one snapshot (repeatable read, read only).
///
/// PostgresNIO answers on its event loops; a transaction waits for each answer on its own
/// thread (`EventLoopFuture.wait()`), as the catalog's callers are blocking-work threads.
public final class PostgreSQLEngine: SQLEngine, @unchecked Sendable {
    public let dialect = SQLDialect.postgreSQL
    public let address: PostgreSQLAddress
    /// The schema the catalog's tables are in; nil: PostgreSQL's default (`public`).
    public let searchPath: String?
    private let configuration: PostgresConnection.Configuration
    private let maximumConnections: Int
    /// How long a statement may go unanswered before its connection is taken for dead.
    private let statementTimeout: TimeAmount
    private let logger: Logger
    private let group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton

    private let pool = NSCondition()
    /// Guarded by `pool`: connections waiting to be borrowed, how many exist, and whether the engine is closed.
    private var idle: [PostgresConnection] = []
    private var open = 0
    private var closed = false

    /// Connects once, to check the address, the login and the database.
    /// - Parameters:
    ///   - searchPath: a schema to keep the tables in, instead of `public`.
    ///   - statementTimeout: seconds a statement may go unanswered (the server died without
    ///     closing the connection, or another host holds a row that long) before it fails as
    ///     `unreachable` and its connection is dropped.
    /// - Throws: `unreachable` when no server answers there; `refused` when it refuses the login.
    public init(
        address: PostgreSQLAddress, password: String?, searchPath: String? = nil, maximumConnections: Int = 4, statementTimeout: Int = 30
    ) throws(SQLEngineError) {
        precondition(maximumConnections > 0 && statementTimeout > 0, "a pool holds at least one connection, and a statement has time")
        self.statementTimeout = .seconds(Int64(statementTimeout))
        if let searchPath, searchPath.isEmpty || !searchPath.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) {
            throw .configuration("The catalog's schema \(searchPath) is not a plain name: use letters, digits and _.")
        }
        self.address = address
        self.searchPath = searchPath
        self.maximumConnections = maximumConnections
        var logger = Logger(label: "narrate.catalog")
        logger.logLevel = .critical
        self.logger = logger
        var configuration: PostgresConnection.Configuration
        switch address.place {
        case .tcp(let host, let port):
            configuration = .init(
                host: host, port: port, username: address.user, password: password, database: address.database, tls: try Self.tls(address))
        case .socket(let path):
            configuration = .init(unixSocketPath: path, username: address.user, password: password, database: address.database)
        }
        configuration.options.connectTimeout = .seconds(10)
        if let searchPath { configuration.options.additionalStartupParameters = [("search_path", searchPath)] }
        self.configuration = configuration
        let first = try connect()
        open = 1
        give(first)
    }

    public func write<T>(_ body: (any SQLTransaction) throws(SQLEngineError) -> T) throws(SQLEngineError) -> T {
        try transaction("BEGIN", body)
    }

    public func read<T>(_ body: (any SQLTransaction) throws(SQLEngineError) -> T) throws(SQLEngineError) -> T {
        try transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
    }

    /// A forgotten `close()` still closes the idle connections (PostgresNIO requires every
    /// connection closed before it goes).
    deinit {
        close()
    }

    public func close() {
        pool.lock()
        closed = true
        let connections = idle
        idle = []
        open -= connections.count
        pool.broadcast()
        pool.unlock()
        for connection in connections { try? connection.close().wait() }
    }

    private func transaction<T>(_ begin: String, _ body: (any SQLTransaction) throws(SQLEngineError) -> T) throws(SQLEngineError) -> T {
        let connection = try borrow()
        let transaction = Transaction(connection: connection, logger: logger, address: address, timeout: statementTimeout)
        do {
            try transaction.execute(begin, [])
            let result = try body(transaction)
            try transaction.execute("COMMIT", [])
            give(connection)
            return result
        } catch {
            // A connection that went away or stopped answering is dropped, never asked to roll back.
            if case .unreachable = error {
                try? connection.close().wait()
                forget(connection)
            } else if !connection.isClosed, (try? transaction.execute("ROLLBACK", [])) != nil {
                give(connection)
            } else {
                try? connection.close().wait()
                forget(connection)
            }
            throw error
        }
    }

    /// An idle connection, a new one while fewer than `maximumConnections` exist, or the next one given back.
    private func borrow() throws(SQLEngineError) -> PostgresConnection {
        pool.lock()
        while true {
            if closed {
                pool.unlock()
                throw .unreachable(address.description, reason: "the catalog was closed")
            }
            if let connection = idle.popLast() {
                pool.unlock()
                if connection.isClosed {
                    forget(connection)
                    pool.lock()
                    continue
                }
                return connection
            }
            if open < maximumConnections { break }
            pool.wait()
        }
        open += 1
        pool.unlock()
        do {
            return try connect()
        } catch {
            pool.lock()
            open -= 1
            pool.signal()
            pool.unlock()
            throw error
        }
    }

    /// How a TCP connection to `address` is encrypted (`PostgreSQLAddress.Encryption`).
    /// - Throws: `configuration` when the authorities' certificates cannot be read.
    static func tls(_ address: PostgreSQLAddress) throws(SQLEngineError) -> PostgresConnection.Configuration.TLS {
        var tls = TLSConfiguration.makeClientConfiguration()
        switch address.encryption {
        case .disable: return .disable
        case .prefer, .require: tls.certificateVerification = .none
        case .verifyCA: tls.certificateVerification = .noHostnameVerification
        case .verifyFull: tls.certificateVerification = .fullVerification
        }
        if let roots = address.rootCertificates { tls.trustRoots = .file(roots) }
        let context: NIOSSLContext
        do {
            context = try NIOSSLContext(configuration: tls)
        } catch {
            throw .configuration(
                "The catalog's sslrootcert \(address.rootCertificates ?? "") could not be read as PEM certificates (\(error)): give the file of the authority that signed the server's certificate.")
        }
        return address.encryption == .prefer ? .prefer(context) : .require(context)
    }

    /// A new connection; the caller counts it in `open`.
    private func connect() throws(SQLEngineError) -> PostgresConnection {
        do {
            return try PostgresConnection.connect(on: group.next(), configuration: configuration, id: 0, logger: logger).wait()
        } catch {
            throw Self.translate(error, address: address, sql: nil)
        }
    }

    private func give(_ connection: PostgresConnection) {
        pool.lock()
        if closed {
            open -= 1
            pool.unlock()
            try? connection.close().wait()
            return
        }
        idle.append(connection)
        pool.signal()
        pool.unlock()
    }

    private func forget(_ connection: PostgresConnection) {
        pool.lock()
        open -= 1
        pool.signal()
        pool.unlock()
    }

    /// PostgreSQL's error codes (SQLSTATE) as the catalog's kinds of failure.
    static func translate(_ error: any Error, address: PostgreSQLAddress, sql: String?) -> SQLEngineError {
        guard let error = error as? PSQLError else { return .unreachable(address.description, reason: "\(error)") }
        if error.code == .authMechanismRequiresPassword {
            return .refused(address.description, reason: "the server asks for a password and none was given")
        }
        if error.code == .sslUnsupported {
            return .configuration(
                "The catalog \(address) takes no encrypted connections, and its address asks for one (sslmode=\(address.encryption.rawValue)): turn ssl on in the server's postgresql.conf, or write sslmode=prefer.")
        }
        if let failure = tlsFailure(error.underlying) {
            return .configuration("The encrypted connection to the catalog \(address) failed: \(failure.reason). \(failure.fix)")
        }
        let state = error.serverInfo?[.sqlState] ?? ""
        let message = error.serverInfo?[.message] ?? "\(error.code)"
        switch state {
        case "23505", "23503", "23502", "23514": return .constraint(sql ?? "", message: message)
        case "40001", "40P01", "55P03", "57014": return .busy(message)
        case "28P01", "28000", "3D000": return .refused(address.description, reason: message)
        case "53100": return .storageFull(address.description)
        case "": return .unreachable(address.description, reason: "\(error.code)" + (error.underlying.map { ": \($0)" } ?? ""))
        default:
            if state.hasPrefix("08") || state.hasPrefix("57P") { return .unreachable(address.description, reason: message) }
            return .statement(sql ?? "", message: message)
        }
    }

    /// Why the TLS handshake failed and what to do, in words; nil when `error` is not the handshake's.
    private static func tlsFailure(_ error: (any Error)?) -> (reason: String, fix: String)? {
        guard let error, error is NIOSSLError || error is NIOSSLExtraError || error is BoringSSLError else { return nil }
        let text = String(describing: error)
        let authority = "Give the file of the authority that signed the server's certificate as sslrootcert=FILE in the address."
        if text.contains("CERTIFICATE_VERIFY_FAILED") {
            return ("the server's certificate is not signed by an authority narrate trusts (the system's, or the sslrootcert file's)", authority)
        }
        if error is NIOSSLExtraError, text.localizedCaseInsensitiveContains("hostname") {
            return ("the server's certificate is not made out to the host the address names", "Name the server in the address as its certificate does.")
        }
        return ("the TLS handshake failed (\(text))", authority)
    }

    private struct StatementTimedOut: Error {
        let seconds: Int64
    }

    private struct Transaction: SQLTransaction {
        let connection: PostgresConnection
        let logger: Logger
        let address: PostgreSQLAddress
        let timeout: TimeAmount

        func execute(_ sql: String, _ arguments: [SQLValue]) throws(SQLEngineError) -> Int {
            try run(sql, arguments).metadata.rows ?? 0
        }

        func rows(_ sql: String, _ arguments: [SQLValue]) throws(SQLEngineError) -> [SQLRow] {
            var rows: [SQLRow] = []
            for row in try run(sql, arguments).rows {
                var columns: [String] = []
                var values: [SQLValue] = []
                for cell in row {
                    columns.append(cell.columnName)
                    values.append(try Self.value(cell))
                }
                rows.append(SQLRow(columns: columns, values: values))
            }
            return rows
        }

        private func run(_ sql: String, _ arguments: [SQLValue]) throws(SQLEngineError) -> PostgresQueryResult {
            let numbered = try PostgreSQLStatement.numbered(sql, arguments: arguments.count)
            var bindings = PostgresBindings(capacity: arguments.count)
            for argument in arguments {
                switch argument {
                case .null: bindings.appendNull()
                case .integer(let value): bindings.append(value)
                case .real(let value): bindings.append(value)
                case .text(let value): bindings.append(value)
                case .blob(let bytes): bindings.append(ByteBuffer(bytes: bytes))
                }
            }
            // The answer, or a failure after `timeout`: PostgresNIO may not fail a query sent
            // just as the server died, and a blocked thread would hold the catalog forever.
            let loop = connection.eventLoop
            let answer = loop.makePromise(of: PostgresQueryResult.self)
            let settled = NIOLockedValueBox(false)
            let settle: @Sendable (Result<PostgresQueryResult, any Error>) -> Void = { result in
                guard settled.withLockedValue({ done in defer { done = true }; return !done }) else { return }
                answer.completeWith(result)
            }
            connection.query(PostgresQuery(unsafeSQL: numbered, binds: bindings), logger: logger).whenComplete(settle)
            let timer = loop.scheduleTask(in: timeout) { settle(.failure(StatementTimedOut(seconds: timeout.nanoseconds / 1_000_000_000))) }
            defer { timer.cancel() }
            do {
                return try answer.futureResult.wait()
            } catch let timedOut as StatementTimedOut {
                throw .unreachable(address.description, reason: "no answer to a statement in \(timedOut.seconds) s")
            } catch {
                throw PostgreSQLEngine.translate(error, address: address, sql: sql)
            }
        }

        /// A cell as one of the values both engines store: integers of every width, reals,
        /// text, bytes, and booleans as 0 and 1.
        static func value(_ cell: PostgresCell) throws(SQLEngineError) -> SQLValue {
            guard cell.bytes != nil else { return .null }
            do {
                switch cell.dataType {
                case .int2, .int4, .int8: return .integer(try cell.decode(Int64.self))
                case .float4, .float8: return .real(try cell.decode(Double.self))
                case .numeric: return .real(Double(try cell.decode(String.self)) ?? .nan)
                case .bool: return .integer(try cell.decode(Bool.self) ? 1 : 0)
                case .bytea: return .blob(Array(buffer: try cell.decode(ByteBuffer.self)))
                default: return .text(try cell.decode(String.self))
                }
            } catch {
                throw .unexpectedValue(column: cell.columnName, found: "a value of PostgreSQL type \(cell.dataType)")
            }
        }
    }
}
