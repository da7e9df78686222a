import Foundation
import NarrationAudio
import NarrationTestSupport
import Testing

/// On a host of a reading service (`[service] catalog` and `recordings` in config.toml), the
/// data folder's chunks are a cache: the commands that read an article's audio bring home from
/// the recordings store what this host lacks (another host recorded it, or the host's copies
/// were thrown away), and a chunk that is in neither place is one sentence.
@Suite("A host's chunks are a cache of the recordings store, for every command")
struct RecordingsCacheCommandTests {
    /// A host of a reading service: a catalog of its own on the tests' PostgreSQL server, the
    /// password in a private file, and a recordings store in a folder.
    static func serviceHost() throws -> (fixture: EndToEndFixture, store: URL, narrate: Narrate) {
        let (_, address) = try SharedCatalogCommandTests.database()
        let fixture = try EndToEndFixture()
        let store = fixture.folder.file("recordings-store")
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        let password = try SharedCatalogCommandTests.passwordFile(fixture, PostgreSQLServer.password, mode: 0o600)
        let narrate = try fixture.narrate(config: SharedCatalogCommandTests.config(address, passwordFile: password) + "recordings = \"\(store.path)\"\n")
        return (fixture, store, narrate)
    }

    @Test("a second host exports and checks a take the first imported, equal sample for sample; again after its copies were thrown away; in neither place, one sentence")
    func secondHost() throws {
        let (fixture, store, first) = try Self.serviceHost()
        let id = try #require(try first.run(["new", "Harbour news", "--json"]).json() as? [String: Any])["id"] as? String ?? ""
        let tone = fixture.folder.file("tone.wav").path
        _ = try Signals.run("sox", ["-n", "-r", "44100", "-c", "1", "-b", "16", tone, "synth", "1.5", "sine", "440", "vol", "0.5"])
        let imported = try first.run(["import", tone, "--article", id])
        #expect(imported.status == 0, "\(imported.stderr)")
        let chunk = try #require(try FileManager.default.contentsOfDirectory(atPath: store.appendingPathComponent("articles/\(id)").path).first)
        let recorded = try SoundFileReader(path: store.appendingPathComponent("articles/\(id)/\(chunk)").path).readAll()
        #expect(recorded.count == 66_150)

        // Another host: its own data folder, the same config.toml.
        let second = Narrate(home: fixture.folder.file("second-home"), environment: first.environment.filter { $0.key != "NARRATE_HOME" && $0.key != "HOME" })
        let local = second.home.appendingPathComponent("articles/\(id)")
        let out = fixture.folder.file("second.flac").path
        let export = try second.run(["export", "--article", id, "-o", out])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(try SoundFileReader(path: out).readAll() == recorded)
        #expect(FileManager.default.fileExists(atPath: local.appendingPathComponent("chunks/\(chunk)").path))

        // The host's copies thrown away: the next command brings them home again.
        try FileManager.default.removeItem(at: local)
        let check = try second.run(["check", "--article", id, "--json"])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(FileManager.default.fileExists(atPath: local.appendingPathComponent("chunks/\(chunk)").path))

        // Neither here nor in the store: the sentence names both places, and nothing is made.
        try FileManager.default.removeItem(at: local)
        try FileManager.default.removeItem(at: store.appendingPathComponent("articles/\(id)/\(chunk)"))
        let missing = try second.run(["export", "--article", id, "-o", fixture.folder.file("none.flac").path])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("of this article is neither in \(local.appendingPathComponent("chunks").path) nor in the recordings store \(store.path)"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: fixture.folder.file("none.flac").path))
    }

    @Test("prune --cached-chunks leaves an article in work whole; of a withdrawn one it removes only files whose checked copy the store holds (a changed copy keeps its file); export then brings them home, equal; refused without a service")
    func pruneCachedChunks() throws {
        let (fixture, store, narrate) = try Self.serviceHost()
        let id = try #require(try narrate.run(["desk", "add", "--title", "Harbour news", "--publication", "Gazette", "--json"]).json() as? [String: Any])["id"] as? String ?? ""
        var tones: [String] = []
        for (number, frequency) in ["440", "660"].enumerated() {
            let tone = fixture.folder.file("tone-\(number).wav").path
            _ = try Signals.run("sox", ["-n", "-r", "44100", "-c", "1", "-b", "16", tone, "synth", "1", "sine", frequency, "vol", "0.5"])
            tones.append(tone)
        }
        let imported = try narrate.run(["import", tones[0], tones[1], "--article", id])
        #expect(imported.status == 0, "\(imported.stderr)")
        let chunks = narrate.home.appendingPathComponent("articles/\(id)/chunks")
        let files = try FileManager.default.contentsOfDirectory(atPath: chunks.path).sorted()
        #expect(files.count == 2)
        let before = fixture.folder.file("before.flac").path
        #expect(try narrate.run(["export", "--article", id, "-o", before]).status == 0)
        // The store's copy of one chunk changed behind narrate's back: its file here must stay.
        let changed = try #require(try FileManager.default.contentsOfDirectory(atPath: store.appendingPathComponent("articles/\(id)").path).sorted().last)
        let changedCopy = store.appendingPathComponent("articles/\(id)/\(changed)")
        let original = try Data(contentsOf: changedCopy)
        var tampered = original
        tampered[tampered.count - 1] ^= 0x01
        try tampered.write(to: changedCopy)

        // Still in work on the desk: left whole.
        let inWork = try narrate.run(["prune", "--cached-chunks", "--dry-run", "--json"])
        #expect(inWork.status == 0, "\(inWork.stderr)")
        let left = try #require(try inWork.json() as? [String: Any])
        #expect(left["files"] as? Int == 0 && left["articlesLeft"] as? Int == 1, "\(left)")
        #expect(try narrate.run(["desk", "withdraw", id]).status == 0)

        let dry = try narrate.run(["prune", "--cached-chunks", "--dry-run", "--json"])
        #expect(dry.status == 0, "\(dry.stderr)")
        let planned = try #require(try dry.json() as? [String: Any])
        #expect(planned["files"] as? Int == 1 && planned["kept"] as? Int == 1 && planned["articlesLeft"] as? Int == 0 && planned["dryRun"] as? Bool == true, "\(planned)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: chunks.path).sorted() == files)

        let pruned = try narrate.run(["prune", "--cached-chunks"])
        #expect(pruned.status == 0, "\(pruned.stderr)")
        #expect(pruned.stdout.hasPrefix("Removed 1 chunk file (0.1 MiB) whose copies the recordings store holds; each comes back from the store when it is needed. Kept 1 whose copy in the store is missing, different or not recorded yet."), "\(pruned.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: chunks.path) == [changed])

        // Brought home for the next export: the same audio as before the prune.
        try original.write(to: changedCopy)
        let after = fixture.folder.file("after.flac").path
        let export = try narrate.run(["export", "--article", id, "-o", after])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(try SoundFileReader(path: after).readAll() == (try SoundFileReader(path: before).readAll()))
        #expect(try FileManager.default.contentsOfDirectory(atPath: chunks.path).sorted() == files)

        // A personal library: its data folder holds the only copy.
        let personal = try EndToEndFixture()
        let refused = try personal.narrate.run(["prune", "--cached-chunks"])
        #expect(refused.status == 64)
        #expect(refused.stderr.hasPrefix("--cached-chunks is for a host of a reading service, and config.toml's [service] names no catalog and recordings store"), "\(refused.stderr)")
    }
}
