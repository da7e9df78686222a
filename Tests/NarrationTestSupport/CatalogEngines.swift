import Foundation
public import SQLEngines

/// The two catalog engines for tests that run against both: a new SQLite file, or a schema of
/// its own on one real PostgreSQL server started once for the whole test process.
public enum CatalogEngines {
    /// A real PostgreSQL server (initdb into a temporary folder), started once.
    public static let server: Result<PostgreSQLServer, any Error> = Result { try PostgreSQLServer() }

    public enum Kind: String, CaseIterable, Sendable {
        case sqlite, postgreSQL
    }

    /// A new, empty catalog of `kind`: a new SQLite file, or a new schema of its own on the one
    /// PostgreSQL server (tests run in parallel; each sees only its own tables).
    public static func make(_ kind: Kind, folder: TemporaryFolder, name: String = "catalog") throws -> any SQLEngine {
        switch kind {
        case .sqlite:
            return try SQLiteEngine(path: folder.file("\(name).sqlite").path)
        case .postgreSQL:
            let server = try server.get()
            let schema = "t_" + UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: "")
            try server.psql("CREATE SCHEMA \(schema)")
            return try PostgreSQLEngine(address: try PostgreSQLAddress(parsing: server.socketAddress), password: nil, searchPath: schema)
        }
    }

    /// A second engine on the same catalog, as a second host (or process) would open it.
    public static func another(_ engine: any SQLEngine) throws -> any SQLEngine {
        if let sqlite = engine as? SQLiteEngine { return try SQLiteEngine(path: sqlite.path) }
        guard let postgreSQL = engine as? PostgreSQLEngine else { throw FixtureError("an engine of neither kind") }
        return try PostgreSQLEngine(address: postgreSQL.address, password: nil, searchPath: postgreSQL.searchPath)
    }
}

