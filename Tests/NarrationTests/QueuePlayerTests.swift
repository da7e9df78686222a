import Foundation
import Glibc
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

    /// Starts `player`, calls `step` with a way to wait for a status, and returns what it ended with.
    private func drive(_ player: QueuePlayer, _ step: (((QueuePlayer.Status) -> Bool) -> Void) -> Void) -> QueuePlayer.Status {
        func waitUntil(_ condition: (QueuePlayer.Status) -> Bool) {
            for _ in 0..<2_000 where !condition(player.status) { usleep(5_000) }
        }
        player.play()
        step(waitUntil)
        return player.wait()
    }

    /// Pauses `count` times, 0.4 s apart in the article, each pause 0.3 s long.
    private func pauseRepeatedly(_ player: QueuePlayer, count: Int) -> QueuePlayer.Status {
        drive(player) { waitUntil in
            for pause in 1...count {
                waitUntil { $0.position >= pause * 17_640 }
                player.pause()
                waitUntil { $0.state == .paused }
                usleep(300_000)
                player.resume()
                waitUntil { $0.state == .playing }
            }
        }
    }

    @Test("five pauses on a file device: the speaker gets every frame of the article once, in order")
    func pausesOnFileDevice() throws {
        let fixture = try LibraryFixture()
        let (article, chunks) = try noiseArticle(fixture, frames: [50_000, 31_111, 40_000])
        let plan = try fixture.library.playbackPlan(of: article, from: nil, to: nil, skipMissing: false)
        let player = try fixture.library.preparePlayback(
            of: article, plan: plan, device: "pacedspk", speed: 1, volume: 1, definitions: fixture.devices.definitions)
        let status = pauseRepeatedly(player, count: 5)
        #expect(status.state == .finished)
        let played = Splices.int16([UInt8](try Data(contentsOf: fixture.devices.playedFile)))
        let expected = Array(chunks.joined())
        #expect(played.count == expected.count)
        #expect(played == expected)
        print("figure: 5 pauses on pacedspk (file): \(played.count) frames received of \(expected.count)")
    }

    @Test("five pauses through PulseAudio: the sink's monitor (parec) gets every frame of the article once, in order")
    func pausesThroughPulseAudio() throws {
        let pulse = try PulseServer(rewinds: false)
        let fixture = try LibraryFixture()
        let (article, chunks) = try noiseArticle(fixture, frames: [50_000, 31_111, 40_000])
        let socket = try #require(pulse.environment["PULSE_SERVER"])
        let definitions = ALSADefinitions(
            fixture.devices.definitions.text + "\npcm.pulsespk { type pulse server \"\(socket)\" device \"vspk\" }\n")
        let recorder = try MonitorRecorder(pulse)
        let plan = try fixture.library.playbackPlan(of: article, from: nil, to: nil, skipMissing: false)
        let player = try fixture.library.preparePlayback(
            of: article, plan: plan, device: "pulsespk", speed: 1, volume: 1, definitions: definitions)
        let status = pauseRepeatedly(player, count: 5)
        #expect(status.state == .finished)
        // What the sink played, less the silence before, between (the pauses) and after.
        let heard = MonitorRecorder.withoutSilence(try recorder.finish())
        let expected = Array(chunks.joined())
        #expect(heard.count == expected.count)
        #expect(heard == expected)
        print("figure: 5 pauses via PulseAudio (parec, null sink norewinds=1): \(heard.count) frames received of \(expected.count)")
    }

    @Test("volume changed while playing: the samples before are untouched, the ones after scaled exactly")
    func volumeWhilePlaying() throws {
        let fixture = try LibraryFixture()
        let (article, chunks) = try noiseArticle(fixture, frames: [44_100, 44_100])
        let plan = try fixture.library.playbackPlan(of: article, from: nil, to: nil, skipMissing: false)
        let player = try fixture.library.preparePlayback(
            of: article, plan: plan, device: "pacedspk", speed: 1, volume: 1, definitions: fixture.devices.definitions)
        let half = Decibels(-6).amplitude
        let status = drive(player) { waitUntil in
            waitUntil { $0.position >= 22_050 }
            player.setVolume(half)
            waitUntil { $0.volume == half }
        }
        #expect(status.state == .finished && status.volume == half)
        let played = Splices.int16([UInt8](try Data(contentsOf: fixture.devices.playedFile)))
        let source = Array(chunks.joined())
        #expect(played.count == source.count)
        let unchanged = zip(played, source).prefix { $0 == $1 }.count
        #expect(unchanged >= 22_050 && unchanged < 88_200)
        let expected = source[unchanged...].map { Int16((Double($0) * half).rounded()) }
        #expect(Array(played[unchanged...]) == expected)
        print("figure: -6 dB from frame \(unchanged): amplitude ×\(half)")
    }

    @Test("speed changed while playing: no gap, nothing skipped or repeated; the stretch is the frames it covers ÷ 1.25")
    func speedWhilePlaying() throws {
        let fixture = try LibraryFixture()
        let (article, chunks) = try noiseArticle(fixture, frames: [66_150, 66_150])
        let plan = try fixture.library.playbackPlan(of: article, from: nil, to: nil, skipMissing: false)
        let player = try fixture.library.preparePlayback(
            of: article, plan: plan, device: "pacedspk", speed: 1, volume: 1, definitions: fixture.devices.definitions)
        let status = drive(player) { waitUntil in
            waitUntil { $0.position >= 22_050 }
            player.setSpeed(1.25)
            waitUntil { $0.speed == 1.25 && $0.position >= 66_150 }
            player.setSpeed(1)
            waitUntil { $0.speed == 1 }
        }
        #expect(status.state == .finished && status.speed == 1)
        let played = Splices.int16([UInt8](try Data(contentsOf: fixture.devices.playedFile)))
        let source = Array(chunks.joined())
        // Played: the source as it is up to the change, stretched audio, then the source as it is to the end.
        let head = zip(played, source).prefix { $0 == $1 }.count
        let tail = zip(played.reversed(), source.reversed()).prefix { $0 == $1 }.count
        let covered = source.count - tail - head
        let stretched = played.count - tail - head
        #expect(head >= 22_050 && tail >= 22_050 && covered > 22_050, "head \(head), tail \(tail)")
        #expect(abs(Double(stretched) - Double(covered) / 1.25) <= 2, "\(covered) frames became \(stretched)")
        print("figure: at 1.25× \(covered) frames played as \(stretched) (÷ \(Double(covered) / Double(max(1, stretched))))")
    }
}
