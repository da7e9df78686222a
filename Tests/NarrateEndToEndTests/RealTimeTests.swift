import Foundation
import NarrationAudio
import NarrationTestSupport
import Testing

/// Recording paced in real time: through a user-mode PulseAudio null sink (ALSA's `default`
/// device) and through the emulated USB microphone. Serialized: each test measures wall time.
@Suite("Real-time recording", .serialized)
struct RealTimeTests {
    /// Starts `record --progress json` and waits for its "started" event.
    /// - Returns: the process and the CLOCK_MONOTONIC time of the first captured frame.
    private func startRecording(_ narrate: Narrate, _ extra: [String] = []) throws -> (Narrate.Running, Double) {
        let running = try narrate.start(["record", "--progress", "json", "--json"] + extra)
        let line = try #require(running.waitForStderrLine { $0.contains("\"event\":\"started\"") })
        let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        return (running, try #require(event["firstFrameMonotonic"] as? Double))
    }

    private func chunkJSON(_ result: Narrate.Result) throws -> [String: Any] {
        let object = try #require(try result.json() as? [String: Any])
        return try #require(object["chunk"] as? [String: Any])
    }

    @Test("SIGINT after about 3 s through PulseAudio: the chunk is as long as the wall time, within 50 ms")
    func sigintThroughPulse() throws {
        let pulse = try PulseServer()
        let fixture = try EndToEndFixture(environment: pulse.environment)
        _ = try fixture.newArticle()
        let (running, firstFrame) = try startRecording(fixture.narrate)
        var levelEvents = 0
        var lastFrames = 0
        let deadline = firstFrame + 3
        while monotonicNow() < deadline, let line = running.nextStderrLine() {
            if line.contains("\"event\":\"level\"") { levelEvents += 1 }
            if let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], let frames = event["frames"] as? Int {
                #expect(frames >= lastFrames)
                lastFrames = frames
            }
        }
        let stoppedAt = monotonicNow()
        running.signal(SIGINT)
        let result = running.wait()
        #expect(result.status == 0, "\(result.stderr)")
        let chunk = try chunkJSON(result)
        let duration = try #require(chunk["duration"] as? Double)
        let wall = stoppedAt - firstFrame
        #expect(abs(duration - wall) <= 0.05, "chunk \(duration) s, wall \(wall) s")
        print("figure: SIGINT via PulseAudio: chunk \(duration) s, wall \(wall) s, difference \(Int(((duration - wall) * 1000).rounded())) ms, \(levelEvents) level events (\(Int((Double(levelEvents) / wall).rounded()))/s)")
        // The live display updates at least 10 times a second (it aims for 20).
        #expect(Double(levelEvents) / wall >= 10, "\(levelEvents) level events in \(wall) s")
        #expect((try result.json() as? [String: Any])?["stopReason"] as? String == "requested")
    }

    @Test("SIGTERM stops and keeps the take, like SIGINT")
    func sigterm() throws {
        let fixture = try EndToEndFixture()
        _ = try fixture.newArticle()
        let (running, firstFrame) = try startRecording(fixture.narrate, ["--device", "usbmic"])
        while monotonicNow() < firstFrame + 1 { usleep(10_000) }
        let stoppedAt = monotonicNow()
        running.signal(SIGTERM)
        let result = running.wait()
        #expect(result.status == 0)
        let duration = try #require(try chunkJSON(result)["duration"] as? Double)
        #expect(abs(duration - (stoppedAt - firstFrame)) <= 0.05)
        print("figure: SIGTERM via usbmic: chunk \(duration) s, wall \(stoppedAt - firstFrame) s")
    }

