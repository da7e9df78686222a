import Foundation
@testable import Narration
import NarrationCore
import NarrationTestSupport
import SQLEngines
import Testing

/// A library's SQLite catalog copied into a real PostgreSQL server: the library opened on the
/// copy reads exactly what it read before, goes on numbering its edits after the copied ones, a
/// second run writes nothing, and a copy that holds something else is refused.
@Suite("A library's catalog migrated into PostgreSQL")
struct CatalogMigrationTests {
    @Test("texts, takes, edits, an undo and a queued export come across row for row; the library on the copy lists the same and goes on")
    func migrated() throws {
        let fixture = try LibraryFixture(sourceSeconds: 3)
        let library = fixture.library
        let first = try library.newArticle(title: "Harbour", publication: "Post", narrator: "Ann", format: .speech)
        _ = try library.attachText(
            [ScriptParagraph(kind: .heading, text: "Harbour"), ScriptParagraph(kind: .paragraph, text: "The harbour stayed closed.")], to: first, file: "t.txt")
        try fixture.record(first, seconds: 0.3)
        try fixture.record(first, seconds: 0.2)
        _ = try library.deleteChunk(at: ChunkIndex(1), of: first)
        _ = try library.undo(.article(first.id))
        _ = try library.queue(first, profile: .archive)
        let second = try library.newArticle(title: "Weather", publication: "Post", narrator: "Bo", format: .speech)
        try fixture.record(second, seconds: 0.25)

        let engine = try CatalogEngines.make(.postgreSQL, folder: fixture.folder)
        let target = try Catalog(engine: engine, name: "on the test server")
        var steps: [CatalogCopyProgress] = []
        let report = try library.migrateCatalog(into: target, batchRows: 2) { steps.append($0) }
        let byTable = Dictionary(uniqueKeysWithValues: report.tables.map { ($0.table, $0) })
        #expect(byTable["article"]?.rows == 2 && byTable["article"]?.written == 2)
        #expect(byTable["chunk"]?.rows == 3)
        #expect(byTable["edit"]?.rows == 5)  // the text, two takes, a deletion, the second article's take; the undo marks one
        #expect(byTable["outbox"]?.rows == 1)
        #expect(report.tables.first?.table == "article" || report.tables.firstIndex { $0.table == "article" }! < report.tables.firstIndex { $0.table == "chunk" }!)
        #expect(report.chunksVerified == 3 && report.chunkProblems == [])
        #expect(steps.contains { $0.table == "chunk" && $0.rows == 2 && $0.ofRows == 3 })

        let shared = try NarrationLibrary(root: library.root, catalog: target)
        #expect(try shared.records.articles().map(\.id) == library.records.articles().map(\.id))
        for article in [first, second] {
            #expect(try shared.chunkEntries(of: article).map(\.chunk) == library.chunkEntries(of: article).map(\.chunk))
            #expect(try shared.chunkEntries(of: article).allSatisfy { $0.problem == nil })
            #expect(try shared.records.history(of: article.id) == library.records.history(of: article.id))
            #expect(try shared.records(of: article).paragraphs() == library.records(of: article).paragraphs())
        }
        #expect(try shared.outboxJobs().map(\.id) == library.outboxJobs().map(\.id))
        // New edits are numbered after the copied ones.
        let before = try #require(try shared.records.history(of: nil).map(\.number).max())
        _ = try shared.changeDetails(of: second, DetailsChange(title: "Weather at sea"))
        #expect(try shared.records.history(of: second.id).first?.number == before + 1)
    }

    @Test("run again, it writes nothing and verifies all; a copy holding another value is refused naming the table")
    func againAndRefused() throws {
        let fixture = try LibraryFixture(sourceSeconds: 2)
        let article = try fixture.library.newArticle(title: "Harbour", publication: "Post", narrator: "Ann", format: .speech)
        try fixture.record(article, seconds: 0.3)
        let target = try Catalog(engine: try CatalogEngines.make(.postgreSQL, folder: fixture.folder), name: "on the test server")
        _ = try fixture.library.migrateCatalog(into: target)
        let again = try fixture.library.migrateCatalog(into: target)
        #expect(again.tables.allSatisfy { $0.written == 0 })
        #expect(again.tables.first { $0.table == "chunk" }?.rows == 1)
        try target.writing { sql in try sql.execute("UPDATE article SET title = 'Another library'") }
        let error = #expect(throws: NarrationError.self) { try fixture.library.migrateCatalog(into: target) }
        #expect(error?.kind == .catalogCorrupt)
        #expect(error?.message.contains("differs from this library's after the copy: article (1 rows not copied, 1 not this library's)") == true, "\(error?.message ?? "")")
        let sqlite = try Catalog(engine: try CatalogEngines.make(.sqlite, folder: fixture.folder, name: "other"), name: "other")
        #expect(throws: NarrationError.usage("A library's catalog is migrated into PostgreSQL: name the server with postgresql://USER@HOST:PORT/DATABASE.")) {
            try fixture.library.migrateCatalog(into: sqlite)
        }
    }
}
