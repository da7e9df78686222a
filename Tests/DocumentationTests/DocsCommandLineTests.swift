import ArgumentParser
import Foundation
import Testing
@testable import narrate

/// Every `narrate …` command line in README.md and the DocC articles is one narrate's own parser
/// accepts, so that a renamed command or option, or a value out of range, fails here naming the
/// document and its line.
@Suite("the docs' command lines parse")
struct DocsCommandLineTests {
    @Test("every narrate command line in README.md and the .docc articles parses with narrate's parser")
    func everyLineParses() throws {
        var checked = 0
        var refused: [String] = []
        for document in try RepositoryRoot.documents() {
            for commandLine in DocumentedCommandLine.all(in: try RepositoryRoot.text(of: document), file: document) {
                checked += 1
                do {
                    _ = try Narrate.parseAsRoot(commandLine.arguments)
                } catch {
                    // Help and the version are what was asked for, not a refusal; a command named
                    // without its arguments (`narrate trim`) is a name, and must exist.
                    if Narrate.exitCode(for: error) == .success || Self.namesCommand(commandLine.arguments) { continue }
                    refused.append("\(commandLine): \(Narrate.message(for: error).split(whereSeparator: \.isNewline).first ?? "")")
                }
            }
        }
        #expect(refused.isEmpty, "narrate refuses these documented command lines:\n\(refused.joined(separator: "\n"))")
        // The docs have command lines to check: the volunteer's quick start alone has several.
        #expect(checked >= 20, "only \(checked) command lines found")
    }

    /// Whether `arguments` are only command names, each a subcommand of the one before
    /// (`["outbox", "push"]`): a command mentioned by name, not run.
    static func namesCommand(_ arguments: [String]) -> Bool {
        var command: any ParsableCommand.Type = Narrate.self
        for name in arguments {
            guard let next = command.configuration.subcommands.first(where: { $0._commandName == name }) else { return false }
            command = next
        }
        return !arguments.isEmpty
    }

    @Test("a wrong option, a value out of range and a command that does not exist are each refused, naming the line")
    func theCheckCatchesMistakes() throws {
        let text = """
            Record with `narrate record --insert` and then, with `narrate script
            vote.html` attached:

            ```sh
            narrate recrod
            narrate play --speed 9   # too fast
            narrate new "Budget vote" \\
              --publication "Daily Post"
            ```
            """
        let lines = DocumentedCommandLine.all(in: text, file: "example.md")
        #expect(lines.map(\.line) == [1, 1, 5, 6, 7])
        #expect(lines.map(\.arguments) == [
            ["record", "--insert"], ["script", "vote.html"], ["recrod"], ["play", "--speed", "9"], ["new", "Budget vote", "--publication", "Daily Post"],
        ])
        let refused = lines.filter { (try? Narrate.parseAsRoot($0.arguments)) == nil }
        #expect(refused.map(\.line) == [1, 5, 6])
        #expect(refused.first?.description == "example.md:1: narrate record --insert")
        // A command named without its arguments is a name; a misspelt one is not.
        #expect(Self.namesCommand(["outbox", "push"]) && Self.namesCommand(["trim"]))
        #expect(!Self.namesCommand(["recrod"]) && !Self.namesCommand(["outbox", "send"]) && !Self.namesCommand(["trim", "4"]))
    }
}
