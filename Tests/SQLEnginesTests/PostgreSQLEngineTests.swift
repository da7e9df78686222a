import Foundation
import NarrationTestSupport
import SQLEngines
import Testing

/// What only the PostgreSQL engine has: an address to read, a login over TCP with a password,
/// a server that may be away or die under it.
@Suite("The PostgreSQL engine's address, login and a server that dies")
struct PostgreSQLEngineTests {
    @Test("addresses over TCP and through a socket are read; a password, a missing user or database, a bad port are refused with the form to use")
    func addresses() throws {
        let tcp = try PostgreSQLAddress(parsing: "postgresql://narrate@db.example.org:6543/catalog")
        #expect(tcp == PostgreSQLAddress(place: .tcp(host: "db.example.org", port: 6543), user: "narrate", database: "catalog"))
        #expect(tcp.description == "postgresql://narrate@db.example.org:6543/catalog")
        let socket = try PostgreSQLAddress(parsing: "postgresql://narrate@/catalog?host=/run/postgresql")
        #expect(socket.place == .socket(path: "/run/postgresql/.s.PGSQL.5432"))
        #expect(socket.description == "postgresql://narrate@/catalog?host=/run/postgresql&port=5432")
        #expect(try PostgreSQLAddress(parsing: socket.description) == socket)
        #expect(try PostgreSQLAddress(parsing: "postgres://ann@localhost/books").place == .tcp(host: "localhost", port: 5432))
        let refusals: [(String, String)] = [
            ("postgresql://narrate:secret@db/catalog", "The catalog address has a password in it: give the password apart from the address"),
            ("postgresql://db/catalog", "The catalog address postgresql://db/catalog names no user"),
            ("postgresql://narrate@db/", "The catalog address postgresql://narrate@db/ names no database"),
            ("postgresql://narrate@db:0/catalog", "The catalog address postgresql://narrate@db:0/catalog has port 0: a port is 1 to 65535."),
            ("postgresql://narrate@/catalog?host=/run&port=x", "The catalog address postgresql://narrate@/catalog?host=/run&port=x has port x: a port is 1 to 65535."),
            ("mysql://narrate@db/catalog", "The catalog address mysql://narrate@db/catalog is not a PostgreSQL address"),
        ]
        for (text, message) in refusals {
            let error = #expect(throws: SQLEngineError.self) { try PostgreSQLAddress(parsing: text) }
            #expect(error?.message.hasPrefix(message) == true, "\(text): \(error?.message ?? "no error")")
        }
    }

    @Test("over TCP the password is asked for: the right one logs in, a wrong one and none are refused with a sentence")
    func password() throws {
        let server = try CatalogEngines.server.get()
        let address = try PostgreSQLAddress(parsing: server.tcpAddress)
        let engine = try PostgreSQLEngine(address: address, password: PostgreSQLServer.password)
        defer { engine.close() }
        #expect(try engine.read { sql throws(SQLEngineError) in try sql.row("SELECT current_user AS who")?.text("who") } == "narrate")
        for wrong in ["not the password", nil] {
            let error = #expect(throws: SQLEngineError.self) { try PostgreSQLEngine(address: address, password: wrong) }
            guard case .refused(let what, _) = error else { Issue.record("not refused: \(String(describing: error))"); continue }
            #expect(what == server.tcpAddress)
            #expect(error?.message.hasPrefix("The catalog \(server.tcpAddress) refused the login: ") == true)
        }
        let missing = #expect(throws: SQLEngineError.self) {
            try PostgreSQLEngine(address: try PostgreSQLAddress(parsing: "postgresql://narrate@127.0.0.1:\(server.port)/nowhere"), password: PostgreSQLServer.password)
        }
        guard case .refused = missing else { Issue.record("a missing database: \(String(describing: missing))"); return }
    }

    @Test("no server at the address: unreachable, named")
    func unreachable() throws {
        let port = try ObjectStorageServer.freePorts(1)[0]
        let address = try PostgreSQLAddress(parsing: "postgresql://narrate@127.0.0.1:\(port)/narrate")
        let error = #expect(throws: SQLEngineError.self) { try PostgreSQLEngine(address: address, password: nil) }
        guard case .unreachable(let what, _) = error else { Issue.record("not unreachable: \(String(describing: error))"); return }
        #expect(what == address.description)
        #expect(error?.message.hasPrefix("Could not reach the catalog postgresql://narrate@127.0.0.1:\(port)/narrate: ") == true)
    }

    @Test("the server killed mid-transaction: that transaction fails as unreachable and wrote nothing; once the server is back, the same engine goes on")
    func serverDies() throws {
        let server = try PostgreSQLServer()  // its own: killing it must not touch other tests
        let engine = try PostgreSQLEngine(address: try PostgreSQLAddress(parsing: server.socketAddress), password: nil, statementTimeout: 5)
        defer { engine.close() }
        try engine.write { sql throws(SQLEngineError) in
            try sql.execute("CREATE TABLE take (id BIGINT PRIMARY KEY)")
            try sql.execute("INSERT INTO take VALUES (1)")
        }
        let error = #expect(throws: SQLEngineError.self) {
            try engine.write { sql throws(SQLEngineError) in
                try sql.execute("INSERT INTO take VALUES (2)")
                server.kill()
                try sql.execute("INSERT INTO take VALUES (3)")
            }
        }
        guard case .unreachable = error else { Issue.record("not unreachable: \(String(describing: error))"); return }
        #expect(throws: SQLEngineError.self) { try engine.read { sql throws(SQLEngineError) in try sql.rows("SELECT id FROM take") } }
        try server.start()
        let ids = try engine.read { sql throws(SQLEngineError) in try sql.rows("SELECT id FROM take ORDER BY id").map { row throws(SQLEngineError) in try row.integer("id") } }
        #expect(ids == [1])
        #expect(try server.psql("SELECT count(*) FROM take").trimmingCharacters(in: .whitespacesAndNewlines) == "1")
    }
}
