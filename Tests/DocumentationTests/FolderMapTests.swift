import Foundation
import Testing

/// The architecture article's folder map names every folder below a target of Sources/, and no
/// folder that is gone: the map a newcomer reads stays true.
@Suite("the architecture's folder map")
struct FolderMapTests {
    /// The folders below a target (`Narration/Take`), the DocC catalog left out.
    static func folders() throws -> Set<String> {
        let sources = RepositoryRoot.url.appendingPathComponent("Sources")
        var found = Set<String>()
        for target in try FileManager.default.contentsOfDirectory(atPath: sources.path) {
            let folder = sources.appendingPathComponent(target)
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { continue }
            for name in names where !name.hasSuffix(".docc") {
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path, isDirectory: &isFolder), isFolder.boolValue {
                    found.insert("\(target)/\(name)")
                }
            }
        }
        return found
    }

    /// The first word of each line of the map's text block.
    static func mapped() throws -> Set<String> {
        let article = try RepositoryRoot.text(of: "Sources/Narration/Narration.docc/Architecture.md")
        guard let section = article.components(separatedBy: "## The folders inside the targets").dropFirst().first,
            let block = section.components(separatedBy: "```").dropFirst().first
        else { return [] }
        return Set(block.split(separator: "\n").dropFirst().compactMap { $0.split(separator: " ").first.map(String.init) })
    }

    @Test("every folder below a target is on the map, and the map names no folder that is gone")
    func mapIsComplete() throws {
        let folders = try Self.folders()
        let mapped = try Self.mapped()
        #expect(folders.count > 30, "\(folders.count) folders found")
        #expect(folders.subtracting(mapped).sorted() == [], "folders the architecture article's map leaves out")
        #expect(mapped.subtracting(folders).sorted() == [], "folders on the map that do not exist")
    }
}
