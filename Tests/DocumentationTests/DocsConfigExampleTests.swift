import Foundation
import NarrationCore
import Testing

/// Every config.toml shown in README.md and the DocC articles (a `toml` code block) is one
/// narrate reads, so that a renamed key or a value out of range fails here naming the document.
@Suite("the docs' config.toml examples parse")
struct DocsConfigExampleTests {
    /// The `toml` blocks of a document: where each starts, and its text.
    static func tomlBlocks(in text: String) -> [(line: Int, text: String)] {
        var blocks: [(line: Int, text: String)] = []
        var current: (line: Int, lines: [String])?
        var inOtherBlock = false
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("```") else {
                current?.lines.append(String(line))
                continue
            }
            if let open = current {
                blocks.append((open.line, open.lines.joined(separator: "\n")))
                current = nil
            } else if inOtherBlock {
                inOtherBlock = false
            } else if trimmed == "```toml" {
                current = (offset + 2, [])
            } else {
                inOtherBlock = true
            }
        }
        return blocks
    }

    @Test("every toml block in README.md and the .docc articles parses with narrate's config.toml parser")
    func everyExampleParses() throws {
        var parsed = 0
        for document in try RepositoryRoot.documents() {
            for block in Self.tomlBlocks(in: try RepositoryRoot.text(of: document)) {
                do {
                    _ = try Settings(parsing: block.text, file: "\(document), the block at line \(block.line)")
                    parsed += 1
                } catch {
                    Issue.record("\(document):\(block.line): \(error.message)")
                }
            }
        }
        // README's quick start and the coordinator's guide each show one.
        #expect(parsed >= 2)
    }

    @Test("a wrong key in a toml block is found, with the block's line")
    func findsAWrongKey() {
        let blocks = Self.tomlBlocks(in: "text\n```sh\nnarrate config\n```\n```toml\nnarator = \"Ann\"\n```\n")
        #expect(blocks.count == 1)
        #expect(blocks.first?.line == 6)
        #expect(throws: NarrationError.self) { try Settings(parsing: blocks.first?.text ?? "", file: "example") }
    }
}