    @Test("kill -9 mid-take through PulseAudio: the next command recovers all but at most 250 ms")
    func crashRecovery() throws {
        let pulse = try PulseServer()
        let fixture = try EndToEndFixture(environment: pulse.environment)
        _ = try fixture.newArticle()
        try fixture.narrate.run("record", "--device", "vmic", "--duration", "0.5")
        let (running, firstFrame) = try startRecording(fixture.narrate)
        while monotonicNow() < firstFrame + 2.2 { _ = running.nextStderrLine() }
        let killedAt = monotonicNow()
        running.signal(SIGKILL)
        let killed = running.wait()
        #expect(killed.status != 0)
        let captured = killedAt - firstFrame

        let next = try fixture.narrate.run("chunks", "--json")
        #expect(next.status == 0)
        let notice = try #require(next.stderr.split(separator: "\n").first.map(String.init))
        #expect(notice.hasPrefix("Recovered an interrupted take of \"An article\" ("))
        #expect(notice.contains(" as chunk 2: 00:00:02."))
        let chunks = try #require(try next.json() as? [[String: Any]])
        #expect(chunks.count == 2)
        #expect(chunks[1]["recovered"] as? Bool == true)
        let recovered = try #require(chunks[1]["duration"] as? Double)
        #expect(recovered >= captured - 0.25, "recovered \(recovered) s of \(captured) s")
        print("figure: kill -9 via PulseAudio: captured \(captured) s before the kill, recovered \(recovered) s, lost \(Int(((captured - recovered) * 1000).rounded())) ms")
        #expect(recovered <= captured + 0.05)
        let file = try #require(chunks[1]["file"] as? String)
        #expect(try SoundFileReader(path: file).frames == chunks[1]["frames"] as? Int)
        #expect(try fixture.narrate.run("chunks").stderr.isEmpty)
    }

    @Test("a reader stalled past the device buffer causes overruns that are recovered, counted and shown")
    func overrunsCounted() throws {
        let fixture = try EndToEndFixture()
        _ = try fixture.newArticle()
        let (running, _) = try startRecording(fixture.narrate, ["--device", "usbmic"])
        usleep(300_000)
        kill(running.pid, SIGSTOP)
        usleep(1_600_000)  // longer than the 1 s capture buffer
        kill(running.pid, SIGCONT)
        usleep(500_000)
        running.signal(SIGINT)
        let result = running.wait()
        #expect(result.status == 0)
        let overruns = try #require(try chunkJSON(result)["overruns"] as? Int)
        #expect(overruns >= 1)
        print("figure: a 1.6 s stall with a 1 s buffer: \(overruns) overrun(s) counted")
        let listing = try fixture.narrate.run("chunks").stdout
        #expect(listing.contains("  \(overruns)\n") || listing.contains("  \(overruns)  "))
    }

    @Test("--start-after counts in before the first frame is captured")
    func countIn() throws {
        let fixture = try EndToEndFixture()
        _ = try fixture.newArticle()
        let launched = monotonicNow()
        let (running, firstFrame) = try startRecording(fixture.narrate, ["--device", "usbmic", "--start-after", "1", "--duration", "0.2"])
        let result = running.wait()
        #expect(firstFrame - launched >= 1.0)
        #expect(try chunkJSON(result)["frames"] as? Int == 8_820)
    }

