import NarrationCore
import NarrationText
import Testing

@Suite("Markdown")
struct MarkdownTests {
    @Test("headings, lists, emphasis, code, links, images and block quotes")
    func article() throws {
        let folder = try TextFolder()
        let markdown = """
            # The *river* rises

            Heavy rain fell for **three days** on the `upper valley`, says
            the [weather service](https://example.com/weather "Forecasts").

            ![A flooded street](street.jpg)

            ## What to do

            - Keep away from the _banks_.
            - Listen to local radio.

            1. Pack papers and medicine.
            2. Move the car uphill.

            > The water will peak tonight,
            > the mayor said.
            >
            > Schools stay closed.

            Help is on its way.
            """
        #expect(try folder.read("flood.md", markdown) == [
            heading("The river rises"),
            paragraph("Heavy rain fell for three days on the upper valley, says the weather service."),
            heading("What to do"),
            paragraph("Keep away from the banks."),
            paragraph("Listen to local radio."),
            paragraph("Pack papers and medicine."),
            paragraph("Move the car uphill."),
            paragraph("The water will peak tonight, the mayor said."),
            paragraph("Schools stay closed."),
            paragraph("Help is on its way."),
        ])
    }

    @Test("setext headings, autolinks, underscores inside words and a lone asterisk, with CRLF lines")
    func ordinaryPitfalls() throws {
        let folder = try TextFolder()
        let markdown = "Title of the day\r\n================\r\n\r\nA sub title\r\n-----------\r\n\r\n"
            + "Write to <news@example.com> or see <https://example.com/a_b>.\r\n\r\n"
            + "The variable snake_case_name and 5 * 3 * 2 make 30, and `code_with_underscores` stays.\r\n\r\n"
            + "Last paragraph."
        #expect(try folder.read("fixes.markdown", markdown) == [
            heading("Title of the day"),
            heading("A sub title"),
            paragraph("Write to news@example.com or see https://example.com/a_b."),
            paragraph("The variable snake_case_name and 5 * 3 * 2 make 30, and code_with_underscores stays."),
            paragraph("Last paragraph."),
        ])
    }

    @Test("nested lists, entities, a rule, a fenced code block and front matter")
    func moreStructure() throws {
        let folder = try TextFolder()
        let markdown = """
            ---
            title: Not read
            ---

            Caf&eacute; &amp; bar

            - Outer item
              - Inner item
            - Last item

            ***

            ```
            a = b_c * d
            ```
            """
        #expect(try folder.read("more.md", markdown) == [
            paragraph("Café & bar"),
            paragraph("Outer item"),
            paragraph("Inner item"),
            paragraph("Last item"),
            paragraph("a = b_c * d"),
        ])
    }

    @Test("reference links, escapes, code spans, tables, HTML comments and tags, character references, lazy quote lines")
    func inlineAndTables() throws {
        let folder = try TextFolder()
        let markdown = """
            A [link][ref], a [shortcut], [no link] and ![an image][ref]; \\*not emphasis\\*, 2*3 = 6, ``a ` b``.
            Tags <span class="x">go</span>, <!-- a comment --> <br>and &mdash; &#233; &#x263A; &bogus; stay &#x1B; as text.

            [ref]: https://example.com
            [shortcut]: https://example.com "A title"

            > A quote *in* two
            lines.

            | Name | Votes |
            |------|------:|
            | Ann  | 12 \\| 13 |

            <!--
            Not read.
            -->
            <script>
            alert("not read")
            </script>
            The end.
            """
        #expect(try folder.read("inline.md", markdown) == [
            paragraph("A link, a shortcut, [no link] and ; *not emphasis*, 2*3 = 6, a ` b. Tags go, and — é ☺ &bogus; stay &#x1B; as text."),
            paragraph("A quote in two lines."),
            paragraph("Name"),
            paragraph("Votes"),
            paragraph("Ann"),
            paragraph("12 | 13"),
            paragraph("The end."),
        ])
    }

    @Test("Markdown of only an image and a rule has no text to read")
    func nothing() throws {
        let folder = try TextFolder()
        let path = try folder.write("empty.md", "![photo](a.png)\n\n---\n")
        let error = thrown { () throws(NarrationError) in try ScriptReader.read(fileAt: path) }
        #expect(error == NarrationError(.textUnreadable, "\"empty.md\" has no text to read."))
        #expect(error?.subject == .file(path))
    }
}
