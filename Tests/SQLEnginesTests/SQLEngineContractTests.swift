import Foundation
import NarrationTestSupport
import SQLEngines
import Synchronization
import Testing

/// What the catalog needs of an engine, the same on SQLite and on a real PostgreSQL: values
/// come back as they went in, a transaction that throws leaves nothing, the rules of a table
/// refuse a write with a typed error, concurrent writers lose no update, and two hosts taking
/// rows to work on never take the same row.
@Suite("Catalog engines: SQLite and PostgreSQL keep the same promises")
struct SQLEngineContractTests {
    let folder = TemporaryFolder("narrate-sql")

    private func table(_ engine: any SQLEngine) throws {
        try engine.write { sql throws(SQLEngineError) in
            try sql.execute("""
                CREATE TABLE item (id BIGINT PRIMARY KEY, name TEXT NOT NULL UNIQUE, size \(engine.dialect.realType),
                bytes \(engine.dialect.blobType), flag BIGINT NOT NULL DEFAULT 0)
                """)
        }
    }

    @Test("every kind of value comes back as it went in, and a ? inside quotes is text, not an argument", arguments: CatalogEngines.Kind.allCases)
    func values(_ kind: CatalogEngines.Kind) throws {
        let engine = try CatalogEngines.make(kind, folder: folder)
        defer { engine.close() }
        try table(engine)
        let bytes = (0...255).map(UInt8.init)
        let inserted = try engine.write { sql throws(SQLEngineError) in
            try sql.execute("INSERT INTO item (id, name, size, bytes, flag) VALUES (?, ?, ?, ?, ?)", .integer(Int64.max), "O'Brien? \"quoted\" ünïcode", 0.1, .blob(bytes), .boolean(true))
                + sql.execute("INSERT INTO item (id, name, size, bytes) VALUES (?, '-- not a comment ?', ?, ?)", .integer(Int64.min), .null, .null)
        }
        #expect(inserted == 2)
        let rows = try engine.read { sql throws(SQLEngineError) in try sql.rows("SELECT id, name, size, bytes, flag FROM item ORDER BY id") }
        #expect(rows.count == 2)
        #expect(try rows[0].integer("id") == Int64.min)
        #expect(try rows[0].text("name") == "-- not a comment ?")
        #expect(try rows[0].optionalReal("size") == nil)
        #expect(try rows[0]["bytes"] == .null)
        #expect(try rows[0].boolean("flag") == false)
        #expect(try rows[1].integer("id") == Int64.max)
        #expect(try rows[1].text("name") == "O'Brien? \"quoted\" ünïcode")
        #expect(try rows[1].real("size") == 0.1)
        #expect(try rows[1].blob("bytes") == bytes)
        #expect(try rows[1].boolean("flag"))
        // Reading a column as what it is not is an error naming the column, never a trap.
        #expect(throws: SQLEngineError.self) { try rows[1].integer("name") }
        #expect(throws: SQLEngineError.unexpectedValue(column: "missing", found: "no such column")) { try rows[1].text("missing") }
    }

