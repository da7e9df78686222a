import Foundation
import NarrationTestSupport
import Testing

/// `narrate studio` on a real terminal (tmux) while another terminal changes the same article.
@Suite("Studio on a terminal and a command-line edit", .serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")))
struct StudioOutsideChangeCommandTests {
    @Test("a chunk deleted from another terminal reaches the open studio; x then deletes the chunk it showed selected")
    func commandLineDeleteReachesTheStudio() throws {
        let fixture = try EndToEndFixture()
        _ = try fixture.newArticle("Harbour")
        for seconds in [0.3, 0.4, 0.5] { try #require(try fixture.record(seconds).status == 0) }
        let before = try fixture.chunks()
        let ids = before.compactMap { $0["id"] as? String }
        let third = try Data(contentsOf: URL(fileURLWithPath: try #require(before[2]["file"] as? String)))
        var environment = fixture.narrate.environment.filter { ["NARRATE_HOME", "ALSA_CONFIG_PATH", "PATH", "HOME"].contains($0.key) }
        environment["LANG"] = "C.UTF-8"
        let terminal = try TmuxSession(
            "\(Narrate.executable.path) studio --device vmic --output-device vspk", environment: environment, width: 80, height: 24, terminal: nil)
        _ = try terminal.screen(containing: "Harbour", within: 10)
        try terminal.send("Up")  // chunk 2 of 3

        let deleted = try fixture.narrate.run("delete-chunk", "1")
        #expect(deleted.status == 0, "\(deleted.stderr)")
        let screen = try terminal.screen(containing: "Another narrate command changed the chunks", within: 5)
        #expect(screen.contains("Another narrate command changed the chunks"), "the studio did not show the change:\n\(screen)")

        try terminal.send("x")
        let asked = try terminal.screen(containing: "Delete chunk 1", within: 5)
        #expect(asked.contains("Delete chunk 1"), "x asked about another chunk than the one selected:\n\(asked)")
        try terminal.send("y")
        _ = try terminal.screen(containing: "Chunk 1 deleted", within: 5)
        let after = try fixture.chunks()
        #expect(after.compactMap { $0["id"] as? String } == [ids[2]], "x deleted another chunk than paragraph 2's")
        #expect(try Data(contentsOf: URL(fileURLWithPath: try #require(after[0]["file"] as? String))) == third)
        try terminal.send("Escape")
    }
}
