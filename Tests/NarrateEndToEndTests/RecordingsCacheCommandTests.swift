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
    @Test("a second host exports and checks a take the first imported, equal sample for sample; again after its copies were thrown away; in neither place, one sentence")
    func secondHost() throws {
        let (_, address) = try SharedCatalogCommandTests.database()
        let fixture = try EndToEndFixture()
        let store = fixture.folder.file("recordings-store")
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        let password = try SharedCatalogCommandTests.passwordFile(fixture, PostgreSQLServer.password, mode: 0o600)
        let first = try fixture.narrate(config: SharedCatalogCommandTests.config(address, passwordFile: password) + "recordings = \"\(store.path)\"\n")
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
}
