import Foundation
@testable import Narration
import NarrationCore
import NarrationTestSupport
import Testing

@Suite("Backup and restore: a consistent copy of the library, brought back only whole")
struct BackupTests {
    /// A library of two articles: three chunks, one re-recorded take in the trash, a queued export.
    private static func library() throws -> (fixture: LibraryFixture, articles: [Article]) {
        let fixture = try LibraryFixture()
        let first = try fixture.library.newArticle(title: "Budget", publication: "Post", narrator: "Ann", format: .speech)
        try fixture.record(first, seconds: 0.3)
        try fixture.record(first, seconds: 0.2)
        try fixture.record(first, seconds: 0.25, placement: .replace(ChunkIndex(1)))  // the first take goes to the trash
        _ = try fixture.library.queue(first, profile: .archive)
        let second = try fixture.library.newArticle(title: "Weather", publication: "Post", narrator: "Ann", format: .speech)
        try fixture.record(second, seconds: 0.2)
        return (fixture, [first, second])
    }

    /// Every regular file below `root`, by its path below it.
    private static func files(below root: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { continue }
            files[String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))] = try Data(contentsOf: url)
        }
        return files
    }

    @Test("restored into an empty folder: every chunk, trash file and export byte for byte, the catalog's integrity clean")
    func roundTrip() throws {
        let (fixture, articles) = try Self.library()
        let backups = fixture.folder.file("backups")
        let date = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18 11:06:40 UTC
        let summary = try fixture.library.backup(into: backups, at: date)
        #expect(summary.folder.lastPathComponent == "narrate-backup-2026-11-18-110640")
        #expect(summary.articles == 2 && summary.chunks == 3)
        let original = try Self.files(below: fixture.library.root.url).filter { !$0.key.hasSuffix(".lock") && $0.key != BackupManifest.catalogPath }
        // 3 chunks, 1 take in the trash, the export and its sidecar (and more: transcripts), the catalog, the manifest.
        #expect(original.keys.filter { $0.hasSuffix(".wav") }.count == 4)
        #expect(summary.files == original.count + 2)

        let manifest = try BackupManifest.read(from: summary.folder)
        #expect(manifest.files.count == summary.files - 1)
        #expect(Set(manifest.files.map(\.path)) == Set(original.keys).union([BackupManifest.catalogPath]))
        for file in manifest.files where file.path != BackupManifest.catalogPath {
            #expect(file.size == original[file.path]?.count)
        }

        let restoredRoot = DataRoot(url: fixture.folder.file("restored"))
        let restored = try LibraryRestore.restore(from: summary.folder, into: restoredRoot)
        #expect(restored.files == manifest.files.count && restored.articles == 2 && restored.chunks == 3)
        let copy = try Self.files(below: restoredRoot.url).filter { $0.key != BackupManifest.catalogPath }
        #expect(copy == original)
        let library = try NarrationLibrary(root: restoredRoot)
        #expect(try library.catalog.integrityProblems().isEmpty)
        for article in articles {
            let before = try fixture.library.chunkEntries(of: article)
            let after = try library.chunkEntries(of: try library.article(article.id.rawValue))
            #expect(after.map(\.chunk.id) == before.map(\.chunk.id))
            #expect(after.allSatisfy { $0.problem == nil })
        }
        #expect(try library.outboxJobs().map(\.id) == fixture.library.outboxJobs().map(\.id))
        // Undo brings back the take the re-record moved to the trash: the trash came along.
        let replaced = try library.chunkEntries(of: try library.article(articles[0].id.rawValue))[0].chunk.id
        _ = try library.undo(.article(articles[0].id))
        let undone = try library.chunkEntries(of: try library.article(articles[0].id.rawValue))
        #expect(undone.count == 2 && undone[0].chunk.id != replaced && undone.allSatisfy { $0.problem == nil })
        #expect(!FileManager.default.fileExists(atPath: fixture.folder.file(".restored.narrate-restore").path))
    }

    @Test("a backup file changed since it was written is refused, naming it; nothing is restored, nothing is left")
    func damagedFileRefused() throws {
        let (fixture, articles) = try Self.library()
        let summary = try fixture.library.backup(into: fixture.folder.file("backups"))
        let chunk = try #require(try fixture.library.chunkEntries(of: articles[1]).first)
        let damaged = summary.folder.appendingPathComponent("articles/\(articles[1].id.rawValue)/chunks/\(chunk.chunk.id.rawValue).wav")
        var bytes = try Data(contentsOf: damaged)
        bytes[bytes.count - 1] ^= 0x01
        try bytes.write(to: damaged)
        let target = DataRoot(url: fixture.folder.file("restored"))
        #expect(throws: NarrationError(
            .fileCorrupt,
            "The backup's file \(damaged.path) does not match its manifest (its SHA-256 differs); the backup is damaged, so nothing was restored.")) {
            try LibraryRestore.restore(from: summary.folder, into: target)
        }
        #expect(!FileManager.default.fileExists(atPath: target.url.path))
        #expect(!FileManager.default.fileExists(atPath: fixture.folder.file(".restored.narrate-restore").path))

        // A cut-short file is refused by its size; a missing one by name.
        try bytes.prefix(100).write(to: damaged)
        #expect(throws: NarrationError(
            .fileCorrupt,
            "The backup's file \(damaged.path) does not match its manifest (100 bytes, not \(bytes.count)); the backup is damaged, so nothing was restored.")) {
            try LibraryRestore.restore(from: summary.folder, into: target)
        }
        try FileManager.default.removeItem(at: damaged)
        #expect(throws: NarrationError(
            .chunkFileMissing, "The backup lacks \(damaged.path), which its manifest lists; it is incomplete, so nothing was restored.")) {
            try LibraryRestore.restore(from: summary.folder, into: target)
        }
        #expect(!FileManager.default.fileExists(atPath: target.url.path))
    }

    @Test("a data folder that holds anything is refused, with every recording and the catalog unchanged")
    func nonEmptyTargetRefused() throws {
        let (fixture, _) = try Self.library()
        let summary = try fixture.library.backup(into: fixture.folder.file("backups"))
        let root = fixture.library.root
        let before = try Self.files(below: root.url)
        #expect(throws: NarrationError(
            .fileSystem,
            "The data folder \(root.url.path) is not empty (it holds articles, catalog.sqlite, outbox): narrate restores only into an empty folder, so that two libraries are never mixed. Nothing was changed; choose a new folder, or move this one's contents aside.")) {
            try LibraryRestore.restore(from: summary.folder, into: root)
        }
        #expect(try Self.files(below: root.url) == before)

        // An empty folder, or one that opening a new root left with an empty articles folder, will do.
        let fresh = DataRoot(url: fixture.folder.file("fresh"))
        try fresh.prepare()
        #expect(try LibraryRestore.restore(from: summary.folder, into: fresh).chunks == 3)
        // A folder a stray file was put in will not.
        let stray = fixture.folder.file("stray")
        try FileManager.default.createDirectory(at: stray, withIntermediateDirectories: false)
        try Data("notes".utf8).write(to: stray.appendingPathComponent("notes.txt"))
        #expect(throws: NarrationError(
            .fileSystem,
            "The data folder \(stray.path) is not empty (it holds notes.txt): narrate restores only into an empty folder, so that two libraries are never mixed. Nothing was changed; choose a new folder, or move this one's contents aside.")) {
            try LibraryRestore.restore(from: summary.folder, into: DataRoot(url: stray))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: stray.path) == ["notes.txt"])
    }

    @Test("planted symbolic links in the backup's and the restore's places are refused, never followed")
    func plantedLinksNotFollowed() throws {
        let (fixture, _) = try Self.library()
        let backups = fixture.folder.file("backups")
        try FileManager.default.createDirectory(at: backups, withIntermediateDirectories: false)
        let elsewhere = fixture.folder.file("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: false)
        let date = Date(timeIntervalSince1970: 1_795_000_000)
        try FileManager.default.createSymbolicLink(
            at: backups.appendingPathComponent("narrate-backup-2026-11-18-110640"), withDestinationURL: elsewhere)
        #expect(throws: NarrationError(
            .fileSystem, "\(backups.path) already holds narrate-backup-2026-11-18-110640; nothing was written over it. Back up again in a second.")) {
            try fixture.library.backup(into: backups, at: date)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)

        let summary = try fixture.library.backup(into: backups, at: date.addingTimeInterval(1))
        // The data folder is a link: refused, its target untouched.
        let linkedRoot = fixture.folder.file("linked")
        try FileManager.default.createSymbolicLink(at: linkedRoot, withDestinationURL: elsewhere)
        #expect(throws: NarrationError(
            .fileSystem, "Cannot restore into \(linkedRoot.path): it is a symbolic link; give the folder it points to by its own path.")) {
            try LibraryRestore.restore(from: summary.folder, into: DataRoot(url: linkedRoot))
        }
        // The restore's own folder beside the root is a planted link: refused, its target untouched.
        let staging = fixture.folder.file(".restored.narrate-restore")
        try FileManager.default.createSymbolicLink(at: staging, withDestinationURL: elsewhere)
        #expect(throws: NarrationError(
            .fileSystem,
            "\(staging.path) is there already: an interrupted restore left it, or one is running now. Remove it once no restore runs, then try again.")) {
            try LibraryRestore.restore(from: summary.folder, into: DataRoot(url: fixture.folder.file("restored")))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: fixture.folder.file("restored").path))
        try FileManager.default.removeItem(at: staging)

        // A data folder holding only a link where the catalog goes: not empty, the link's target untouched.
        let planted = fixture.folder.file("planted")
        try FileManager.default.createDirectory(at: planted, withIntermediateDirectories: false)
        let outside = fixture.folder.file("outside.txt")
        try Data("someone else's".utf8).write(to: outside)
        try FileManager.default.createSymbolicLink(at: planted.appendingPathComponent("catalog.sqlite"), withDestinationURL: outside)
        #expect(throws: NarrationError(
            .fileSystem,
            "The data folder \(planted.path) is not empty (it holds catalog.sqlite): narrate restores only into an empty folder, so that two libraries are never mixed. Nothing was changed; choose a new folder, or move this one's contents aside.")) {
            try LibraryRestore.restore(from: summary.folder, into: DataRoot(url: planted))
        }
        #expect(try Data(contentsOf: outside) == Data("someone else's".utf8))
    }

    @Test("a chunk whose file is gone stops the backup, naming it, and leaves no backup folder")
    func missingChunkStopsBackup() throws {
        let (fixture, articles) = try Self.library()
        let chunk = try #require(try fixture.library.chunkEntries(of: articles[1]).first)
        let kept = try Data(contentsOf: chunk.file)
        try FileManager.default.removeItem(at: chunk.file)
        let backups = fixture.folder.file("backups")
        #expect(throws: NarrationError(
            .chunkFileMissing,
            "Chunk \(chunk.chunk.id.rawValue) of article \(articles[1].id.rawValue)'s file \(chunk.file.path) is missing (nor is it in the article's trash), so the backup stopped and was removed. Record that chunk again or delete it, then back up again.")) {
            try fixture.library.backup(into: backups)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: backups.path).isEmpty)

        // Cut short: refused by its header and length against the catalog.
        let other = try #require(try fixture.library.chunkEntries(of: articles[0]).last)
        let whole = try Data(contentsOf: other.file)
        try whole.prefix(1000).write(to: other.file)
        try kept.write(to: chunk.file)
        #expect(throws: NarrationError(
            .fileCorrupt,
            "Chunk \(other.chunk.id.rawValue) of article \(articles[0].id.rawValue)'s file \(other.file.path) is damaged (cut short (478 frames left)), so the backup stopped and was removed. Record that chunk again or delete it, then back up again.")) {
            try fixture.library.backup(into: backups)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: backups.path).isEmpty)
    }

    @Test("a chunk removed from the library after the catalog's snapshot was taken: the snapshot is taken again, and the backup holds what the library holds")
    func snapshotTakenAgain() throws {
        let (fixture, articles) = try Self.library()
        let removed = try #require(try fixture.library.chunkEntries(of: articles[1]).first)
        var snapshots = 0
        let summary = try fixture.library.backup(into: fixture.folder.file("backups"), at: Date(), afterSnapshot: {
            snapshots += 1
            guard snapshots == 1 else { return }
            // As prune does: the chunk leaves the catalog and its file leaves the disk.
            _ = try? fixture.library.deleteChunk(at: ChunkIndex(1), of: articles[1])
            try? FileManager.default.removeItem(at: fixture.library.root.trashedChunkURL(removed.chunk.id, of: articles[1].id))
        }, progress: { _, _ in })
        #expect(snapshots == 2 && summary.chunks == 2)
        let restored = DataRoot(url: fixture.folder.file("restored"))
        #expect(try LibraryRestore.restore(from: summary.folder, into: restored).chunks == 2)
        #expect(!FileManager.default.fileExists(atPath: restored.chunkURL(removed.chunk.id, of: articles[1].id).path))
    }

    @Test("a damaged catalog whose manifest was rewritten to match it fails SQLite's check: refused, nothing restored")
    func damagedCatalogRefused() throws {
        let (fixture, _) = try Self.library()
        let summary = try fixture.library.backup(into: fixture.folder.file("backups"))
        let catalogURL = summary.folder.appendingPathComponent(BackupManifest.catalogPath)
        var bytes = try Data(contentsOf: catalogURL)
        // Every page after the first three: the tables' rows and indexes are garbage.
        for offset in stride(from: 3 * 4096, to: bytes.count, by: 7) { bytes[offset] = 0xA5 }
        try bytes.write(to: catalogURL)
        let manifestURL = summary.folder.appendingPathComponent(BackupManifest.fileName)
        var manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: manifestURL)) as? [String: Any])
        var files = try #require(manifest["files"] as? [[String: Any]])
        let index = try #require(files.firstIndex { $0["path"] as? String == BackupManifest.catalogPath })
        files[index]["size"] = bytes.count
        files[index]["sha256"] = try Checksum.sha256(of: catalogURL)
        manifest["files"] = files
        try JSONSerialization.data(withJSONObject: manifest).write(to: manifestURL)

        let target = DataRoot(url: fixture.folder.file("restored"))
        #expect { try LibraryRestore.restore(from: summary.folder, into: target) } throws: {
            guard let error = $0 as? NarrationError else { return false }
            return error.kind == .catalogCorrupt && error.message.hasPrefix("The backup's catalog \(catalogURL.path) is damaged (")
                && error.message.hasSuffix("), so nothing was restored.")
        }
        #expect(!FileManager.default.fileExists(atPath: target.url.path))
        #expect(!FileManager.default.fileExists(atPath: fixture.folder.file(".restored.narrate-restore").path))
    }

    @Test("a folder without a manifest, or with one that reaches outside the data folder, is refused before anything is written")
    func manifestChecked() throws {
        let (fixture, _) = try Self.library()
        let summary = try fixture.library.backup(into: fixture.folder.file("backups"))
        let target = DataRoot(url: fixture.folder.file("restored"))
        #expect(throws: NarrationError(
            .fileSystem,
            "\(fixture.folder.file("backups").path) holds no manifest.json, so it is not a finished backup (a backup writes it last); give the dated folder a backup made, such as \(summary.folder.path).")) {
            try LibraryRestore.restore(from: fixture.folder.file("backups"), into: target)
        }
        #expect(throws: NarrationError(
            .fileSystem,
            "\(fixture.library.root.articlesURL.path) is inside the data folder \(fixture.library.root.url.path), which a backup copies; keep backups on another disk, or at least outside it.")) {
            try fixture.library.backup(into: fixture.library.root.articlesURL)
        }
        let manifestURL = summary.folder.appendingPathComponent(BackupManifest.fileName)
        let text = try String(contentsOf: manifestURL, encoding: .utf8)
        try text.replacingOccurrences(of: "\"articles/", with: "\"articles/../../", options: [], range: text.range(of: "\"articles/"))
            .write(to: manifestURL, atomically: true, encoding: .utf8)
        #expect { try LibraryRestore.restore(from: summary.folder, into: target) } throws: {
            let message = ($0 as? NarrationError)?.message ?? ""
            return message.hasPrefix("The backup's manifest \(manifestURL.path) cannot be used: it lists \"articles/../../")
                && message.hasSuffix("\", which is not a file of a library. Nothing was restored.")
        }
        #expect(!FileManager.default.fileExists(atPath: target.url.path))
    }

    @Test("paths a manifest may list", arguments: [
        ("catalog.sqlite", true), ("articles/k3v9/chunks/a1.wav", true), ("outbox/j1/Budget-k3v9.mp3", true),
        ("articles/../catalog.sqlite", false), ("/etc/passwd", false), ("articles//x", false), ("articles/.x", false),
        ("settings.toml", false), ("articles", false), ("outbox/a/b/c/d/e/f", false), ("catalog.sqlite/x", false),
    ])
    func libraryPaths(path: String, allowed: Bool) {
        #expect(BackupManifest.isLibraryPath(path) == allowed)
    }
}
