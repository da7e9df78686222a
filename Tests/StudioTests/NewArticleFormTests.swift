import Narration
import NarrationCore
import NarrationTestSupport
import Studio
import Testing

/// The new-article form with characters that would cut a title short or reorder it on screen.
@Suite("The new-article form and hostile characters")
struct NewArticleFormTests {
    @Test("NUL, ESC, BEL and bidirectional overrides typed into a field are left out; the rest is typed")
    func typing() {
        var form = NewArticleForm(publication: "Daily Post", narrator: "Ann Reader")
        for character in "Bud\u{0}g\u{1B}e\u{07}t\u{202E} \u{2066}vote" { form.edit(.character(character)) }
        #expect(form.title == "Budget vote")
        form.edit(.tab)
        form.edit(.character("\u{0}"))
        #expect(form.publication == "Daily Post")
    }

    @Test("a title, publication or narrator holding NUL (as a web form can send) is refused with a sentence; no article is made",
          arguments: [
            ("Budget\u{0} vote", "Daily Post", "Ann Reader", "title"),
            ("Budget vote", "Daily\u{0}Post", "Ann Reader", "publication"),
            ("Budget vote", "Daily Post", "\u{0}Ann", "narrator"),
          ])
    func nulRefused(title: String, publication: String, narrator: String, detail: String) throws {
        let folder = TemporaryFolder("narrate-library")
        let library = try NarrationLibrary(root: DataRoot(url: folder.url.appendingPathComponent("home")))
        #expect(throws: NarrationError(.usage, "The \(detail) holds a NUL character (U+0000), which would cut it short: remove it and try again.")) {
            try library.newArticle(title: title, publication: publication, narrator: narrator, format: .speech)
        }
        #expect(try library.records.articles().isEmpty)
    }

    @Test("an edit of the details holding NUL is refused too, and the title stays whole")
    func nulInEdit() throws {
        let folder = TemporaryFolder("narrate-library")
        let library = try NarrationLibrary(root: DataRoot(url: folder.url.appendingPathComponent("home")))
        let article = try library.newArticle(title: "Budget vote", publication: "Daily Post", narrator: "Ann Reader", format: .speech)
        #expect(throws: NarrationError(.usage, "The title holds a NUL character (U+0000), which would cut it short: remove it and try again.")) {
            try library.changeDetails(of: article, DetailsChange(title: "Budget\u{0}"))
        }
        #expect(try library.article(article.id.rawValue).title == "Budget vote")
    }
}