    @Test("on a terminal the meter line runs and Enter stops the take", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")))
    func terminalMeter() throws {
        let fixture = try EndToEndFixture()
        _ = try fixture.newArticle("On screen")
        let environment = fixture.narrate.environment.filter { ["NARRATE_HOME", "ALSA_CONFIG_PATH", "PATH"].contains($0.key) }
        let terminal = try TmuxSession("\(Narrate.executable.path) record --device usbmic", environment: environment)
        var screen = try terminal.screen(containing: "● REC 00:00:01")
        #expect(screen.contains("● Recording \"On screen\" on usbmic. Speak now; press Enter or q to stop."))
        #expect(screen.contains("● REC 00:00:01"))
        print("figure: terminal while recording:\n" + screen)
        #expect(screen.contains("dBFS"))
        try terminal.send("Enter")
        screen = try terminal.screen(containing: "EXIT=")
        #expect(screen.contains("Chunk 1 recorded: 00:00:01."))
        #expect(screen.contains("peak -12.0 dBFS"))
        #expect(screen.contains("EXIT=0"))
    }

    /// Runs `play --progress json` and returns the monotonic time at which the audible position
    /// first reached `mark` seconds, and the time the process ended. Timing from a mark inside the
    /// audio leaves out the device's start-up (an idle PulseAudio null sink takes up to 2 s).
    private func timePlayback(_ narrate: Narrate, mark: Double, _ extra: [String]) throws -> (markedAt: Double, endedAt: Double, result: Narrate.Result) {
        let running = try narrate.start(["play", "--progress", "json", "--json"] + extra)
        var markedAt: Double?
        while let line = running.nextStderrLine() {
            guard markedAt == nil, let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let position = event["position"] as? Double, position >= mark
            else { continue }
            markedAt = monotonicNow()
        }
        let endedAt = monotonicNow()
        return (try #require(markedAt), endedAt, running.wait())
    }

    @Test("through PulseAudio, 10 s of chunks play in 10 s; at 1.5× 9 s play in 6 s at the same pitch")
    func playbackInRealTime() throws {
        let pulse = try PulseServer()
        let fixture = try EndToEndFixture(source: Signals.sine(frequency: 1_000, peakDBFS: -6, seconds: 2.5), environment: pulse.environment)
        _ = try fixture.newArticle()
        for seconds in [2.0, 2, 2, 2, 1, 1] { try fixture.record(seconds) }  // 9 s in chunks 1–5, 10 s in all

        // Timed from 1 s of audio in to the end: 9 s more at normal speed.
        let normal = try timePlayback(fixture.narrate, mark: 1, [])
        #expect(normal.result.status == 0)
        let normalSeconds = 1 + (normal.endedAt - normal.markedAt)
        #expect(abs(normalSeconds - 10) <= 0.2, "10 s of audio took \(normalSeconds) s")

        // At 1.5×, 1.5 s of audio take 1 s, and the remaining 7.5 s take 5 s.
        let fast = try timePlayback(fixture.narrate, mark: 1.5, ["--speed", "1.5", "--to", "5", "--device", "rtspk"])
        #expect(fast.result.status == 0)
        let fastSeconds = 1 + (fast.endedAt - fast.markedAt)
        #expect(abs(fastSeconds - 6) <= 0.2, "9 s of audio at 1.5× took \(fastSeconds) s")
        let played = Splices.int16([UInt8](try Data(contentsOf: fixture.devices.playedFile)))
        #expect(abs(Double(played.count) / 44_100 - 6) <= 0.02)
        let frequency = Splices.frequency(of: Array(played[44_100..<(played.count - 44_100)]), sampleRate: 44_100)
        #expect(abs(frequency - 1_000) <= 2, "the tone came out at \(frequency) Hz")
        print("figure: PulseAudio playback: 10 s of chunks in \(normalSeconds) s; 9 s at 1.5× in \(fastSeconds) s, \(Double(played.count) / 44_100) s sent, tone \(frequency) Hz")
    }

    @Test("on a terminal, Space pauses and resumes, → seeks 5 s, q stops: the speaker gets exactly that")
    func playbackKeys() throws {
        let fixture = try EndToEndFixture()
        _ = try fixture.newArticle("Keys")
        var source: [Int16] = []
        for seed in 1...3 {
            let noise = Signals.noise(seconds: 4.1, seed: UInt64(seed))
            let take = TemporaryFolder("narrate-take")
            let microphone = try VirtualDevices(folder: take.url, source: noise)
            let narrate = Narrate(home: fixture.narrate.home, environment: microphone.environment)
            #expect(try narrate.run("record", "--device", "vmic", "--duration", "4").status == 0)
            source += Splices.int16(noise).prefix(176_400)
        }
        let environment = fixture.narrate.environment.filter { ["NARRATE_HOME", "ALSA_CONFIG_PATH", "PATH"].contains($0.key) }
        let terminal = try TmuxSession("\(Narrate.executable.path) play --device pacedspk", environment: environment)
        _ = try terminal.screen(containing: "▶ chunk 1/3  00:00:01 / 00:00:12")
        try terminal.send("Space")
        let paused = try terminal.screen(containing: "⏸ chunk 1/3  00:00:01 / 00:00:12")
        #expect(paused.contains("⏸ chunk 1/3  00:00:01 / 00:00:12"))
        usleep(500_000)
        #expect(try terminal.screen(containing: "⏸").contains("⏸ chunk 1/3  00:00:01 / 00:00:12"))
        try terminal.send("Space")
        _ = try terminal.screen(containing: "▶ chunk 1/3  00:00:02")
        try terminal.send("Right")
        _ = try terminal.screen(containing: "▶ chunk 2/3  00:00:07")
        try terminal.send("q")
        let ended = try terminal.screen(containing: "EXIT=")
        #expect(ended.contains("Stopped at chunk 2, 00:00:0"))
        #expect(ended.contains("EXIT=0"))

        let played = Splices.int16([UInt8](try Data(contentsOf: fixture.devices.playedFile)))
        let segments = try #require(Splices.segments(of: played, in: source))
        #expect(segments.count == 2, "\(segments)")
        guard segments.count == 2 else { return }
        #expect(segments[0].lowerBound == 0)
        #expect(segments[1].lowerBound == segments[0].upperBound + 220_500)  // → is exactly 5 s
        #expect(segments[0].upperBound > 2 * 44_100)  // the pause at 1 s left no gap
        print("figure: keys under tmux: splices \(segments); paused screen: \(paused.split(separator: "\n").first { $0.contains("⏸") } ?? "")")
    }
}
