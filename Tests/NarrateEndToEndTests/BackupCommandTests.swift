import Foundation
import Glibc
import Narration
import NarrationTestSupport
import Testing

/// `narrate backup` while a take is being recorded, and `narrate restore` of that backup.
@Suite("narrate backup and restore, through the built binary")
struct BackupCommandTests {
    /// Every chunk file below `root`'s articles, by its path below `root`.
    private static func chunkFiles(below root: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: root.appendingPathComponent("articles"), includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "wav" else { continue }
            files[String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))] = try Data(contentsOf: url)
        }
        return files
    }

    @Test("a backup taken while a take is recorded, restored into an empty folder: every committed chunk byte for byte, integrity clean, the take completes")
    func backupDuringTake() throws {
        let fixture = try EndToEndFixture()
        let id = try fixture.newArticle("Kept safe")
        #expect(try fixture.record(0.5).status == 0)
        #expect(try fixture.record(0.4).status == 0)
        let committed = try Self.chunkFiles(below: fixture.narrate.home)
        #expect(committed.count == 2)

        let recording = try fixture.narrate.start(["record", "--device", "usbmic", "--progress", "json"])
        _ = recording.waitForStderrLine { $0.contains("\"frames\":2") }
        let partials = try FileManager.default.contentsOfDirectory(atPath: fixture.narrate.home.appendingPathComponent("articles/\(id)/chunks").path)
        #expect(partials.filter { $0.hasSuffix(".partial.wav") }.count == 1)

        let backups = fixture.folder.file("backups")
        let backup = try fixture.narrate.run("backup", backups.path, "--json")
        #expect(backup.status == 0)
        let summary = try #require(try backup.json() as? [String: Any])
        #expect(summary["chunks"] as? Int == 2 && summary["articles"] as? Int == 1)
        let folder = URL(fileURLWithPath: try #require(summary["folder"] as? String))
        #expect(folder.deletingLastPathComponent().path == backups.path && folder.lastPathComponent.hasPrefix("narrate-backup-"))
        #expect((summary["seconds"] as? Double ?? -1) >= 0)
        #expect(try Self.chunkFiles(below: folder) == committed)  // the take being recorded is not in it

        // The take goes on and is committed as chunk 3.
        recording.signal(SIGINT)
        let ended = recording.wait()
        #expect(ended.status == 0)
        #expect(ended.stdout.hasPrefix("Chunk 3 recorded: "))
        #expect(try fixture.chunks().count == 3)

        let restoredHome = fixture.folder.file("restored")
        let restore = try fixture.narrate.run("restore", folder.path, "--into", restoredHome.path, "--json")
        #expect(restore.status == 0 && restore.stderr.isEmpty)
        let restored = try #require(try restore.json() as? [String: Any])
        #expect(restored["dataFolder"] as? String == restoredHome.path)
        #expect(restored["chunks"] as? Int == 2 && restored["files"] as? Int == (summary["files"] as? Int ?? 0) - 1)
        #expect(try Self.chunkFiles(below: restoredHome) == committed)
        #expect(try Catalog(readingOnly: restoredHome.appendingPathComponent("catalog.sqlite").path).integrityProblems().isEmpty)

        // The restored library works: its chunks are whole.
        let onRestored = Narrate(home: restoredHome, environment: fixture.devices.environment)
        let listed = try onRestored.run("chunks", "--json", "--article", id)
        #expect(listed.status == 0 && listed.stderr.isEmpty)
        let chunks = try #require(try listed.json() as? [[String: Any]])
        #expect(chunks.count == 2)

        // A second restore into that folder is refused in one line, and changes nothing; a take can be added.
        let before = try Self.chunkFiles(below: restoredHome)
        let again = try fixture.narrate.run("restore", folder.path, "--into", restoredHome.path)
        #expect(again.status == 1)
        #expect(again.stderr == "The data folder \(restoredHome.path) is not empty (it holds articles, catalog.sqlite): narrate restores only into an empty folder, so that two libraries are never mixed. Nothing was changed; choose a new folder, or move this one's contents aside.\n")
        #expect(try Self.chunkFiles(below: restoredHome) == before)
        #expect(try onRestored.run("record", "--device", "vmic", "--duration", "0.3", "--article", id).status == 0)
    }
}
