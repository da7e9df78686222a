import NarrationCore
import NarrationText
import Testing

@Suite("HTML")
struct HTMLTests {
    /// A news page as a browser saves it: head, site header and menu, the article with a figure,
    /// a list and a script inside it, an advertisement and a footer.
    static let savedPage = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
          <meta charset="utf-8">
          <title>Flood warning | The Valley Gazette</title>
          <style>body { font-family: serif; } p::before { content: "Style text"; }</style>
          <script>window.analytics = "Script text";</script>
        </head>
        <body>
          <header class="site"><a href="/">The Valley Gazette</a><p>Since 1887</p></header>
          <nav><ul><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li></ul></nav>
          <div class="wrapper">
            <article>
              <header><h1>Flood  warning for the <em>lower</em> valley</h1>
                <p class="byline">By Ann Smith &middot; 3 May</p></header>
              <p>The river rose by <strong>two metres</strong> overnight, the
                 <a href="https://example.com">water board</a> said.<br>Roads are closed.</p>
              <figure><img src="river.jpg" alt="The river"><figcaption>The river at dawn.</figcaption></figure>
              <p>Residents should:</p>
              <ul>
                <li>move valuables upstairs;</li>
                <li>keep a radio at hand.</li>
              </ul>
              <script>document.write("Inline script text");</script>
              <h2>Shelters</h2>
              <p>The school hall &amp; the church are open &ndash; day and night.</p>
              <div hidden>Hidden text</div>
              <span aria-hidden="true">Icon text</span>
              <footer><p>Updated at 9:00.</p></footer>
            </article>
            <aside class="ad"><p>Buy boots now!</p></aside>
          </div>
          <footer><p>&copy; The Valley Gazette</p><form><button>Subscribe</button></form></footer>
        </body>
        </html>
        """

    @Test("a saved news page: only the article, without figure, script, hidden elements, byline and date line")
    func savedNewsPage() throws {
        let folder = try TextFolder()
        let document = try ScriptReader.readDocument(fileAt: folder.write("flood.html", Self.savedPage))
        #expect(document.author == "Ann Smith")
        #expect(document.published == nil)  // "3 May" has no year
        #expect(document.paragraphs == [
            heading("Flood warning for the lower valley"),
            paragraph("The river rose by two metres overnight, the water board said. Roads are closed."),
            paragraph("Residents should:"),
            paragraph("move valuables upstairs;"),
            paragraph("keep a radio at hand."),
            heading("Shelters"),
            paragraph("The school hall & the church are open – day and night."),
        ])
    }

    @Test("a page without an article: the body, without its site header, menu, footer and aside")
    func bodyPage() throws {
        let folder = try TextFolder()
        let page = """
            <html><head><title>Notes</title></head><body>
            <header><h1>Site name</h1></header>
            <nav>Home | About</nav>
            <h1>Council meeting</h1>
            <div>Text straight in a div.</div>
            <div><div>Nested <b>div</b> text</div>Tail text after a block</div>
            <dl><dt>When</dt><dd>Tuesday</dd></dl>
            <blockquote>We will act, the mayor said.</blockquote>
            <table><tr><td>Cell one</td><td>Cell two</td></tr></table>
            <aside>Related stories</aside>
            <noscript>Enable JavaScript</noscript>
            <p style="display: none">Invisible</p>
            <footer>Contact us</footer>
            </body></html>
            """
        #expect(try folder.read("notes.htm", page) == [
            heading("Council meeting"),
            paragraph("Text straight in a div."),
            paragraph("Nested div text"),
            paragraph("Tail text after a block"),
            paragraph("When"),
            paragraph("Tuesday"),
            paragraph("We will act, the mayor said."),
            paragraph("Cell one"),
            paragraph("Cell two"),
        ])
    }

    @Test("main, or role=\"main\", is taken when there is no article")
    func mainElement() throws {
        let folder = try TextFolder()
        #expect(try folder.read("a.html", "<body><p>Outside</p><main><header><h2>Inside</h2></header><p>Main text</p></main></body>") == [
            heading("Inside"), paragraph("Main text"),
        ])
        #expect(try folder.read("b.html", "<body><p>Outside</p><div role=\"main\"><p>Role text</p></div></body>") == [
            paragraph("Role text"),
        ])
        #expect(try folder.read("c.html", "<body><aside><article><p>Teaser</p></article></aside><article><p>The story</p></article></body>") == [
            paragraph("The story"),
        ])
    }

    @Test("a declared windows-1252 character set is converted: é comes out right")
    func windows1252() throws {
        let folder = try TextFolder()
        let bytes = Array("<html><head><meta charset=\"windows-1252\"></head><body><p>Caf".utf8) + [0xE9, 0x20, 0x80]
            + Array(" au lait</p></body></html>".utf8)
        let path = try folder.write("cafe.html", bytes: bytes)
        #expect(try ScriptReader.read(fileAt: path) == [paragraph("Café € au lait")])
    }

    @Test("the older http-equiv declaration and an ISO-8859-1 label are converted too")
    func latin1HTTPEquiv() throws {
        let bytes = Array("<html><head><META HTTP-EQUIV=\"Content-Type\" CONTENT=\"text/html; charset=ISO-8859-1\"></head><body><p>na".utf8)
            + [0xEF, 0x76, 0x65] + Array("</p></body></html>".utf8)
        #expect(try ScriptReader.read(bytes, format: .html, name: "old.html") == [paragraph("naïve")])
    }

    @Test("a character set libxml2 cannot convert is refused")
    func unknownCharset() throws {
        let folder = try TextFolder()
        let path = try folder.write("odd.html", "<html><head><meta charset=\"x-no-such-set\"></head><body><p>Text</p></body></html>")
        let error = thrown { () throws(NarrationError) in try ScriptReader.read(fileAt: path) }
        #expect(error == NarrationError(.textUnreadable,
            "\"odd.html\" declares the character set \"x-no-such-set\", which cannot be read: save it as UTF-8 and try again."))
    }

    @Test("an HTML page that declares nothing must be UTF-8: libxml2 is not left to guess Latin-1")
    func undeclaredLatin1() throws {
        let folder = try TextFolder()
        let path = try folder.write("guess.html", bytes: Array("<p>Caf".utf8) + [0xE9] + Array("</p>".utf8))
        let error = thrown { () throws(NarrationError) in try ScriptReader.read(fileAt: path) }
        #expect(error?.message == "\"guess.html\" is not UTF-8 (byte 0xE9 at offset 6): save it as UTF-8 and try again.")
    }

    @Test("a page with no text is refused")
    func noText() throws {
        let folder = try TextFolder()
        let path = try folder.write("blank.html", "<html><head><title>Only a title</title><script>var a = 1;</script></head><body><img src=\"a.png\"><nav>Menu</nav></body></html>")
        let error = thrown { () throws(NarrationError) in try ScriptReader.read(fileAt: path) }
        #expect(error == NarrationError(.textUnreadable, "\"blank.html\" has no text to read."))
        #expect(error?.subject == .file(path))
    }
}
