import Foundation
import GRDB
@testable import Narration
import NarrationCore
import NarrationTestSupport
import SQLEngines
import Testing

/// The catalog's tables made by the steps both engines run (`CatalogSchema`): on SQLite, exactly
/// the tables GRDB's migrator made before, and older catalogs go on from where it left them; on a
/// real PostgreSQL, every step runs, once, and the rules the tables keep hold there too.
@Suite("The catalog's tables on both engines")
struct CatalogSchemaTests {
    let folder = TemporaryFolder("narrate-schema")

    /// Each table, index and trigger of a SQLite catalog as `-- type name` and its statement, in
    /// the order they were made, without SQLite's own indexes and the migrators' records.
    static func schema(of path: String) throws -> String {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            try Row.fetchAll(
                db, sql: """
                    SELECT type, name, sql FROM sqlite_master
                    WHERE name NOT LIKE 'sqlite_autoindex%' AND name NOT IN ('grdb_migrations', 'catalog_migration') ORDER BY rowid
                    """
            ).map { row in "-- \(row["type"] as String) \(row["name"] as String)\n\(row["sql"] as String);\n" }.joined()
        }
    }

    @Test("a new SQLite catalog has, statement for statement, the tables GRDB's migrator made (Fixtures/catalog-schema.sql)")
    func sameTablesAsBefore() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/catalog-schema.sql")
        let expected = try String(contentsOf: fixture, encoding: .utf8)
        let path = folder.file("catalog.sqlite").path
        _ = try Catalog(path: path)
        let made = try Self.schema(of: path)
        #expect(made == expected)
        #expect(made.components(separatedBy: "\n-- ").count == expected.components(separatedBy: "\n-- ").count)
    }

    @Test("a catalog GRDB's migrator left at v8 runs only the steps after it, and keeps its rows")
    func earlierMigratorsRecords() throws {
        let path = folder.file("catalog.sqlite").path
        let queue = try DatabaseQueue(path: path)
        let older = CatalogSchema.steps.prefix { $0.0 != "service-accounts" }
        #expect(older.count == 8)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
            for (name, statements) in older {
                for statement in statements { try db.execute(sql: statement) }
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [name])
            }
            try db.execute(sql: "INSERT INTO article VALUES ('k3f9x2ab', 'Harbour', 'Post', 'Ann', 44100, 1, 16, '2026-11-27 04:00:00.000', 'open', NULL, NULL)")
        }
        try queue.close()

        let engine = try SQLiteEngine(path: path)
        #expect(try CatalogSchema.migrator.pending(on: engine) == ["service-accounts", "service-activity", "service-desk", "service-review", "service-desk-urgency", "take-uploads", "chunk-copies", "article-leases", "take-cuts"])
        engine.close()
        let catalog = try Catalog(path: path)
        #expect(try catalog.articles().map(\.title) == ["Harbour"])
        #expect(try CatalogSchema.migrator.pending(on: catalog.engine) == [])
        let ran = try catalog.engine.read { sql throws(SQLEngineError) in try sql.rows("SELECT name FROM catalog_migration ORDER BY name").map { row throws(SQLEngineError) in try row.text("name") } }
        #expect(ran == ["article-leases", "chunk-copies", "service-accounts", "service-activity", "service-desk", "service-desk-urgency", "service-review", "take-cuts", "take-uploads"])
    }

    @Test("a catalog that has every step opens read-only; one missing a step is refused read-only, naming the fix")
    func readingOnly() throws {
        let path = folder.file("catalog.sqlite").path
        try CatalogSchema.migrator.migrate(SQLiteEngine(path: path), upTo: "v8-paragraph-skips")
        #expect {
            _ = try Catalog(readingOnly: path)
        } throws: { error in
            (error as? NarrationError)?.kind == .dataRootNotWritable
                && (error as? NarrationError)?.message.contains("was written by an older narrate") == true
        }
        _ = try Catalog(path: path)
        #expect(try Catalog(readingOnly: path).articles() == [])
    }

    @Test("on PostgreSQL every step runs once; a second host finds nothing to do")
    func allStepsOnPostgreSQL() throws {
        let engine = try CatalogEngines.make(.postgreSQL, folder: folder)
        defer { engine.close() }
        #expect(try CatalogSchema.migrator.migrate(engine) == CatalogSchema.steps.map(\.0))
        let other = try CatalogEngines.another(engine)
        defer { other.close() }
        #expect(try CatalogSchema.migrator.migrate(other) == [])
        #expect(try CatalogSchema.migrator.pending(on: other) == [])
        // Every table the SQLite catalog has, PostgreSQL has, with the same columns (in lower case).
        let sqlite = try SQLiteEngine(path: folder.file("same.sqlite").path)
        defer { sqlite.close() }
        try CatalogSchema.migrator.migrate(sqlite)
        let sqliteColumns = try sqlite.read { sql throws(SQLEngineError) in
            try sql.rows("SELECT m.name AS t, p.name AS c FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'")
                .map { row throws(SQLEngineError) in "\(try row.text("t").lowercased()).\(try row.text("c").lowercased())" }
        }
        let postgreSQLColumns = try engine.read { sql throws(SQLEngineError) in
            try sql.rows("SELECT table_name AS t, column_name AS c FROM information_schema.columns WHERE table_schema = current_schema()")
                .map { row throws(SQLEngineError) in "\(try row.text("t")).\(try row.text("c"))" }
        }
        #expect(Set(sqliteColumns).count > 100)
        #expect(Set(sqliteColumns) == Set(postgreSQLColumns))
    }

    @Test("the tables keep their rules on both engines: append-only logs, ids given by the table, cascades, checks", arguments: CatalogEngines.Kind.allCases)
    func rulesHold(_ kind: CatalogEngines.Kind) throws {
        let engine = try CatalogEngines.make(kind, folder: folder)
        defer { engine.close() }
        try CatalogSchema.migrator.migrate(engine)
        try engine.write { sql throws(SQLEngineError) in
            try sql.execute("INSERT INTO account (name, role, enabled, created_at) VALUES ('ann', 'volunteer', 1, 0)")
            for action in ["add", "disable"] {
                try sql.execute("INSERT INTO audit_entry (at, actor, action, account_name, detail) VALUES (0, 'root', ?, 'ann', '')", .text(action))
            }
            try sql.execute("INSERT INTO article (id, title, publication, narrator, sampleRate, channels, bitsPerSample, createdAt, state) VALUES ('k3f9x2ab', 'T', 'P', 'N', 44100, 1, 16, '2026-11-27 04:00:00.000', 'open')")
            try sql.execute("INSERT INTO chunk (id, articleId, position, frames, peakDBFS, rmsDBFS, overruns, recovered, recordedAt) VALUES ('c1111111', 'k3f9x2ab', 0, 4410, -6.5, -20.25, 0, 0, '2026-11-27 04:00:01.000')")
            try sql.execute("INSERT INTO edit (articleId, kind, summary, madeAt, chunksBefore, chunksAfter) VALUES ('k3f9x2ab', 'record', 'Recorded', '2026-11-27 04:00:01.000', '', 'c1111111')")
        }
        let sequences = try engine.read { sql throws(SQLEngineError) in
            try sql.rows("SELECT sequence FROM audit_entry ORDER BY sequence").map { row throws(SQLEngineError) in try row.integer("sequence") }
        }
        #expect(sequences.count == 2 && sequences[1] > sequences[0])
        for change in ["UPDATE audit_entry SET detail = 'x'", "DELETE FROM audit_entry"] {
            #expect {
                try engine.write { sql throws(SQLEngineError) in try sql.execute(change) }
            } throws: { error in
                "\(error)".contains("the audit log is append-only")
            }
        }
        #expect(throws: SQLEngineError.self) {
            try engine.write { sql throws(SQLEngineError) in try sql.execute("INSERT INTO account (name, role, enabled, created_at) VALUES ('bob', 'owner', 1, 0)") }
        }
        let chunk = try #require(try engine.read { sql throws(SQLEngineError) in try sql.row("SELECT peakDBFS, recovered FROM chunk") })
        #expect(try chunk.real("peakDBFS") == -6.5)
        #expect(try chunk.boolean("recovered") == false)
        try engine.write { sql throws(SQLEngineError) in try sql.execute("DELETE FROM article WHERE id = 'k3f9x2ab'") }
        let left = try engine.read { sql throws(SQLEngineError) in
            try sql.row("SELECT (SELECT COUNT(*) FROM chunk) + (SELECT COUNT(*) FROM edit) AS n")?.integer("n")
        }
        #expect(left == 0)
    }

    @Test("times are written as GRDB wrote them, to the millisecond, and read back from either form")
    func timesAsGRDBWroteThem() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let date = Date(timeIntervalSince1970: Double.random(in: 0..<4_102_444_800, using: &generator))
            let ours = CatalogTime.text(date)
            #expect(ours == String.fromDatabaseValue(date.databaseValue))
            let back = try #require(CatalogTime.date(ours))
            #expect(abs(back.timeIntervalSince1970 - date.timeIntervalSince1970) < 0.001)
            #expect(CatalogTime.text(back) == ours)
        }
        #expect(CatalogTime.date("2026-11-27 04:00:00") == Date(timeIntervalSince1970: 1_795_752_000))
        #expect(CatalogTime.date("27/11/2026") == nil)
    }
}
