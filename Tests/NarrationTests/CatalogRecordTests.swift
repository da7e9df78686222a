import Foundation
@testable import Narration
import NarrationCore
import NarrationTestSupport
import SQLEngines
import Testing

/// The catalog's rows read and written through `CatalogRecord` on both engines: every kind of
/// column comes back as written, `update` clears what became nil, `save` replaces, and a value
/// narrate never writes is refused as a sentence naming the column.
@Suite("Catalog rows on both engines")
struct CatalogRecordTests {
    static func catalog(_ kind: CatalogEngines.Kind, _ folder: TemporaryFolder) throws -> Catalog {
        try kind == .sqlite ? TestCatalogs.sqlite(folder) : TestCatalogs.postgreSQL(folder)
    }

    static let article = Article(
        id: ArticleID("aaaa0001"), title: "Harbour", publication: "Post", narrator: "Ann", format: .speech,
        createdAt: Date(timeIntervalSince1970: 1_795_000_000.25))

    @Test("text, integers, reals, booleans, times, bytes and NULL come back as written; update clears a nil; save replaces", arguments: CatalogEngines.Kind.allCases)
    func roundTrip(_ kind: CatalogEngines.Kind) throws {
        let folder = TemporaryFolder("narrate-records")
        let catalog = try Self.catalog(kind, folder)
        try catalog.add(Self.article)
        let recorded = Date(timeIntervalSince1970: 1_795_000_123.456)
        var row = ChunkRow(
            Chunk(
                id: ChunkID("cccc0001"), articleID: Self.article.id, frames: 1 << 40, format: .speech, peak: Decibels(-0.5), rms: Decibels(-23.25),
                overruns: 3, recovered: true, recordedAt: recorded, paragraphID: nil),
            position: 0)
        try catalog.writing { sql in try row.insert(sql) }
        let read = try catalog.reading { sql in try ChunkRow.one(sql, key: .text("cccc0001")) }
        #expect(read == row)
        #expect(read?.recordedAt.timeIntervalSince1970 == 1_795_000_123.456)
        #expect(read?.frames == 1 << 40 && read?.recovered == true && read?.rmsDBFS == -23.25)

        try catalog.writing { sql in
            try sql.execute(
                "INSERT INTO paragraph (id, articleId, position, kind, text, words, skipped) VALUES ('pppp0001', 'aaaa0001', 0, 'paragraph', 'x', 1, 0)")
        }
        row.paragraphId = "pppp0001"
        row.recovered = false
        try catalog.writing { sql in try row.update(sql) }
        #expect(try catalog.reading { sql in try ChunkRow.one(sql, key: .text("cccc0001")) }?.paragraphId == "pppp0001")
        row.paragraphId = nil
        try catalog.writing { sql in try row.update(sql) }
        let cleared = try catalog.reading { sql in try ChunkRow.one(sql, key: .text("cccc0001")) }
        #expect(cleared?.paragraphId == nil && cleared?.recovered == false)

        let bytes = Data((0...255).map(UInt8.init))
        try catalog.writing { sql in try ChunkMeasureRow(chunkId: "cccc0001", data: Data([1, 2])).save(sql) }
        try catalog.writing { sql in try ChunkMeasureRow(chunkId: "cccc0001", data: bytes).save(sql) }
        let measures = try catalog.reading { sql in try ChunkMeasureRow.all(sql, whereColumn: "chunkId", in: [.text("cccc0001"), .text("none")]) }
        #expect(measures.map(\.data) == [bytes])

        #expect(try catalog.reading { sql in try ChunkRow.exists(sql, key: .text("cccc0001")) })
        #expect(try catalog.writing { sql in try ChunkRow.delete(sql, key: .text("cccc0001")) })
        #expect(try catalog.writing { sql in try ChunkRow.delete(sql, key: .text("cccc0001")) } == false)
    }

    @Test("a value of another type in a chunk's row is refused as one sentence naming the column", arguments: CatalogEngines.Kind.allCases)
    func strangeValue(_ kind: CatalogEngines.Kind) throws {
        let folder = TemporaryFolder("narrate-records")
        let catalog = try Self.catalog(kind, folder)
        try catalog.add(Self.article)
        // A time narrate never writes, where both engines accept any text.
        try catalog.writing { sql in
            try sql.execute(
                """
                INSERT INTO chunk (id, articleId, position, frames, peakDBFS, rmsDBFS, overruns, recovered, recordedAt)
                VALUES ('cccc0001', 'aaaa0001', 0, 10, -1.0, -20.0, 0, 2, 'yesterday')
                """)
        }
        let error = #expect(throws: NarrationError.self) { try catalog.chunks(of: Self.article) }
        #expect(error?.kind == .catalogCorrupt)
        #expect(error?.message.contains("holds a value narrate never writes (recovered: 2, not 0 or 1)") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("\n") == false)
    }
}
