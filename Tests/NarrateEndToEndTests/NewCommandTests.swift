import Foundation
import NarrationTestSupport
import Testing

/// `narrate new`: an article's credits, and what an empty one will mean, said when it starts.
@Suite("narrate new")
struct NewCommandTests {
    @Test("without a publication or narrator (none given, none in config.toml) it says what each empty credit will mean")
    func emptyCredits() throws {
        let fixture = try EndToEndFixture()
        let bare = try fixture.narrate.run("new", "Harbour")
        #expect(bare.status == 0)
        let lines = bare.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(bare.stdout)")
        #expect(lines.dropFirst().first == "No publication: its deliveries will be filed under \"unknown publication\". Give --publication, or set publication in config.toml.")
        #expect(lines.dropFirst(2).first == "No narrator: the recording credits nobody and the hours count it under \"(no narrator)\". Give --narrator, or set narrator in config.toml.")

        let credited = try fixture.narrate.run("new", "Budget", "--publication", "Daily Post", "--narrator", "Ann Lee")
        #expect(credited.status == 0)
        #expect(!credited.stdout.contains("No publication") && !credited.stdout.contains("No narrator"), "\(credited.stdout)")
        let json = try fixture.narrate.run("new", "Quiet", "--json")
        #expect(try json.json() is [String: Any], "--json prints the article alone")
    }
}
