import Foundation
@testable import Narration
import NarrationCore
import NarrationTestSupport
import Testing

/// A take is checked once: the background check after a take and `narrate script --check` may
/// both check it, and the one that finishes last must not undo what the volunteer did with the
/// first (dismissed its hints).
@Suite("Take checks kept once")
struct TakeCheckStoreTests {
    @Test("a second check of the same take, arriving after its hints were dismissed, leaves them dismissed", arguments: CatalogEngines.Kind.allCases)
    func lateSecondCheck(_ catalog: CatalogEngines.Kind) throws {
        let fixture = try LibraryFixture(catalog: catalog, sourceSeconds: 3)
        let article = try fixture.library.newArticle(title: "Twice", publication: "", narrator: "", format: .speech)
        _ = try fixture.library.attachText(
            [ScriptParagraph(kind: .paragraph, text: "The harbour stayed closed on Monday while the storm passed.")], to: article, file: "text.txt")
        try fixture.record(article, seconds: 2)
        let checks = try fixture.library.checkTakes(of: article, language: "en")
        let first = try #require(checks.first)
        #expect(try fixture.library.dismissHints(ofParagraph: 1, in: article) == 1)
        // The other checker finishes now, with its own report of the same take.
        #expect(try fixture.library.catalog.storeTakeCheck(first.report, for: first.chunk) == false)
        let kept = try #require(try fixture.library.catalog.takeChecks(of: article.id)[first.chunk])
        #expect(kept.dismissed)
        #expect(try fixture.library.checkTakes(of: article, language: "en").isEmpty)
    }
}
