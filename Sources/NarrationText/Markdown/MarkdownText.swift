import Ink
import NarrationCore

/// Markdown read into paragraphs: Ink turns it into HTML, and the HTML is read as an HTML file is
/// (`HTMLText`): `#` headings are headings, each list item is a paragraph, emphasis, code and links
/// give their words, images give nothing.
///
/// Ink 0.6.0 fails at a few ordinary things, so the Markdown is prepared before Ink sees it
/// (`MarkdownPreparation`):
/// - Setext headings (a line underlined with `===` or `---`) are not headings to Ink: `===` stays
///   in the paragraph's text, `---` becomes a rule. They are rewritten as `#` and `##` headings.
/// - A block quote of several paragraphs comes out as one paragraph. Quotes are read like any other
///   text, so their `>` markers are taken off and their paragraphs stay paragraphs.
/// - An autolink (`<https://example.com>`, `<name@example.com>`) swallows the rest of the document
///   into one paragraph, as raw HTML that is never closed. It is rewritten as its address.
/// - An underscore inside a word (`snake_case_name`) starts emphasis, and the underscores vanish;
///   `*` or `_` with white space on both sides (`5 * 3`) does too. Both are escaped.
/// - Lines ending in CRLF or a lone CR are made LF lines first.
/// Other limits of Ink, left as they are: a document that starts with a `---` line has its first
/// lines up to the next `---` taken as metadata and not read (as front matter should be); a
/// paragraph of an item in a loose list after the first is read as a paragraph after the list; an
/// inline HTML tag left open (`<Enter>` in running text) swallows the rest of the document.
enum MarkdownText {
    static func paragraphs(of text: String, _ source: TextBytes.Source) throws(NarrationError) -> [ScriptParagraph] {
        let prepared = MarkdownPreparation.prepare(text)
        let parser = MarkdownParser()
        let html = parser.html(from: prepared)
        return try HTMLText.paragraphs(ofUTF8OrDeclared: Array(html.utf8)[...], encoding: "UTF-8", source)
    }
}
