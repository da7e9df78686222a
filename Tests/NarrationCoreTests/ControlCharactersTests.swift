import NarrationCore
import Testing

/// What text from outside may not carry into transcripts and stored names.
@Suite("Control characters and bidirectional overrides")
struct ControlCharactersTests {
    @Test("removed from a text: C0, DEL, C1 and bidi controls go, word-separating controls become spaces, the rest stays")
    func removed() {
        #expect(ControlCharacters.removed(from: "a\u{1B}[2Jb\u{07}c\u{9B}d\u{7F}e") == "a[2Jbcde")
        #expect(ControlCharacters.removed(from: "one\ttwo\nthree\rfour\u{85}five") == "one two three four five")
        #expect(ControlCharacters.removed(from: "\u{202A}\u{202B}\u{202C}\u{202D}\u{202E}x\u{2066}\u{2067}\u{2068}\u{2069}") == "x")
        #expect(ControlCharacters.removed(from: "Zürich 港口 🎙 עברית \u{200F}") == "Zürich 港口 🎙 עברית \u{200F}")
    }

    @Test("WebVTT and SubRip cues hold no ESC, BEL, C1 or U+202E, and keep the words")
    func transcript() {
        let transcript = Transcript(sampleRate: 1_000, cues: [
            Transcript.Cue(startFrame: 0, endFrame: 1_000, text: "Read \u{1B}]0;x\u{07}this \u{202E}gnp.exe\u{9B}1m & <that>"),
        ])
        #expect(transcript.webVTT == "WEBVTT\n\n1\n00:00:00.000 --> 00:00:01.000\nRead ]0;xthis gnp.exe1m &amp; &lt;that&gt;\n")
        #expect(transcript.subRip == "1\n00:00:00,000 --> 00:00:01,000\nRead ]0;xthis gnp.exe1m & <that>\n")
    }

    @Test("a NUL in a stored detail is refused with a sentence naming the detail")
    func nul() {
        #expect(throws: NarrationError(.usage, "The title holds a NUL character (U+0000), which would cut it short: remove it and try again.")) {
            try ControlCharacters.requireNoNUL("Budget\u{0}vote", in: "title")
        }
        #expect(throws: Never.self) { try ControlCharacters.requireNoNUL("Budget vote \u{1B}", in: "title") }
    }
}