    @Test("a write that throws leaves nothing behind, and its error comes back as it was thrown", arguments: CatalogEngines.Kind.allCases)
    func rollback(_ kind: CatalogEngines.Kind) throws {
        let engine = try CatalogEngines.make(kind, folder: folder)
        defer { engine.close() }
        try table(engine)
        #expect(throws: SQLEngineError.configuration("stop here")) {
            try engine.write { sql throws(SQLEngineError) in
                try sql.execute("INSERT INTO item (id, name) VALUES (?, ?)", 1, "first")
                throw SQLEngineError.configuration("stop here")
            }
        }
        let count = try engine.read { sql throws(SQLEngineError) in try sql.row("SELECT COUNT(*) AS n FROM item")?.int("n") }
        #expect(count == 0)
    }

    @Test("a unique name written twice is refused as a constraint, and the transaction is undone whole", arguments: CatalogEngines.Kind.allCases)
    func constraint(_ kind: CatalogEngines.Kind) throws {
        let engine = try CatalogEngines.make(kind, folder: folder)
        defer { engine.close() }
        try table(engine)
        try engine.write { sql throws(SQLEngineError) in try sql.execute("INSERT INTO item (id, name) VALUES (1, 'budget')") }
        let error = #expect(throws: SQLEngineError.self) {
            try engine.write { sql throws(SQLEngineError) in
                try sql.execute("INSERT INTO item (id, name) VALUES (2, 'weather')")
                try sql.execute("INSERT INTO item (id, name) VALUES (3, 'budget')")
            }
        }
        guard case .constraint = error else { Issue.record("not a constraint: \(String(describing: error))"); return }
        #expect(error?.message.hasPrefix("The catalog refused a write that would break its rules") == true)
        let names = try engine.read { sql throws(SQLEngineError) in try sql.rows("SELECT name FROM item ORDER BY id").map { row throws(SQLEngineError) in try row.text("name") } }
        #expect(names == ["budget"])
        // The engine goes on after the refused transaction.
        let changed = try engine.write { sql throws(SQLEngineError) in try sql.execute("UPDATE item SET size = ? WHERE name = ?", 2.5, "budget") }
        #expect(changed == 1)
    }

    @Test("two hosts adding one to the same row 100 times each, at once, lose no update", arguments: CatalogEngines.Kind.allCases)
    func concurrentWriters(_ kind: CatalogEngines.Kind) throws {
        let first = try CatalogEngines.make(kind, folder: folder)
        defer { first.close() }
        let second = try CatalogEngines.another(first)
        defer { second.close() }
        try first.write { sql throws(SQLEngineError) in
            try sql.execute("CREATE TABLE counter (id BIGINT PRIMARY KEY, n BIGINT NOT NULL)")
            try sql.execute("INSERT INTO counter VALUES (1, 0)")
        }
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            let engine = index == 0 ? first : second
            for _ in 0..<100 {
                do {
                    _ = try engine.write { sql throws(SQLEngineError) in try sql.execute("UPDATE counter SET n = n + 1 WHERE id = 1") }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(try first.read { sql throws(SQLEngineError) in try sql.row("SELECT n FROM counter")?.int("n") } == 200)
    }

    @Test("two hosts taking 200 jobs, 4 threads each, take every job exactly once", arguments: CatalogEngines.Kind.allCases)
    func takeRowsNoOtherHolds(_ kind: CatalogEngines.Kind) throws {
        let first = try CatalogEngines.make(kind, folder: folder)
        defer { first.close() }
        let second = try CatalogEngines.another(first)
        defer { second.close() }
        try first.write { sql throws(SQLEngineError) in
            try sql.execute("CREATE TABLE job (id BIGINT PRIMARY KEY, takenBy TEXT)")
            for id in 1...200 { try sql.execute("INSERT INTO job (id) VALUES (?)", .integer(id)) }
        }
        let taken = Mutex<[Int64: Int]>([:])
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            let engine = worker % 2 == 0 ? first : second
            while true {
                do {
                    let id = try engine.write { sql throws(SQLEngineError) -> Int64? in
                        guard let id = try sql.row("SELECT id FROM job WHERE takenBy IS NULL ORDER BY id LIMIT 1" + engine.dialect.takeRowsNoOtherHolds)?.integer("id") else { return nil }
                        try sql.execute("UPDATE job SET takenBy = ? WHERE id = ?", .text("worker \(worker)"), .integer(id))
                        return id
                    }
                    guard let id else { break }
                    taken.withLock { $0[id, default: 0] += 1 }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                    break
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(taken.withLock { $0.count } == 200)
        #expect(taken.withLock { $0.values.allSatisfy { $0 == 1 } })
        let untaken = try first.read { sql throws(SQLEngineError) in try sql.row("SELECT COUNT(*) AS n FROM job WHERE takenBy IS NULL")?.int("n") }
        #expect(untaken == 0)
    }
}
