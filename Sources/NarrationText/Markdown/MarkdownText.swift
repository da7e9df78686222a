import NarrationCore

/// Markdown read into paragraphs: `#` and underlined headings are headings; each paragraph, list
/// item, quoted paragraph, table cell and fenced code block is a paragraph; emphasis markers go,
/// code and links give their words, autolinks their address; images, HTML comments and tags,
/// link reference definitions, rules and front matter give nothing. Character references
/// (`&eacute;`) are decoded.
///
/// narrate reads Markdown with a reader of its own (`MarkdownBlocks`, `MarkdownInline`) rather
/// than a general Markdown library, because reading a text must stay bounded in time and depth
/// whatever the file holds, and a library that renders Markdown to HTML is not: Ink 0.6.0, used
/// before, took 16.7 s on `[`×24 `x` `]`×24 (doubling with each bracket, from its backtracking
/// link parser) and overflowed the stack on ten thousand brackets. A guard in front of it would
/// have had to know every path of Ink's recursion. What narrate needs of Markdown is small (the
/// words and where paragraphs and headings are, no rendering), so the reader here:
/// - works in one pass over lines and one pass over each paragraph, with explicit stacks and no
///   recursion, every look-ahead bounded or remembered (see `MarkdownInline`), so its time grows
///   linearly with the text and no nesting can exhaust the stack;
/// - refuses a text over `sizeLimit` with a sentence, before reading it;
/// - decodes HTML 4's character references itself (`CharacterReference`) and collapses white
///   space as plain text does (`ParagraphCollector`).
///
/// Its limits, chosen for reading aloud: indented code blocks are not told from text (their words
/// are read as a paragraph); a list item's later paragraphs are paragraphs like any other; the
/// emphasis pairing is simpler than CommonMark's (markers go, words stay); an inline HTML tag is
/// dropped and its text kept.
enum MarkdownText {
    /// The largest Markdown file read: 16 MiB, some thirty novels. Reading it takes about as long
    /// as reading as many bytes of plain text.
    static let sizeLimit = 16 << 20

    static func paragraphs(of text: String, _ source: TextBytes.Source) throws(NarrationError) -> [ScriptParagraph] {
        let bytes = Array(text.utf8)
        guard bytes.count <= sizeLimit else {
            let megabytes = Double(bytes.count) / Double(1 << 20)
            throw source.refusal(
                "\"\(source.name)\" is \((megabytes * 10).rounded(.down) / 10) MB of Markdown, more than the 16 MB narrate reads as one article: split it into articles and try again.")
        }
        let document = MarkdownBlocks.read(bytes)
        var collector = ParagraphCollector()
        var words: [UInt8] = []
        for block in document.blocks {
            words.removeAll(keepingCapacity: true)
            if block.kind == .code {
                words = block.text
            } else {
                MarkdownInline.appendWords(of: block.text, linkLabels: document.linkLabels, to: &words)
            }
            words.withUnsafeBufferPointer { collector.add($0) }
            if case .heading = block.kind { collector.end(as: .heading) } else { collector.end(as: .paragraph) }
        }
        return collector.paragraphs
    }
}
