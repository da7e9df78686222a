import Foundation
import Narration
import NarrationCore
import NarrationTestSupport
import Testing

/// The library's read-only views, which the command line's listings read instead of the catalog.
@Suite("The library's records, read-only")
struct LibraryRecordsTests {
    @Test("an article's records: its chunks in the listing's order, its paragraphs with the chunks that read them, the next to read", arguments: CatalogEngines.Kind.allCases)
    func articleRecords(_ catalog: CatalogEngines.Kind) throws {
        let fixture = try LibraryFixture(catalog: catalog, sourceSeconds: 3)
        let article = try fixture.library.newArticle(title: "Harbour", publication: "", narrator: "", format: .speech)
        _ = try fixture.library.attachText(
            [ScriptParagraph(kind: .paragraph, text: "The harbour stayed closed."), ScriptParagraph(kind: .paragraph, text: "The storm passed.")],
            to: article, file: "text.txt")
        try fixture.record(article, seconds: 0.5)
        try fixture.record(article, seconds: 0.25, placement: .insert(before: ChunkIndex(1)))
        let records = fixture.library.records(of: article)
        let entries = try fixture.library.chunkEntries(of: article)
        #expect(try records.chunks().map(\.id) == entries.map(\.chunk.id))
        #expect(try records.order().ids == entries.map(\.chunk.id))
        #expect(try records.chunkCount() == 2)
        #expect(try records.chunks().map(\.frames) == [11_025, 22_050])
        let paragraphs = try records.paragraphEntries()
        #expect(paragraphs.map(\.paragraph.text) == ["The harbour stayed closed.", "The storm passed."])
        // The inserted take reads the paragraph of the chunk it went before.
        #expect(paragraphs.map { $0.chunks.map(\.number) } == [[1, 2], []])
        #expect(paragraphs.map(\.frames) == [33_075, 0])
        #expect(try records.readingPlan().next?.text == "The storm passed.")
        #expect(try records.paragraphs().count == 2)
        #expect(try records.takeChecks().isEmpty)
    }

    @Test("the history around the current article: its own edits and other articles' deletions, newest first, never another article's edits", arguments: CatalogEngines.Kind.allCases)
    func historyAroundCurrent(_ catalog: CatalogEngines.Kind) throws {
        let fixture = try LibraryFixture(catalog: catalog, sourceSeconds: 2)
        let other = try fixture.library.newArticle(title: "Other", publication: "", narrator: "", format: .speech)
        try fixture.record(other, seconds: 0.25)
        let deleted = try fixture.library.newArticle(title: "Deleted", publication: "", narrator: "", format: .speech)
        try fixture.record(deleted, seconds: 0.25)
        _ = try fixture.library.deleteArticle(deleted, force: false)
        let current = try fixture.library.newArticle(title: "Current", publication: "", narrator: "", format: .speech)
        try fixture.record(current, seconds: 0.25)
        try fixture.record(current, seconds: 0.25)
        let records = fixture.library.records
        #expect(try records.currentArticle()?.id == current.id)
        let around = try records.historyAroundCurrent(limit: 10)
        #expect(around.map(\.article) == [current.id, current.id, deleted.id])
        #expect(around.map(\.kind) == [.record, .record, .deleteArticle])
        #expect(around.map(\.number) == around.map(\.number).sorted(by: >))
        #expect(try records.historyAroundCurrent(limit: 2).map(\.article) == [current.id, current.id])
        #expect(try records.history(of: nil).count == 5)
        #expect(try records.history(of: other.id).map(\.kind) == [.record])
        #expect(try records.titles(of: [deleted.id, other.id]) == [deleted.id: "Deleted", other.id: "Other"])
        #expect(try records.articles().map(\.title) == ["Current", "Other"])
        #expect(try records.chunkTotals()[current.id]?.chunks == 2)
    }
}
