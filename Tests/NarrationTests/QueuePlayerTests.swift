import Foundation
@testable import Narration
import NarrationAudio
import NarrationCore
import NarrationTestSupport
import Testing

@Suite("The queue player")
struct QueuePlayerTests {
    /// Lengths chosen for the seams: single frames, odd lengths, a long chunk.
    static let chunkFrames = [1, 1_331, 1, 22_050, 17, 4_411]

    /// An article whose chunks hold different noise, and each chunk's samples.
    private func noiseArticle(_ fixture: LibraryFixture, frames: [FrameCount]) throws -> (Article, [[Int16]]) {
        let article = try fixture.library.newArticle(title: "Seams", publication: "", narrator: "", format: .speech)
        var chunks: [[Int16]] = []
        for (number, count) in frames.enumerated() {
            let source = Signals.noise(seconds: Double(count) / 44_100 + 0.01, seed: UInt64(number + 1))
            try fixture.record(article, frames: count, source: source)
            chunks.append(Array(Splices.int16(source).prefix(count)))
        }
        return (article, chunks)
    }

    private func play(
        _ fixture: LibraryFixture, _ article: Article, from: Int? = nil, to: Int? = nil, device: String = "vspk",
        speed: Double = 1, volume: Double = 1
    ) throws -> (QueuePlayer.Status, [Int16]) {
        let plan = try fixture.library.playbackPlan(
            of: article, from: from.map { ChunkIndex($0) }, to: to.map { ChunkIndex($0) }, skipMissing: false)
        let player = try fixture.library.preparePlayback(
            of: article, plan: plan, device: device, speed: speed, volume: volume, definitions: fixture.devices.definitions)
        player.play()
        let status = player.wait()
        let played = Splices.int16([UInt8](try Data(contentsOf: fixture.devices.playedFile)))
        return (status, played)
    }

    @Test("chunks N…M reach the device as exactly their samples, seam to seam", arguments: [
        (1, 6), (2, 2), (6, 6), (1, 1), (3, 5), (2, 4), (4, 6),
    ])
    func gapless(from: Int, to: Int) throws {
        let fixture = try LibraryFixture()
        let (article, chunks) = try noiseArticle(fixture, frames: Self.chunkFrames)
        let (status, played) = try play(fixture, article, from: from, to: to)
        let expected = Array(chunks[(from - 1)..<to].joined())
        #expect(status.state == .finished)
        #expect(status.total == expected.count)
        #expect(status.position == expected.count)
        #expect(played.count == expected.count)
        #expect(played == expected)
    }

    @Test("volume scales every sample, rounded to the nearest 16-bit value")
    func volume() throws {
        let fixture = try LibraryFixture()
        let (article, chunks) = try noiseArticle(fixture, frames: [3_001, 999])
        let (_, played) = try play(fixture, article, volume: 0.3)
        #expect(played == chunks.joined().map { Int16((Double($0) * 0.3).rounded()) })
    }

    @Test("speed changes duration, not pitch", arguments: [1.5, 0.5])
    func speed(speed: Double) throws {
        let tone = Signals.sine(frequency: 1_000, peakDBFS: -6, seconds: 3.1)
        let fixture = try LibraryFixture(source: tone)
        let article = try fixture.library.newArticle(title: "Tone", publication: "", narrator: "", format: .speech)
        for _ in 0..<3 { try fixture.record(article, seconds: 1) }
        let (status, played) = try play(fixture, article, speed: speed)
        #expect(status.state == .finished)
        let expectedFrames = 3 * 44_100 / speed
        #expect(abs(Double(played.count) - expectedFrames) <= 0.02 * 44_100, "\(played.count) frames, expected \(expectedFrames)")
        let middle = Array(played[(played.count / 4)..<(3 * played.count / 4)])
        let frequency = Splices.frequency(of: middle, sampleRate: 44_100)
        #expect(abs(frequency - 1_000) <= 2, "measured \(frequency) Hz")
        print("figure: speed \(speed): 3 s of a 1 kHz tone became \(Double(played.count) / 44_100) s at \(frequency) Hz")
    }

    @Test("pause, seek, jump and previous land exactly where asked, in real time")
    func transport() throws {
        let fixture = try LibraryFixture()
        let (article, chunks) = try noiseArticle(fixture, frames: [66_150, 66_150, 66_150, 66_150])  // 4 × 1.5 s
        let starts = [0, 66_150, 132_300, 198_450]
        let plan = try fixture.library.playbackPlan(of: article, from: nil, to: nil, skipMissing: false)
        let player = try fixture.library.preparePlayback(
            of: article, plan: plan, device: "pacedspk", speed: 1, volume: 1, definitions: fixture.devices.definitions)
        func waitUntil(_ condition: (QueuePlayer.Status) -> Bool) {
            for _ in 0..<1_000 where !condition(player.status) { usleep(5_000) }
        }
        player.play()
        waitUntil { $0.position >= 17_640 }
        player.pause()
        waitUntil { $0.state == .paused }
        let pausedAt = player.status.position
        usleep(300_000)
        #expect(player.status.position == pausedAt)
        #expect(player.status.state == .paused)
        player.resume()
        waitUntil { $0.position >= pausedAt + 8_820 }
        player.seek(by: 1)
        waitUntil { $0.chunk == ChunkIndex(2) && $0.positionInChunk >= 4_410 }
        #expect(player.jump(to: ChunkIndex(4)))
        #expect(!player.jump(to: ChunkIndex(9)))
        waitUntil { $0.chunk == ChunkIndex(4) && $0.positionInChunk >= 4_410 }
        player.previous()
        let status = player.wait()
        #expect(status.state == .finished)

        let played = Splices.int16([UInt8](try Data(contentsOf: fixture.devices.playedFile)))
        let segments = try #require(Splices.segments(of: played, in: Array(chunks.joined())))
        #expect(segments.count == 4, "\(segments)")
        guard segments.count == 4 else { return }
        #expect(segments[0].lowerBound == 0)
        #expect(segments[1].lowerBound == segments[0].upperBound + 44_100)  // seek +1 s, exact
        #expect(segments[2].lowerBound == starts[3])  // jump to chunk 4
        #expect(segments[3] == starts[2]..<(4 * 66_150))  // previous: chunk 3 to the end
        #expect(segments[0].upperBound > pausedAt)  // the pause left no gap and no repeat
        print("figure: transport splices \(segments)")
    }

    @Test("stop ends playback at once and reports where")
    func stop() throws {
        let fixture = try LibraryFixture()
        let (article, _) = try noiseArticle(fixture, frames: [88_200])
        let plan = try fixture.library.playbackPlan(of: article, from: nil, to: nil, skipMissing: false)
        let player = try fixture.library.preparePlayback(
            of: article, plan: plan, device: "pacedspk", speed: 1, volume: 1, definitions: fixture.devices.definitions)
        player.play()
        for _ in 0..<400 where player.status.position < 22_050 { usleep(5_000) }
        player.stop()
        let status = player.wait()
        #expect(status.state == .stopped)
        #expect(status.position >= 22_050 && status.position < 44_100)
    }
}
