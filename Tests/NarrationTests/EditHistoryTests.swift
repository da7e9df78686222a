import Foundation
@testable import Narration
import NarrationCore
import NarrationTestSupport
import Testing

/// Random edits and undos of one article through the engine: after every undo the chunk list and
/// every chunk file's bytes must be exactly what they were before the edit it takes back, however
/// many edits and undos came before.
@Suite("Edit history: random edits and undos")
struct EditHistoryTests {
    /// The chunk list as a volunteer would check it: each chunk's id, length and file's bytes.
    struct Listed: Equatable, CustomStringConvertible {
        let id: ChunkID
        let frames: FrameCount
        let bytes: Data
        var description: String { "\(id.rawValue.prefix(4)):\(frames)" }
    }

    static func listed(_ fixture: LibraryFixture, _ article: Article) throws -> [Listed] {
        try fixture.library.chunkEntries(of: article).map { entry in
            #expect(entry.problem == nil, "chunk \(entry.index): \(String(describing: entry.problem))")
            return Listed(id: entry.chunk.id, frames: entry.chunk.frames, bytes: try Data(contentsOf: entry.file))
        }
    }

    @Test(
        "300 random steps (record, re-record, insert, delete, move, trim, details, undo): each undo restores the list byte for byte",
        arguments: CatalogEngines.Kind.allCases)
    func randomEditsAndUndos(_ catalog: CatalogEngines.Kind) throws {
        var random = SeededGenerator(default: 0x5544_4F21)
        print("figure: edit-history fuzz seed \(random.seed) on \(catalog) (NARRATE_FUZZ_SEED=\(random.seed) replays it)")
        let fixture = try LibraryFixture(catalog: catalog)
        let article = try fixture.library.newArticle(title: "Fuzz", publication: "", narrator: "", format: .speech)
        var before: [[Listed]] = []  // the list before each edit that stands, the latest last
        var counts: [String: Int] = [:]
        for step in 0..<300 {
            let current = try Self.listed(fixture, article)
            let count = current.count
            let index = { ChunkIndex(Int.random(in: 1...max(1, count), using: &random)) }
            var operation = ["record", "record", "rerecord", "insert", "delete", "move", "trim", "details", "undo", "undo", "undo"]
                .randomElement(using: &random)!
            if count == 0, operation != "record", operation != "undo", operation != "details" { operation = "record" }
            let seconds = Double(Int.random(in: 2...12, using: &random)) / 100
            do {
                switch operation {
                case "record":
                    _ = try fixture.record(article, seconds: seconds)
                case "rerecord":
                    _ = try fixture.record(article, seconds: seconds, placement: .replace(index()))
                case "insert":
                    _ = try fixture.record(article, seconds: seconds, placement: .insert(before: index()))
                case "delete":
                    _ = try fixture.library.deleteChunk(at: index(), of: article)
                case "move":
                    _ = try fixture.library.moveChunk(at: index(), to: index(), of: article)
                case "trim":
                    let target = index()
                    let length = article.format.seconds(current[target.position].frames)
                    guard length > 0.01 else { operation = "skip"; break }
                    let start = Double.random(in: 0..<(length / 2), using: &random)
                    if try fixture.library.trim(chunkAt: target, of: article, .times(start: try AudioTime(seconds: start), end: nil)) == nil { operation = "skip" }
                case "details":
                    _ = try fixture.library.changeDetails(of: article, DetailsChange(title: "Fuzz \(step)"))
                default:
                    guard let expected = before.popLast() else {
                        #expect(throws: NarrationError.self) { try fixture.library.undo(.article(article.id)) }
                        operation = "skip"
                        break
                    }
                    let undone = try fixture.library.undo(.article(article.id))
                    let now = try Self.listed(fixture, article)
                    #expect(now == expected, "step \(step): undo of \(undone.edit.kind) gave \(now), expected \(expected)")
                }
            } catch {
                Issue.record("step \(step) \(operation): \(error)")
                continue
            }
            counts[operation, default: 0] += 1
            if operation != "undo", operation != "skip" { before.append(current) }
        }
        print("figure: edit-history fuzz steps \(counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))")
        #expect((counts["undo"] ?? 0) >= 40)
        // Everything ever recorded is still on disk: in the list or in the trash.
        let root = fixture.library.root
        let listing = { (folder: URL) in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] }
        let files = (listing(root.chunksURL(article.id)) + listing(root.trashURL(article.id))).filter { $0.hasSuffix(".wav") }
        #expect(Set(files.map { String($0.prefix { $0 != "." }) }).count == files.count, "no file twice")
        let takes = (counts["record"] ?? 0) + (counts["rerecord"] ?? 0) + (counts["insert"] ?? 0) + (counts["trim"] ?? 0)
        #expect(files.count == takes, "\(files.count) files for \(takes) takes and trims")
    }
}
