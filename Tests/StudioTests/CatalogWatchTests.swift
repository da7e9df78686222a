import Foundation
@testable import Narration
import NarrationCore
import NarrationTestSupport
import Studio
import Testing

/// How a studio notices what another host or command did to its article (`CatalogWatch`): on
/// SQLite from the file's data version, on PostgreSQL from the article's own change number, kept
/// by triggers in the transaction that changes it.
@Suite("A studio's watch on its article, on both engines")
struct CatalogWatchTests {
    /// Another host's library on the same catalog: on PostgreSQL a second connection with a data
    /// folder of its own; on SQLite a second connection to the same file.
    static func anotherHost(of fixture: LibraryFixture, _ kind: CatalogEngines.Kind) throws -> NarrationLibrary {
        switch kind {
        case .sqlite:
            return try NarrationLibrary(root: fixture.library.root)
        case .postgreSQL:
            return try NarrationLibrary(
                root: DataRoot(url: fixture.folder.url.appendingPathComponent("second-host")),
                catalog: Catalog(engine: try CatalogEngines.another(fixture.library.catalog.engine), name: "the second host"), host: "second-host 2 bbbb")
        }
    }

    @Test("another host's delete, text and take check on the article are noticed; once caught up, nothing more", arguments: CatalogEngines.Kind.allCases)
    func noticesAnotherHost(_ kind: CatalogEngines.Kind) throws {
        let fixture = try LibraryFixture(catalog: kind, sourceSeconds: 3)
        let library = fixture.library
        let article = try library.newArticle(title: "Harbour", publication: "", narrator: "", format: .speech)
        let other = try library.newArticle(title: "Weather", publication: "", narrator: "", format: .speech)
        try fixture.record(article, seconds: 0.5)
        try fixture.record(article, seconds: 0.5)
        try fixture.record(other, seconds: 0.5)
        let second = try Self.anotherHost(of: fixture, kind)
        var watch = CatalogWatch(library: library, interval: 0)
        func changed() -> Bool { watch.changed(checkingNow: true, article: article.id) }
        #expect(!changed())  // the first look learns the number
        #expect(!changed())

        _ = try second.deleteChunk(at: ChunkIndex(1), of: try second.article(article.id.rawValue))
        #expect(changed())
        #expect(changed(), "pending until the studio caught up")
        watch.caughtUp()
        #expect(!changed())

        _ = try second.attachText(
            [ScriptParagraph(kind: .paragraph, text: "The harbour stayed closed on Monday.")], to: try second.article(article.id.rawValue), file: "text.txt")
        #expect(changed())
        watch.caughtUp()

        if kind == .postgreSQL {
            // Another article's change is not this studio's.
            _ = try second.deleteChunk(at: ChunkIndex(1), of: try second.article(other.id.rawValue))
            #expect(!changed())
        }
        // A take's check kept by another host (its job, `TakeCheckWork`).
        let chunk = try #require(try library.catalog.chunks(of: article).first).id
        let report = TakeCheckReport(hints: [], sentenceCues: [], rate: SpeakingRate(words: 6, speechSeconds: 0.5), recognised: true)
        #expect(try second.catalog.storeTakeCheck(report, for: chunk))
        #expect(changed())
    }
}
