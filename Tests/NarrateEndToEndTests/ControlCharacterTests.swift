import Foundation
import NarrationTestSupport
import Testing

/// A title holding terminal control sequences is shown escaped everywhere the command line
/// prints it, so it cannot rename the window, clear the screen or ring the bell.
@Suite("Control characters from titles never reach the terminal")
struct ControlCharacterTests {
    /// OSC (rename the window), BEL, CSI (clear the screen), a C1 CSI and a carriage return.
    static let title = "\u{1B}]0;pwned\u{07}\u{1B}[2JTitle\u{9B}1m\r!"
    static let shown = "\\u{1B}]0;pwned\\u{07}\\u{1B}[2JTitle\\u{9B}1m\\u{0D}!"

    private func expectEscaped(_ text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let scalars = text.unicodeScalars
        #expect(!scalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\u{9B}" || $0 == "\r" }, "\(what) holds a raw control character", sourceLocation: sourceLocation)
        #expect(text.contains(Self.shown), "\(what) does not show the title escaped: \(text)", sourceLocation: sourceLocation)
    }

    @Test("new, list, chunks and an error quoting the title print it as \\u{1B}…; JSON keeps it exactly")
    func escapedEverywhere() throws {
        let fixture = try EndToEndFixture()
        let created = try fixture.narrate.run("new", Self.title)
        #expect(created.status == 0, "\(created.stderr)")
        expectEscaped(created.stdout, "new's stdout")
        let list = try fixture.narrate.run("list")
        expectEscaped(list.stdout, "list's stdout")
        let chunks = try fixture.narrate.run("chunks")
        expectEscaped(chunks.stdout, "chunks' stdout")
        let play = try fixture.narrate.run("play", "--device", "vspk")
        #expect(play.status == 1)
        expectEscaped(play.stderr, "play's error")
        #expect(play.stderr == "\"\(Self.shown)\" has no chunks yet, so there is nothing to play. Record one with \"narrate record\".\n")
        let json = try #require(try fixture.narrate.run("list", "--json").json() as? [[String: Any]])
        #expect(json.first?["title"] as? String == Self.title)
    }

    @Test("the recording status line keeps its own \\r, ESC[K and colours and escapes the title's")
    func statusLine() throws {
        let fixture = try EndToEndFixture()
        #expect(try fixture.narrate.run("new", Self.title).status == 0)
        let result = try fixture.record(0.2, "--progress", "bar")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("\r\u{1B}[K● Recording \"\(Self.shown)\" on vmic."))
        var rest = result.stderr.replacingOccurrences(of: "\u{1B}[K", with: "")
        rest = rest.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        #expect(!rest.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\u{9B}" })
        expectEscaped(result.stdout + rest.replacingOccurrences(of: "\r", with: ""), "record's output")
    }
}
