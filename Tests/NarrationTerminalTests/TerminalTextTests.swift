import NarrationTerminal
import Testing

/// What `Console` and the studio do with control characters in text from volunteers and files.
@Suite("Control characters shown as \\u{XX}")
struct TerminalTextTests {
    @Test("every C0, DEL and C1 control and every bidirectional override or isolate becomes \\u{XX}; printable text, accents, emoji and right-to-left scripts stay", arguments: [
        ("\u{1B}]0;pwned\u{07}", "\\u{1B}]0;pwned\\u{07}"),
        ("\u{1B}[2J", "\\u{1B}[2J"),
        ("a\u{0}b\rc\td\u{7F}", "a\\u{00}b\\u{0D}c\\u{09}d\\u{7F}"),
        ("\u{80}\u{9B}1m\u{9F}", "\\u{80}\\u{9B}1m\\u{9F}"),
        ("Zürich 港口 🎙 café", "Zürich 港口 🎙 café"),
        ("photo\u{202E}gnp.exe", "photo\\u{202E}gnp.exe"),
        ("\u{202A}\u{202B}\u{202C}\u{202D} \u{2066}\u{2067}\u{2068}\u{2069}", "\\u{202A}\\u{202B}\\u{202C}\\u{202D} \\u{2066}\\u{2067}\\u{2068}\\u{2069}"),
        ("עברית and عربي stay: no override in them", "עברית and عربي stay: no override in them"),
    ])
    func escaped(text: String, shown: String) {
        #expect(TerminalText.escaped(text) == shown)
    }

    @Test("a line of several lines keeps its newlines when asked to")
    func keepsNewlines() {
        #expect(TerminalText.escaped("a\nb\u{1B}", keeping: ["\n"]) == "a\nb\\u{1B}")
        #expect(TerminalText.escaped("a\nb") == "a\\u{0A}b")
    }

    @Test("a status line keeps its leading \\r, trailing \\n, ESC[K and colours; the title's controls are escaped")
    func statusLine() {
        let meter = "\u{1B}[32m███\u{1B}[33m█\u{1B}[0m"
        #expect(TerminalText.escapedStatus("\r\u{1B}[K● REC 00:00:01  \(meter)") == "\r\u{1B}[K● REC 00:00:01  \(meter)")
        #expect(TerminalText.escapedStatus("\r\u{1B}[K● Recording \"\u{1B}]0;x\u{07}\u{1B}[2J\rT\" on vmic.\n")
            == "\r\u{1B}[K● Recording \"\\u{1B}]0;x\\u{07}\\u{1B}[2J\\u{0D}T\" on vmic.\n")
        #expect(TerminalText.escapedStatus("\u{1B}[1;31m\u{1B}[") == "\u{1B}[1;31m\\u{1B}[")
    }
}
