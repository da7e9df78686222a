import Foundation
@testable import Narration
import NarrationCore
import NarrationTestSupport
import Synchronization
import Testing

/// One article's chunk list changed by two hosts at once (two catalogs on one engine, two threads
/// each): every edit reads the order the one before it left, so none is lost or doubled.
@Suite("One article edited from two hosts at once")
struct CatalogConcurrencyTests {
    static func take(of article: ArticleID) -> Chunk {
        Chunk(
            id: ChunkID.random(), articleID: article, frames: 4_410, format: .speech, peak: Decibels(-6), rms: Decibels(-20),
            overruns: 0, recovered: false, recordedAt: Date(), paragraphID: nil)
    }

    @Test(
        "2 hosts × 2 threads commit 15 takes each and delete every fifth: 48 chunks at positions 0…47, 60 takes and 12 deletions in the history",
        arguments: CatalogEngines.Kind.allCases)
    func takesFromTwoHosts(_ kind: CatalogEngines.Kind) throws {
        let folder = TemporaryFolder("narrate-concurrent")
        let engine = try CatalogEngines.make(kind, folder: folder)
        let hosts = [try Catalog(engine: engine, name: "host 1"), try Catalog(engine: try CatalogEngines.another(engine), name: "host 2")]
        let article = Article(id: ArticleID.random(), title: "Busy", publication: "", narrator: "", format: .speech, createdAt: Date())
        try hosts[0].add(article)
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            let catalog = hosts[worker % 2]
            for step in 1...15 {
                do {
                    _ = try catalog.commitTake(Self.take(of: article.id), target: .append, moveFiles: { _ in })
                    if step % 5 == 0 { _ = try catalog.deleteChunk(at: ChunkIndex(1), of: article, moveFile: { _ in }) }
                } catch {
                    failures.withLock { $0.append("worker \(worker), step \(step): \(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let order = try hosts[1].order(of: article.id)
        #expect(order.ids.count == 48)
        let positions = try hosts[0].reading { sql in
            try sql.rows("SELECT position FROM chunk WHERE articleId = ? ORDER BY position", .text(article.id.rawValue)).map { try $0.int("position") }
        }
        #expect(positions == Array(0..<48))
        let history = try hosts[0].history(of: article.id)
        #expect(history.filter { $0.kind == .record }.count == 60)
        #expect(history.filter { $0.kind == .delete }.count == 12)
        // Each take's sentence names the chunk it became: the count before it plus one, never a number twice in a row.
        #expect(Set(history.map(\.number)).count == 72)
    }
}
