import Foundation
import NarrationTestSupport
import SQLEngines
import Testing

/// The catalog's connection over TCP encrypted as libpq's `sslmode` says, against a real
/// PostgreSQL that takes TCP connections only encrypted, with a certificate signed by an
/// authority of the test's own; and against the suite's server, which takes none.
@Suite("The PostgreSQL engine's encrypted connections", .serialized)
struct PostgreSQLEncryptionTests {
    /// The server this suite starts, shared by its tests.
    static let encrypted = Result { try PostgreSQLServer(encrypted: true) }

    @Test("sslmode and sslrootcert are read with libpq's meanings; an unknown mode, and a root without verify-ca or verify-full, are refused with the fix")
    func addresses() throws {
        #expect(try PostgreSQLAddress(parsing: "postgresql://narrate@db/catalog").encryption == .prefer)
        let verified = try PostgreSQLAddress(parsing: "postgresql://narrate@db:5432/catalog?sslmode=verify-full&sslrootcert=/etc/narrate/ca.pem")
        #expect(verified.encryption == .verifyFull && verified.rootCertificates == "/etc/narrate/ca.pem")
        #expect(verified.description == "postgresql://narrate@db:5432/catalog?sslmode=verify-full&sslrootcert=/etc/narrate/ca.pem")
        #expect(try PostgreSQLAddress(parsing: verified.description) == verified)
        #expect(try PostgreSQLAddress(parsing: "postgresql://narrate@db/catalog?sslmode=disable").description == "postgresql://narrate@db:5432/catalog?sslmode=disable")
        // Made in code, a root certificate without a checking mode is still written as a well-formed address.
        let made = PostgreSQLAddress(place: .tcp(host: "db", port: 5432), user: "narrate", database: "catalog", rootCertificates: "/ca.pem")
        #expect(made.description == "postgresql://narrate@db:5432/catalog?sslrootcert=/ca.pem")
        let refusals: [(String, String)] = [
            ("postgresql://narrate@db/catalog?sslmode=on",
             "The catalog address postgresql://narrate@db/catalog?sslmode=on has sslmode=on: give one of disable, prefer, require, verify-ca, verify-full."),
            ("postgresql://narrate@db/catalog?sslmode=require&sslrootcert=/ca.pem",
             "The catalog address postgresql://narrate@db/catalog?sslmode=require&sslrootcert=/ca.pem gives sslrootcert=/ca.pem, which only sslmode=verify-ca or verify-full reads: add one, or drop sslrootcert."),
        ]
        for (text, message) in refusals {
            let error = #expect(throws: SQLEngineError.self) { try PostgreSQLAddress(parsing: text) }
            #expect(error?.message == message, "\(text)")
        }
    }

    /// Whether the engine's own connection is encrypted, as the server sees it.
    static func isEncrypted(_ engine: PostgreSQLEngine) throws -> Bool {
        try engine.read { sql throws(SQLEngineError) in
            try sql.row("SELECT ssl::text AS encrypted FROM pg_stat_ssl WHERE pid = pg_backend_pid()")?.text("encrypted")
        } == "true"
    }

    @Test("verify-full with the service's authority, require and the default prefer log in encrypted, as the server sees; by name too")
    func encryptedLogins() throws {
        let server = try Self.encrypted.get()
        let root = server.authority
        for query in ["sslmode=verify-full&sslrootcert=\(root)", "sslmode=verify-ca&sslrootcert=\(root)", "sslmode=require", ""] {
            for host in ["127.0.0.1", "localhost"] {
                let address = try PostgreSQLAddress(parsing: "postgresql://narrate@\(host):\(server.port)/narrate" + (query.isEmpty ? "" : "?" + query))
                let engine = try PostgreSQLEngine(address: address, password: PostgreSQLServer.password)
                defer { engine.close() }
                #expect(try Self.isEncrypted(engine), "\(address)")
            }
        }
    }

