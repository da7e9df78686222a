import Foundation
import NarrationAudio
import NarrationTestSupport
import Testing

/// A take killed mid-recording whose header was then damaged (a torn write, a bad sector): the
/// next command must never trap, must keep the captured audio byte for byte (recovered as a
/// chunk or set aside, never deleted), and must leave a consistent catalog.
@Suite("Fuzzing the headers of interrupted takes")
struct RecoveryFuzzTests {
    static let rounds = 60

    @Test("a damaged header of a killed take: no trap, the audio stays on disk, the catalog stays consistent")
    func damagedPartialTakes() throws {
        var random = SeededGenerator(default: 0x5041_5254)
        let fixture = try EndToEndFixture(source: Signals.speech(.speech, seconds: 1))
        _ = try fixture.newArticle()
        #expect(try fixture.record(0.3).status == 0)
        let firstChunk = try Data(contentsOf: URL(fileURLWithPath: try #require(try fixture.chunks().first?["file"] as? String)))

        // A real interrupted take: the emulated USB microphone runs in real time; kill -9 after 0.6 s.
        let running = try fixture.narrate.start(["record", "--device", "usbmic", "--progress", "json"])
        _ = running.waitForStderrLine { $0.contains("\"event\":\"started\"") }
        usleep(600_000)
        running.signal(SIGKILL)
        _ = running.wait()
        let articles = fixture.narrate.home.appendingPathComponent("articles")
        let partialName = try #require(FileManager.default.subpaths(atPath: articles.path)?.first { $0.hasSuffix(".partial.wav") })
        let pristine = fixture.folder.file("pristine")
        try FileManager.default.copyItem(at: fixture.narrate.home, to: pristine)
        let original = [UInt8](try Data(contentsOf: articles.appendingPathComponent(partialName)))
        #expect(original.count > 44 + 44_100, "the killed take holds over 0.5 s")

        var recovered = 0
        var setAside = 0
        for round in 0..<Self.rounds {
            try? FileManager.default.removeItem(at: fixture.narrate.home)
            try FileManager.default.copyItem(at: pristine, to: fixture.narrate.home)
            // Damage the header; sometimes also tear the end off, as a lost write would.
            var payload = Array(original[44...])
            if Bool.random(using: &random) { payload = Array(payload.prefix(Int.random(in: 0...payload.count, using: &random))) }
            let damaged = random.mutate(Array(original[0..<44])) + payload
            try Data(damaged).write(to: articles.appendingPathComponent(partialName))
            let damage = "round \(round) (seed \(random.seed)): header \(Array(damaged.prefix(48)))"

            let result = try fixture.narrate.run("chunks", "--json")
            #expect([0, 1].contains(result.status), "\(damage): ended with \(result.status): \(result.stderr)")
            #expect(!result.stderr.contains("Fatal error"), "\(damage): \(result.stderr)")
            if result.stderr.contains("Recovered an interrupted take") { recovered += 1 }
            if result.stderr.contains("was set aside as") { setAside += 1 }

            // The captured audio is still on disk, byte for byte, but for at most one torn frame
            // (the widest a header can declare is 32 bytes).
            let kept = Data(payload.dropLast(32))
            var found = kept.isEmpty
            let enumerator = FileManager.default.enumerator(at: articles, includingPropertiesForKeys: nil)
            while !found, let file = enumerator?.nextObject() as? URL {
                if file.pathExtension == "wav", let bytes = try? Data(contentsOf: file), bytes.range(of: kept) != nil { found = true }
            }
            #expect(found, "\(damage): the take's audio is gone")

            // The catalog is consistent: the next command adopts nothing more and chunk 1 is as it was.
            let again = try fixture.narrate.run("chunks", "--json")
            #expect(again.status == 0 && again.stderr.isEmpty, "\(damage): \(again.stderr)")
            let chunks = try #require(try again.json() as? [[String: Any]])
            #expect(try Data(contentsOf: URL(fileURLWithPath: try #require(chunks.first?["file"] as? String))) == firstChunk)
        }
        print("figure: recovery fuzz (seed \(random.seed)): \(Self.rounds) damaged takes of \(original.count) bytes: \(recovered) recovered, \(setAside) set aside, audio kept in every one")
    }
}
