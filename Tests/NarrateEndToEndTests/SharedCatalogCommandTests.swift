import Foundation
@testable import Narration
import NarrationCore
import NarrationTestSupport
import SQLEngines
import Testing

/// `[service] catalog` in config.toml: the binary keeps its records in a real PostgreSQL server,
/// two hosts (data folders) see one catalog, the password comes from a private file or the
/// environment, and every way of getting it wrong is one sentence that creates no catalog of its own.
@Suite("A catalog in PostgreSQL, named in config.toml")
struct SharedCatalogCommandTests {
    /// A database of its own on the tests' PostgreSQL server, and its address over TCP (where the
    /// server asks for the password).
    static func database() throws -> (server: PostgreSQLServer, address: String) {
        let server = try CatalogEngines.server.get()
        let name = "e2e_" + UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: "")
        _ = try server.psql("CREATE DATABASE \(name)")
        return (server, "postgresql://\(PostgreSQLServer.user)@127.0.0.1:\(server.port)/\(name)")
    }

    static func passwordFile(_ fixture: EndToEndFixture, _ password: String, mode: Int) throws -> String {
        let file = fixture.folder.file("catalog-password")
        try Data("\(password)\n".utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file.path)
        return file.path
    }

    static func config(_ address: String, passwordFile: String?) -> String {
        "[service]\ncatalog = \"\(address)\"\n" + (passwordFile.map { "catalog_password_file = \"\($0)\"\n" } ?? "")
    }

    @Test("a take recorded through the binary is in PostgreSQL, a second host lists it, and no catalog.sqlite is made")
    func twoHostsOneCatalog() throws {
        let (_, address) = try Self.database()
        let fixture = try EndToEndFixture()
        let file = try Self.passwordFile(fixture, PostgreSQLServer.password, mode: 0o600)
        let narrate = try fixture.narrate(config: Self.config(address, passwordFile: file))
        let new = try narrate.run(["new", "Harbour news", "--json"])
        #expect(new.status == 0, "\(new.stderr)")
        let id = try #require((try new.json() as? [String: Any])?["id"] as? String)
        let record = try narrate.run(["record", "--device", "vmic", "--duration", "0.5"])
        #expect(record.status == 0, "\(record.stderr)")
        let chunks = try #require(try narrate.run(["chunks", "--json"]).json() as? [[String: Any]])
        #expect(chunks.map { $0["frames"] as? Int } == [22_050])
        #expect(!FileManager.default.fileExists(atPath: narrate.home.appendingPathComponent("catalog.sqlite").path))

        // The rows themselves, read from the server.
        let engine = try PostgreSQLEngine(address: PostgreSQLAddress(parsing: address), password: PostgreSQLServer.password)
        defer { engine.close() }
        let rows = try engine.read { sql throws(SQLEngineError) in try sql.rows("SELECT id, articleId, frames FROM chunk") }
        #expect(rows.count == 1)
        #expect(try rows.first?.text("articleId") == id)
        #expect(try rows.first?.int("frames") == 22_050)

        // Another host: its own data folder, the same catalog, the password from the environment.
        try FileManager.default.createDirectory(at: fixture.folder.file("other-config/narrate"), withIntermediateDirectories: true)
        try Self.config(address, passwordFile: nil).write(
            to: fixture.folder.file("other-config/narrate/config.toml"), atomically: true, encoding: .utf8)
        let other = Narrate(
            home: fixture.folder.file("other-home"),
            environment: narrate.environment.filter { $0.key != "NARRATE_HOME" && $0.key != "HOME" }.merging([
                "NARRATE_CATALOG_PASSWORD": PostgreSQLServer.password, "XDG_CONFIG_HOME": fixture.folder.file("other-config").path,
            ]) { $1 })
        let listed = try other.run(["list", "--json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let articles = try #require(try listed.json() as? [[String: Any]])
        #expect(articles.map { $0["title"] as? String } == ["Harbour news"])
        #expect(!FileManager.default.fileExists(atPath: fixture.folder.file("other-home/articles/\(id)").path), "the second host has a data folder of its own")
    }

    @Test("a password file others can read, a wrong password, no server and an address that is not PostgreSQL's: one sentence each, no catalog made")
    func refusals() throws {
        let (server, address) = try Self.database()
        let fixture = try EndToEndFixture()
        let open = try Self.passwordFile(fixture, PostgreSQLServer.password, mode: 0o644)
        let cases: [(config: String, environment: [String: String], says: String)] = [
            (Self.config(address, passwordFile: open), [:],
             "The catalog password file \(open) can be read by others (mode 644); narrate uses it only when just you can: chmod 600 \(open)"),
            (Self.config(address, passwordFile: nil), ["NARRATE_CATALOG_PASSWORD": "wrong"],
             "refused the login"),
            (Self.config("postgresql://narrate@127.0.0.1:\(try ObjectStorageServer.freePorts(1)[0])/none", passwordFile: nil), [:],
             "Check that the PostgreSQL server runs and that its address is right."),
            (Self.config("mysql://narrate@db/none", passwordFile: nil), [:],
             "In config.toml's [service] catalog: The catalog address mysql://narrate@db/none is not a PostgreSQL address"),
            (Self.config("postgresql://narrate:secret@127.0.0.1:\(server.port)/none", passwordFile: nil), [:],
             "has a password in it: give the password apart from the address"),
        ]
        for (config, environment, says) in cases {
            let configured = try fixture.narrate(config: config)
            let narrate = Narrate(home: configured.home, environment: configured.environment.merging(environment) { $1 })
            let result = try narrate.run(["new", "Refused"])
            #expect(result.status != 0)
            #expect(result.stderr.contains(says), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(!result.stderr.contains("secret"))
            #expect(!FileManager.default.fileExists(atPath: narrate.home.appendingPathComponent("catalog.sqlite").path))
        }
    }
}
