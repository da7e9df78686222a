import Foundation
import NarrationTestSupport
import SQLEngines
import Testing

/// What only the SQLite engine has: a file and a journal beside it, which someone may replace
/// with links.
@Suite("The SQLite engine's files")
struct SQLiteEngineTests {
    let folder = TemporaryFolder("narrate-sqlite")

    @Test("a link planted as the catalog or its journal is refused by name, and its target is left as it was", arguments: ["", "-journal", "-wal"])
    func plantedLink(_ suffix: String) throws {
        let path = folder.file("catalog.sqlite").path
        let target = folder.file("elsewhere")
        try Data("someone else's file\n".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(atPath: path + suffix, withDestinationPath: target.path)
        #expect(throws: SQLEngineError.plantedLink(path + suffix)) { try SQLiteEngine(path: path) }
        #expect(try Data(contentsOf: target) == Data("someone else's file\n".utf8))
        #expect(SQLEngineError.plantedLink(path + suffix).message == "\(path + suffix) is a symbolic link, and the catalog is never written through one: remove the link.")
    }
}
