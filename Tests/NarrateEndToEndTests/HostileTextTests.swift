import Foundation
import NarrationCore
import NarrationTestSupport
import Testing

/// Texts and titles made to hurt: Markdown that made the old reader run for ever or overflow its
/// stack, control characters and bidirectional overrides that would reach the terminal or the
/// transcripts, and binary files given as texts.
@Suite("Hostile texts and titles, through the binary")
struct HostileTextTests {
    /// ESC, BEL, a CSI sequence and RIGHT-TO-LEFT OVERRIDE (which shows "exe.png" as "gnp.exe").
    static let hazards: [Unicode.Scalar] = ["\u{1B}", "\u{07}", "\u{9B}", "\u{202E}"]

    private func expectNoHazard(_ bytes: some Sequence<Unicode.Scalar>, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for scalar in bytes where Self.hazards.contains(scalar) {
            Issue.record("\(what) holds U+\(String(scalar.value, radix: 16, uppercase: true)) raw", sourceLocation: sourceLocation)
            return
        }
    }

    @Test("Markdown of [ ×N x ] ×N is attached in well under a second at N = 24, 10,000 and 500,000 (Ink: 16.7 s at 24, a crash at 10,000)",
          arguments: [24, 10_000, 500_000])
    func bracketBomb(count: Int) throws {
        let fixture = try EndToEndFixture()
        _ = try fixture.newArticle("Bomb")
        let text = String(repeating: "[", count: count) + "x" + String(repeating: "]", count: count)
        let file = fixture.folder.file("bomb.md")
        try Data(text.utf8).write(to: file)
        let started = ContinuousClock.now
        let result = try fixture.narrate.run("script", file.path)
        let elapsed = ContinuousClock.now - started
        print("figure: narrate script on [×\(count) x ]×\(count): \(elapsed), process start and catalog included")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Attached the text of \"Bomb\" ("), "\(result.stdout)")
        #expect(elapsed < .seconds(3))
        let paragraphs = try #require(try fixture.narrate.run("script", "--json").json() as? [[String: Any]])
        #expect(paragraphs.map { $0["text"] as? String } == [text])
    }

    @Test("a title and paragraphs with ESC, BEL, CSI and U+202E: list and script show them escaped; the WebVTT and SubRip files hold none")
    func controlsAndOverrides() throws {
        let fixture = try EndToEndFixture()
        let title = "Budget \u{202E}gnp.exe\u{1B}]0;x\u{07}"
        let id = try fixture.newArticle(title)
        try fixture.attachText([
            ScriptParagraph(kind: .paragraph, text: "The council \u{1B}[2Jmet\u{07} on \u{202E}Tuesday."),
            ScriptParagraph(kind: .paragraph, text: "It adopted\u{9B}1m the \u{2066}budget\u{2069}."),
        ], to: id)
        let list = try fixture.narrate.run("list")
        #expect(list.status == 0)
        expectNoHazard(list.stdout.unicodeScalars, "list's output")
        #expect(list.stdout.contains("Budget \\u{202E}gnp.exe\\u{1B}]0;x\\u{07}"), "\(list.stdout)")
        let script = try fixture.narrate.run("script")
        expectNoHazard(script.stdout.unicodeScalars, "script's output")
        #expect(script.stdout.contains("The council \\u{1B}[2Jmet\\u{07} on \\u{202E}Tuesday."), "\(script.stdout)")
        #expect(script.stdout.contains("\\u{2066}budget\\u{2069}"), "\(script.stdout)")

        for seconds in [0.25, 0.25] { #expect(try fixture.record(seconds).status == 0) }
        for format in ["vtt", "srt"] {
            let audio = fixture.folder.file("budget-\(format).flac")
            let export = try fixture.narrate.run("export", "-o", audio.path, "--transcript", format)
            #expect(export.status == 0, "\(export.stderr)")
            expectNoHazard(export.stdout.unicodeScalars, "export's output")
            let bytes = try Data(contentsOf: fixture.folder.file("budget-\(format).\(format)"))
            let transcript = String(decoding: bytes, as: UTF8.self)
            expectNoHazard(transcript.unicodeScalars, "the \(format) transcript")
            #expect(!bytes.contains(0x1B) && !bytes.contains(0x07))
            #expect(transcript.contains("\nThe council [2Jmet on Tuesday.\n"), "\(transcript)")
            #expect(transcript.contains("\nIt adopted1m the budget.\n"), "\(transcript)")
        }
    }

    @Test("a PNG, a PDF, a Word document and an MP3 given as a text are named for what they are; the recordings stay as they were",
          arguments: [
            ("photo.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D] as [UInt8], "a PNG image"),
            ("article.txt", Array("%PDF-1.7\n%\u{E2}\u{E3}\n1 0 obj".utf8), "a PDF document"),
            ("article.md", [0x50, 0x4B, 0x03, 0x04, 0x14, 0x00] + Array("[Content_Types].xml....word/document.xml".utf8), "a Word document (.docx)"),
            ("take", Array("ID3".utf8) + [0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x21], "an MP3 recording"),
          ])
    func binaryFiles(name: String, bytes: [UInt8], kind: String) throws {
        let fixture = try EndToEndFixture()
        let id = try fixture.newArticle("Harbour")
        try fixture.attachText([ScriptParagraph(kind: .paragraph, text: "The harbour opened.")], to: id)
        #expect(try fixture.record(0.25).status == 0)
        let before = try fixture.recordings()
        let file = fixture.folder.file(name)
        try Data(bytes).write(to: file)
        let result = try fixture.narrate.run("script", file.path)
        #expect(result.status != 0)
        #expect(result.stderr == "\"\(name)\" is \(kind), not a text: narrate reads plain text, Markdown or HTML in UTF-8, and Word, OpenDocument and PDF files named .docx, .odt or .pdf.\n", "\(result.stderr)")
        #expect(try fixture.recordings() == before)
        let paragraphs = try #require(try fixture.narrate.run("script", "--json").json() as? [[String: Any]])
        #expect(paragraphs.map { $0["text"] as? String } == ["The harbour opened."])
    }
}
