import GRDB
public import NarrationCore

extension Catalog {
    /// SQLite's own check of the catalog file: every page, index and constraint
    /// (`PRAGMA integrity_check`), and every row's references to the rows it belongs to
    /// (`PRAGMA foreign_key_check`). Nothing is written; a catalog opened read-only will do.
    /// - Parameter limit: the most problems to report.
    /// - Returns: what SQLite found wrong, in its words; empty when the file is sound.
    ///
    /// A catalog in PostgreSQL has no file to check here: the server keeps its own pages and
    /// refuses a broken reference on every write, so none is reported.
    /// - Throws: `catalogCorrupt` when the file cannot even be read as a database.
    public func integrityProblems(limit: Int = 10) throws(NarrationError) -> [String] {
        guard database != nil else { return [] }
        return try readSQLite { db in
            let pages = try String.fetchAll(db, sql: "PRAGMA integrity_check(\(max(1, limit)))").filter { $0 != "ok" }
            let references = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").prefix(max(0, limit - pages.count)).map { row in
                let table = String.fromDatabaseValue(row["table"]) ?? "?"
                let parent = String.fromDatabaseValue(row["parent"]) ?? "?"
                let rowID = Int64.fromDatabaseValue(row["rowid"]).map(String.init) ?? "?"
                return "row \(rowID) of \(table) refers to a missing \(parent)"
            }
            return pages + references
        }
    }
}
