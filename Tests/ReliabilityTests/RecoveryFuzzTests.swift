import Foundation
import NarrationAudio
import NarrationCore
import NarrationTestSupport
import Testing

/// A take killed mid-recording whose header was then damaged: the next command must never trap,
/// must keep the captured audio (recovered as a chunk, the header rebuilt from the article's
/// format), and must leave a consistent catalog.
@Suite("Fuzzing the headers of interrupted takes", .serialized)
struct RecoveryFuzzTests {
    static let rounds = 60

    /// A library with one chunk and one take killed -9 after 0.6 s of real-time capture.
    struct KilledTake {
        let fixture: EndToEndFixture
        let articles: URL
        let partialName: String
        let pristine: URL
        let original: [UInt8]
        let firstChunk: Data

        init() throws {
            fixture = try EndToEndFixture(source: Signals.speech(.speech, seconds: 1))
            _ = try fixture.newArticle("Harbour")
            #expect(try fixture.record(0.3).status == 0)
            firstChunk = try Data(contentsOf: URL(fileURLWithPath: try #require(try fixture.chunks().first?["file"] as? String)))
            // The emulated USB microphone runs in real time.
            let running = try fixture.narrate.start(["record", "--device", "usbmic", "--progress", "json"])
            _ = running.waitForStderrLine { $0.contains("\"event\":\"started\"") }
            usleep(600_000)
            running.signal(SIGKILL)
            _ = running.wait()
            articles = fixture.narrate.home.appendingPathComponent("articles")
            partialName = try #require(FileManager.default.subpaths(atPath: articles.path)?.first { $0.hasSuffix(".partial.wav") })
            pristine = fixture.folder.file("pristine")
            try FileManager.default.copyItem(at: fixture.narrate.home, to: pristine)
            original = [UInt8](try Data(contentsOf: articles.appendingPathComponent(partialName)))
            #expect(original.count > 44 + 44_100, "the killed take holds over 0.5 s")
        }

        /// Puts the library back as it was just after the kill, with the take's file replaced.
        func restore(withTake bytes: [UInt8]) throws {
            try? FileManager.default.removeItem(at: fixture.narrate.home)
            try FileManager.default.copyItem(at: pristine, to: fixture.narrate.home)
            try Data(bytes).write(to: articles.appendingPathComponent(partialName))
        }

        /// The chunks after a command: chunk 1 unchanged, and nothing more to adopt.
        func settledChunks(_ context: String) throws -> [[String: Any]] {
            let again = try fixture.narrate.run("chunks", "--json")
            #expect(again.status == 0 && again.stderr.isEmpty, "\(context): \(again.stderr)")
            let chunks = try #require(try again.json() as? [[String: Any]])
            #expect(try Data(contentsOf: URL(fileURLWithPath: try #require(chunks.first?["file"] as? String))) == firstChunk, "\(context)")
            return chunks
        }

        /// Every file the article keeps: chunks, trash, set-aside takes and damaged headers.
        func keptFiles() -> [URL] {
            let enumerator = FileManager.default.enumerator(at: articles, includingPropertiesForKeys: nil)
            return (enumerator?.allObjects as? [URL] ?? []).filter { !$0.hasDirectoryPath }
        }
    }

    @Test("a header damaged in place (a torn write, a bad sector): the take is recovered with every sample, the header rebuilt")
    func damagedInPlace() throws {
        var random = SeededGenerator(default: 0x5041_5254)
        let take = try KilledTake()
        var rebuilt = 0
        var recoveredWhole = 0
        for round in 0..<Self.rounds {
            // Overwrite 1-44 bytes of the header where they are, as a disk does; sometimes the
            // end is lost too, as an unwritten block would be.
            var header = Array(take.original[0..<44])
            let start = Int.random(in: 0..<44, using: &random)
            for index in start..<min(44, start + Int.random(in: 1...44, using: &random)) {
                header[index] = round % 3 == 0 ? 0 : UInt8.random(in: 0...255, using: &random)
            }
            var payload = Array(take.original[44...])
            if Bool.random(using: &random) { payload = Array(payload.prefix(Int.random(in: 2...payload.count, using: &random))) }
            try take.restore(withTake: header + payload)
            let damage = "round \(round) (seed \(random.seed)): header \(header)"

            let result = try take.fixture.narrate.run("chunks", "--json")
            #expect(result.status == 0, "\(damage): \(result.stderr)")
            #expect(result.stderr.hasPrefix("Recovered an interrupted take of \"Harbour\""), "\(damage): \(result.stderr)")
            let chunks = try take.settledChunks(damage)
            #expect(chunks.count == 2, "\(damage)")
            let file = try #require(chunks.last?["file"] as? String)
            let recovered = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
            let wholeFrames = payload.count / 2 * 2
            #expect(recovered.count == 44 + wholeFrames, "\(damage)")
            #expect(Array(recovered[0..<44]) == TakeHeader.bytes(for: .speech, frames: wholeFrames / 2), "\(damage)")
            #expect(recovered[44...] == payload[0..<wholeFrames], "\(damage): the samples are not the take's")
            #expect(try SoundFileReader(path: file).frames == wholeFrames / 2, "\(damage)")
            if recovered.count == 44 + wholeFrames, recovered[44...] == payload[0..<wholeFrames] { recoveredWhole += 1 }
            if result.stderr.contains("Its header was damaged and has been rebuilt from the article's format") {
                rebuilt += 1
                let copy = try #require(take.keptFiles().first { $0.lastPathComponent.hasSuffix(".damaged-header") }, "\(damage)")
                #expect(result.stderr.contains("(the damaged one is kept as \(copy.path))."), "\(damage): \(result.stderr)")
                #expect([UInt8](try Data(contentsOf: copy)) == header, "\(damage)")
            }
        }
        // A change to the size fields alone leaves a header of the right shape: only sizes are set.
        #expect(rebuilt > Self.rounds / 2)
        print("figure: recovery, headers damaged in place (seed \(random.seed)): \(recoveredWhole) of \(Self.rounds) takes recovered with every whole frame, \(rebuilt) headers rebuilt, \(Self.rounds - rebuilt) only resized")
    }

    @Test("a header cut, grown or shifted: no trap, the audio is kept, the catalog stays consistent")
    func reshapedHeaders() throws {
        var random = SeededGenerator(default: 0x5348_4946)
        let take = try KilledTake()
        var recovered = 0
        for round in 0..<Self.rounds {
            var payload = Array(take.original[44...])
            if Bool.random(using: &random) { payload = Array(payload.prefix(Int.random(in: 0...payload.count, using: &random))) }
            let damaged = random.mutate(Array(take.original[0..<44])) + payload
            try take.restore(withTake: damaged)
            let damage = "round \(round) (seed \(random.seed)): header \(Array(damaged.prefix(48)))"

            let result = try take.fixture.narrate.run("chunks", "--json")
            #expect([0, 1].contains(result.status), "\(damage): ended with \(result.status): \(result.stderr)")
            #expect(!result.stderr.contains("Fatal error"), "\(damage): \(result.stderr)")
            if result.stderr.contains("Recovered an interrupted take") { recovered += 1 }

            // The audio is still on disk, but for at most one torn frame at the end (the widest a
            // header can declare is 32 bytes): in a chunk as it is, or behind the damaged header's
            // copy where the rebuilt header took the place of a shorter one.
            let kept = Data(payload.dropLast(32))
            let files = take.keptFiles()
            let copy = files.first { $0.lastPathComponent.hasSuffix(".damaged-header") }.flatMap { try? Data(contentsOf: $0) }
            let found = kept.isEmpty || files.contains { file in
                guard file.pathExtension == "wav", let bytes = try? Data(contentsOf: file) else { return false }
                return bytes.range(of: kept) != nil || (copy.map { $0 + bytes.dropFirst(44) }?.range(of: kept) != nil)
            }
            #expect(found, "\(damage): the take's audio is gone")
            _ = try take.settledChunks(damage)
        }
        print("figure: recovery, headers cut, grown or shifted (seed \(random.seed)): \(Self.rounds) takes, \(recovered) recovered, audio kept in every one")
    }
}
