import Foundation
public import NarrationCore
import ObjectStorage
import SQLEngines

/// How far a copy of the catalog into another engine has come (`NarrationLibrary.migrateCatalog`).
public struct CatalogCopyProgress: Sendable, Equatable {
    /// The table being copied, and its place among them (1-based).
    public let table: String
    public let tableNumber: Int
    public let tables: Int
    /// Rows of the table copied so far (already there counts as copied), and its rows in all.
    public let rows: Int
    public let ofRows: Int
}

/// One table of a copied catalog, as verified.
public struct CatalogTableCopy: Sendable, Equatable, Codable {
    public let table: String
    /// Rows in the source, and in the copy: equal when verified.
    public let rows: Int
    /// Rows written by this run (the rest were there from a run that was stopped).
    public let written: Int
}

/// Copying every table of a SQLite catalog into a PostgreSQL one, row for row, and verifying it.
///
/// The tables go parents first (by their foreign keys), each in batches, each batch one
/// transaction; a row already in the copy (same key) is left alone, so a copy that was stopped
/// anywhere goes on where it stopped when run again. Identity columns' sequences are set past the
/// ids copied. The verification reads both catalogs afresh and compares every row's values.
extension Catalog {
    /// The catalog's tables, parents before the tables that refer to them, with their columns.
    func tablesInCopyOrder() throws(NarrationError) -> [(name: String, columns: [String])] {
        try reading { sql in
            let names = try sql.rows(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT IN ('grdb_migrations', 'catalog_migration') ORDER BY name"
            ).map { try $0.text("name") }
            var columns: [String: [String]] = [:]
            var parents: [String: Set<String>] = [:]
            for name in names {
                columns[name] = try sql.rows("SELECT name FROM pragma_table_info(?) ORDER BY cid", .text(name)).map { try $0.text("name") }
                parents[name] = Set(try sql.rows("SELECT \"table\" AS parent FROM pragma_foreign_key_list(?)", .text(name)).map { try $0.text("parent") })
                    .subtracting([name])
            }
            var ordered: [String] = []
            var placed: Set<String> = []
            while ordered.count < names.count {
                let ready = names.filter { !placed.contains($0) && (parents[$0] ?? []).isSubset(of: placed) }
                // Tables that refer to each other in a ring go in name order.
                let next = ready.isEmpty ? names.filter { !placed.contains($0) } : ready
                ordered += next
                placed.formUnion(next)
            }
            return ordered.map { ($0, columns[$0] ?? []) }
        }
    }

    /// Copies every table into `target` (a catalog whose tables are made), `batchRows` rows per
    /// transaction, telling `progress` after each batch.
    /// - Returns: each table's rows and how many this run wrote.
    func copy(
        into target: Catalog, batchRows: Int, progress: (CatalogCopyProgress) -> Void
    ) throws(NarrationError) -> [CatalogTableCopy] {
        let tables = try tablesInCopyOrder()
        var copies: [CatalogTableCopy] = []
        for (number, table) in tables.enumerated() {
            let quotedColumns = table.columns.map { "\"\($0)\"" }.joined(separator: ", ")
            let total = try reading { sql in try sql.row("SELECT COUNT(*) AS n FROM \"\(table.name)\"")?.int("n") ?? 0 }
            var after: Int64 = 0
            var rows = 0
            var written = 0
            progress(CatalogCopyProgress(table: table.name, tableNumber: number + 1, tables: tables.count, rows: 0, ofRows: total))
            while true {
                let batch = try reading { sql in
                    try sql.rows(
                        "SELECT rowid AS narrate_copy_rowid, \(quotedColumns) FROM \"\(table.name)\" WHERE rowid > ? ORDER BY rowid LIMIT ?",
                        .integer(after), .integer(batchRows))
                }
                guard let last = batch.last else { break }
                after = try Self.value { try last.integer("narrate_copy_rowid") }
                let values = try Self.value { try batch.flatMap { row in try table.columns.map { try row[$0] } } }
                let placeholders = Array(repeating: "(" + Array(repeating: "?", count: table.columns.count).joined(separator: ", ") + ")", count: batch.count)
                    .joined(separator: ", ")
                // PostgreSQL's names are the same, unquoted (CatalogSchema.postgreSQL).
                let statement = "INSERT INTO \(table.name) (\(table.columns.joined(separator: ", "))) VALUES \(placeholders) ON CONFLICT DO NOTHING"
                written += try target.writing { sql in try sql.execute(statement, values) }
                rows += batch.count
                progress(CatalogCopyProgress(table: table.name, tableNumber: number + 1, tables: tables.count, rows: rows, ofRows: total))
            }
            copies.append(CatalogTableCopy(table: table.name, rows: rows, written: written))
        }
        try target.advanceIdentities()
        try target.refreshStatistics()
        return copies
    }

