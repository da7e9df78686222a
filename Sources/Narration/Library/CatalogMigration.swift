public import NarrationCore

/// What `migrateCatalog` copied and verified.
public struct CatalogMigrationReport: Sendable, Codable, Equatable {
    /// Every table, parents first, with its rows and how many this run wrote.
    public let tables: [CatalogTableCopy]
    /// Chunks whose rows are in both catalogs and whose files in the data folder hold what
    /// their rows say.
    public let chunksVerified: Int
    /// Chunks whose files are missing or not what their rows say ("<article>/<chunk>: missing"),
    /// as the library's own listing would report them; they are copied all the same.
    public let chunkProblems: [String]
}

extension NarrationLibrary {
    /// Copies this library's catalog (its SQLite file) into `target`, a catalog in PostgreSQL,
    /// row for row, `batchRows` rows per transaction, then verifies every row of every table,
    /// and each chunk's file against its row. The recordings stay in the data folder.
    ///
    /// Run again after it was stopped (killed, the server gone), it goes on where it stopped:
    /// rows already copied are left as they are, then verified like the rest.
    /// - Throws: `usage` when this library's catalog is not a SQLite file or `target` not a
    ///   PostgreSQL one; `catalogCorrupt` naming the tables whose rows differ after the copy
    ///   (the target holds another library's rows, or this one changed since an earlier run).
    public func migrateCatalog(
        into target: Catalog, batchRows: Int = 500, progress: (CatalogCopyProgress) -> Void = { _ in }
    ) throws(NarrationError) -> CatalogMigrationReport {
        guard catalog.engine.dialect == .sqlite else {
            throw .usage("This library's catalog is kept by PostgreSQL already: there is nothing to migrate.")
        }
        guard target.engine.dialect == .postgreSQL else {
            throw .usage("A library's catalog is migrated into PostgreSQL: name the server with postgresql://USER@HOST:PORT/DATABASE.")
        }
        let copies = try catalog.copy(into: target, batchRows: max(1, min(batchRows, 10_000)), progress: progress)
        let differences = try catalog.differences(from: target)
        guard differences.isEmpty else {
            let list = differences.map { "\($0.table) (\($0.missing) rows not copied, \($0.extra) not this library's)" }.joined(separator: ", ")
            throw NarrationError(
                .catalogCorrupt,
                "The catalog \(target.path) differs from this library's after the copy: \(list). It holds another library's records, or this library changed since an earlier copy: copy into an empty database.")
        }
        var verified = 0
        var problems: [String] = []
        for (article, chunk) in try catalog.everyChunk() {
            if let problem = Self.fileProblem(of: root.chunkURL(chunk.id, of: article), chunk: chunk) {
                problems.append("\(article.rawValue)/\(chunk.id.rawValue): \(problem.name)")
            } else {
                verified += 1
            }
        }
        return CatalogMigrationReport(tables: copies, chunksVerified: verified, chunkProblems: problems)
    }
}
