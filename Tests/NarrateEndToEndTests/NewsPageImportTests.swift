import Foundation
import NarrationCore
import NarrationTestSupport
import Testing

/// A saved news page started as an article with the built binary: the page's furniture left out,
/// its byline's author shown and its publication day made the date listeners see.
@Suite("narrate new --text with a saved news page")
struct NewsPageImportTests {
    static let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/news/01-national-daily.html")

    @Test("no share bar, advertisement, comment count or byline to read; the author named and the page's day taken")
    func savedNewsPage() throws {
        let fixture = try EndToEndFixture()
        let started = try fixture.narrate.run("new", "Reservoirs", "--text", Self.page.path)
        #expect(started.status == 0, "\(started.stderr)")
        #expect(started.stdout.contains("Its text has 9 paragraphs. Read the first with: narrate record\n"))
        #expect(started.stdout.contains("The text names its author: Priya Raman.\n"))
        #expect(started.stdout.contains("The text is dated 2026-07-14: listeners see that date (change it with: narrate edit --date).\n"))

        let listed = try fixture.narrate.run("script", "--json")
        let texts = try #require(try listed.json() as? [[String: Any]]).compactMap { $0["text"] as? String }
        #expect(texts.first == "Reservoir levels fall to lowest since 1976")
        #expect(texts.count == 9)
        for clutter in ["Share on Facebook", "Advertisement", "142 comments", "By Priya Raman", "Read more", "Most read", "Photograph"] {
            #expect(!texts.contains { $0.contains(clutter) }, "\(clutter)")
        }
        let edited = try fixture.narrate.run("edit", "--narrator", "Ann Lee")
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(edited.stdout.contains("dated 2026-07-14"))
    }
}