    /// Sets each identity column's sequence past the largest id its table holds, so that rows
    /// made after a copy are numbered after the copied ones. PostgreSQL only.
    func advanceIdentities() throws(NarrationError) {
        guard engine.dialect == .postgreSQL else { return }
        try writing { sql in
            let columns = try sql.rows(
                "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND is_identity = 'YES'")
            for column in columns {
                let (table, name) = (try column.text("table_name"), try column.text("column_name"))
                _ = try sql.rows(
                    "SELECT setval(pg_get_serial_sequence(?, ?), COALESCE((SELECT MAX(\(name)) FROM \(table)), 0) + 1, false) AS next",
                    .text(table), .text(name))
            }
        }
    }

    /// Has PostgreSQL read the tables afresh (`ANALYZE`), so that its plans fit the rows just
    /// copied rather than the empty tables it last saw. PostgreSQL only.
    func refreshStatistics() throws(NarrationError) {
        guard engine.dialect == .postgreSQL else { return }
        try writing { sql in try sql.execute("ANALYZE") }
    }

    /// Tables the shared catalog adds rows to of its own: the copies of chunks in the service's
    /// recordings store, which `narrate migrate` records there after the catalog's copy.
    static let tablesGrowingInTarget: Set<String> = ["chunk_copy"]

    /// Every row of every table compared with `target`'s, as values: the tables whose rows
    /// differ, with how many of each side's rows the other lacks (rows only the target has are
    /// fine in `tablesGrowingInTarget`).
    func differences(from target: Catalog) throws(NarrationError) -> [(table: String, missing: Int, extra: Int)] {
        var found: [(table: String, missing: Int, extra: Int)] = []
        for table in try tablesInCopyOrder() {
            let list = table.columns.joined(separator: ", ")
            let mine = try reading { sql in try Self.fingerprints(sql.rows("SELECT \(list) FROM \"\(table.name)\""), table.columns) }
            let theirs = try target.reading { sql in try Self.fingerprints(sql.rows("SELECT \(list) FROM \(table.name)"), table.columns) }
            let missing = mine.subtracting(theirs).count
            let extra = Self.tablesGrowingInTarget.contains(table.name) ? 0 : theirs.subtracting(mine).count
            if missing > 0 || extra > 0 { found.append((table.name, missing, extra)) }
        }
        return found
    }

    /// Each row as one text of its values, the same for the same values whichever engine read
    /// them (a whole number is the same whether stored as an integer or a real).
    private static func fingerprints(_ rows: [SQLRow], _ columns: [String]) throws -> Set<String> {
        var set: Set<String> = []
        for row in rows {
            var text = ""
            for column in columns {
                switch try row[column] {
                case .null: text += "∅"
                case .integer(let value): text += "n\(value)"
                case .real(let value):
                    text += value.rounded() == value && abs(value) < 9e15 ? "n\(Int64(value))" : "r\(value)"
                case .text(let value): text += "t\(value.utf8.count):\(value)"
                case .blob(let bytes): text += "b\(Digest.sha256Hex(Data(bytes)))"
                }
                text += "|"
            }
            set.insert(text)
        }
        return set
    }

    private static func value<T>(_ read: () throws -> T) throws(NarrationError) -> T {
        do { return try read() } catch { throw NarrationError(.catalogCorrupt, "The catalog holds a row it cannot copy (\(error)).") }
    }
}
