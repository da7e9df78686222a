import Foundation
import NarrationAudio
import NarrationTestSupport
import Testing

/// `kill -9` at random moments of real-time takes (through a user-mode PulseAudio server, so
/// capture is paced by a clock, as with a microphone): appends, inserts, re-records and punches, some
/// killed before audio even flows. Two libraries take 25 kills each, side by side, to halve the
/// wall time (starting a capture stream through PulseAudio takes 1–2 s of it).
@Suite("Random kill -9 during real-time recordings")
struct KillNineTests {
    static let kills = 25

    /// Each chunk's length by its id, from `chunks --json`.
    static func framesByID(_ chunks: [[String: Any]]) -> [String: Int] {
        var frames: [String: Int] = [:]
        for chunk in chunks {
            if let id = chunk["id"] as? String, let count = chunk["frames"] as? Int { frames[id] = count }
        }
        return frames
    }

    @Test("50 kills: every take is recovered but for at most 250 ms, no chunk is lost or changed, and chunks works after each", arguments: [0x4B49_4C4C, 0x4B49_4C4D] as [UInt64])
    func randomKills(seed: UInt64) throws {
        var random = SeededGenerator(default: seed)
        let pulse = try PulseServer()
        let fixture = try EndToEndFixture(environment: pulse.environment)
        _ = try fixture.newArticle("Killed again and again")
        var losses: [Double] = []
        var earlyKills = 0
        var punches = 0
        for kill in 0..<Self.kills {
            let before = try fixture.chunks()
            var arguments = ["record", "--progress", "json", "--json"]
            let placement = before.isEmpty ? 0 : Int.random(in: 0..<6, using: &random)
            if placement == 3 { arguments += ["--insert", String(Int.random(in: 1...before.count, using: &random))] }
            if placement == 4 { arguments += ["--replace", String(Int.random(in: 1...before.count, using: &random))] }
            if placement == 5 {
                // A punch: a killed one is recovered as a take of its own after the chunk, which stays as it was.
                let chunk = Int.random(in: 1...before.count, using: &random)
                let length = before[chunk - 1]["duration"] as? Double ?? 0
                let at = (length * Double.random(in: 0.1...0.9, using: &random) * 1_000).rounded() / 1_000
                arguments += ["--punch", "\(chunk)@\(at)", "--pre-roll", "0.2", "--output-device", "vspk"]
                punches += 1
            }
            let early = Int.random(in: 0..<10, using: &random) == 0
            let hold = Double.random(in: 0.05...0.8, using: &random)
            let context = "kill \(kill + 1) (seed \(random.seed)): \(arguments.dropFirst(4).joined(separator: " "))"

            let startedAt = monotonicNow()
            let running = try fixture.narrate.start(arguments)
            var firstFrame: Double?
            if early {
                usleep(UInt32.random(in: 0...150_000, using: &random))
                earlyKills += 1
            } else {
                let line = try #require(running.waitForStderrLine { $0.contains("\"event\":\"started\"") }, "\(context): never started")
                let event = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                firstFrame = try #require(event?["firstFrameMonotonic"] as? Double)
                while monotonicNow() < firstFrame! + hold { _ = running.nextStderrLine() }
            }
            let killedAt = monotonicNow()
            running.signal(SIGKILL)
            #expect(running.wait().status == 128 + SIGKILL)

            let next = try fixture.narrate.run("chunks", "--json")
            #expect(next.status == 0, "\(context): \(next.stderr)")
            #expect(next.stderr.split(separator: "\n").count <= 1, "\(context): \(next.stderr)")
            let after = try #require(try next.json() as? [[String: Any]], "\(context)")
            // Nothing recorded before is lost or changed, wherever the new take went.
            let framesBefore = Self.framesByID(before)
            let framesAfter = Self.framesByID(after)
            #expect(framesAfter.count == after.count, "\(context): a chunk without an id or length")
            for (id, frames) in framesBefore { #expect(framesAfter[id] == frames, "\(context): chunk \(id) changed or went") }
            let added = after.filter { ($0["id"] as? String).map { framesBefore[$0] == nil } ?? false }
            #expect(added.count <= 1, "\(context)")

            guard let firstFrame else { continue }  // killed before audio flowed: nothing was captured
            let captured = killedAt - firstFrame
            let take = try #require(added.first, "\(context): \(captured) s captured, no chunk recovered")
            #expect(take["recovered"] as? Bool == true)
            let recovered = try #require(take["duration"] as? Double)
            #expect(recovered >= captured - 0.25 && recovered <= killedAt - startedAt, "\(context): recovered \(recovered) s of \(captured) s")
            #expect(try SoundFileReader(path: try #require(take["file"] as? String)).frames == take["frames"] as? Int)
            losses.append(captured - recovered)
        }
        let final = try fixture.narrate.run("chunks")
        #expect(final.status == 0 && final.stderr.isEmpty)
        let sorted = losses.sorted()
        let milliseconds = { (seconds: Double) in Int((seconds * 1_000).rounded()) }
        print("figure: \(Self.kills) kill -9s (\(earlyKills) before audio flowed, \(punches) of punches), \(losses.count) takes recovered; audio lost per take: median \(milliseconds(sorted[sorted.count / 2])) ms, worst \(milliseconds(sorted.last ?? 0)) ms (limit 250 ms)")
    }
}