    @Test("a certificate no trusted authority signed is refused under verify-full and verify-ca, with what to give; one made out to another name only under verify-full; sslmode=disable is refused by the server")
    func refusals() throws {
        let server = try Self.encrypted.get()
        // Its authority did not sign the first server's certificate; its own certificate is made
        // out to another name than the address's.
        let stranger = try PostgreSQLServer(encrypted: true, names: "DNS:db.example.org")
        for mode in ["verify-full", "verify-ca"] {
            for root in ["&sslrootcert=\(stranger.authority)", ""] {  // another authority; the system's, which know none of them
                let address = try PostgreSQLAddress(parsing: "postgresql://narrate@127.0.0.1:\(server.port)/narrate?sslmode=\(mode)\(root)")
                let error = #expect(throws: SQLEngineError.self) { try PostgreSQLEngine(address: address, password: PostgreSQLServer.password) }
                #expect(
                    error?.message
                        == "The encrypted connection to the catalog \(address) failed: the server's certificate is not signed by an authority narrate trusts (the system's, or the sslrootcert file's). Give the file of the authority that signed the server's certificate as sslrootcert=FILE in the address.")
            }
        }
        // The name is what verify-full checks beyond verify-ca.
        let caOnly = try PostgreSQLAddress(parsing: "postgresql://narrate@127.0.0.1:\(stranger.port)/narrate?sslmode=verify-ca&sslrootcert=\(stranger.authority)")
        let engine = try PostgreSQLEngine(address: caOnly, password: PostgreSQLServer.password)
        #expect(try Self.isEncrypted(engine))
        engine.close()
        var full = caOnly
        full.encryption = .verifyFull
        let misnamed = #expect(throws: SQLEngineError.self) { try PostgreSQLEngine(address: full, password: PostgreSQLServer.password) }
        #expect(
            misnamed?.message
                == "The encrypted connection to the catalog \(full) failed: the server's certificate is not made out to the host the address names. Name the server in the address as its certificate does.")

        let plain = try PostgreSQLAddress(parsing: "postgresql://narrate@127.0.0.1:\(server.port)/narrate?sslmode=disable")
        let error = #expect(throws: SQLEngineError.self) { try PostgreSQLEngine(address: plain, password: PostgreSQLServer.password) }
        guard case .refused = error else { Issue.record("not refused: \(String(describing: error))"); return }
        #expect(error?.message.contains("no encryption") == true, "\(error?.message ?? "")")
    }

    @Test("a root file that is not there is named before any connection; a server that takes no encryption refuses sslmode=require with the reason")
    func unusable() throws {
        let server = try Self.encrypted.get()
        let missing = try PostgreSQLAddress(parsing: "postgresql://narrate@127.0.0.1:\(server.port)/narrate?sslmode=verify-full&sslrootcert=/nonexistent/ca.pem")
        let error = #expect(throws: SQLEngineError.self) { try PostgreSQLEngine(address: missing, password: PostgreSQLServer.password) }
        #expect(error?.message.hasPrefix("The catalog's sslrootcert /nonexistent/ca.pem could not be read as PEM certificates (") == true, "\(error?.message ?? "")")

        let unencrypted = try CatalogEngines.server.get()
        let address = try PostgreSQLAddress(parsing: unencrypted.tcpAddress + "?sslmode=require")
        let refused = #expect(throws: SQLEngineError.self) { try PostgreSQLEngine(address: address, password: PostgreSQLServer.password) }
        #expect(
            refused?.message
                == "The catalog \(address) takes no encrypted connections, and its address asks for one (sslmode=require): turn ssl on in the server's postgresql.conf, or write sslmode=prefer.")
        // prefer falls back to a plain connection, as libpq's does.
        let engine = try PostgreSQLEngine(address: try PostgreSQLAddress(parsing: unencrypted.tcpAddress), password: PostgreSQLServer.password)
        defer { engine.close() }
        #expect(try Self.isEncrypted(engine) == false)
    }
}
