import Foundation
import Glibc
import NarrationAudio
import NarrationCore
import NarrationTestSupport
import Testing

@Suite("narrate play")
struct PlayCommandTests {
    /// An article of three speech chunks (0.3, 0.5 and 0.2 s), and the samples of each.
    private func threeChunks(_ fixture: EndToEndFixture) throws -> [[Int32]] {
        _ = try fixture.newArticle("Review")
        for seconds in [0.3, 0.5, 0.2] { try fixture.record(seconds) }
        return try fixture.chunks().map { try SoundFileReader(path: $0["file"] as! String).readAll() }
    }

    private func played(_ fixture: EndToEndFixture) throws -> [Int32] {
        Signals.samples([UInt8](try Data(contentsOf: fixture.devices.playedFile)), bitsPerSample: 16)
    }

    @Test("plays the chosen chunks to the speaker sample for sample and says what it played")
    func playsRange() throws {
        let fixture = try EndToEndFixture()
        let chunks = try threeChunks(fixture)
        let result = try fixture.narrate.run("play", "--device", "vspk", "--from", "2")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "Played chunks 2–3 of \"Review\" (00:00:00.700), no underruns.\n")
        #expect(try played(fixture) == chunks[1] + chunks[2])
        let json = try #require(try fixture.narrate.run("play", "--device", "vspk", "--to", "1", "--json").json() as? [String: Any])
        #expect(json["state"] as? String == "finished" && json["total"] as? Double == 0.3 && json["underruns"] as? Int == 0)
        #expect(try played(fixture) == chunks[0])
    }

    private func expectFailure(_ result: Narrate.Result, status: Int32 = 1, stderr: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == status, sourceLocation: sourceLocation)
        #expect(result.stderr == stderr + "\n", sourceLocation: sourceLocation)
    }

    @Test("bad input: range, empty article, speed, volume, device")
    func badInput() throws {
        let fixture = try EndToEndFixture()
        _ = try fixture.newArticle("Nothing yet")
        expectFailure(try fixture.narrate.run("play", "--device", "vspk"),
            stderr: "\"Nothing yet\" has no chunks yet, so there is nothing to play. Record one with \"narrate record\".")
        _ = try threeChunks(fixture)
        expectFailure(try fixture.narrate.run("play", "--device", "vspk", "--from", "4"),
            stderr: "There is no chunk 4: the article has 3 chunks (1–3). Run \"narrate chunks\" to see them.")
        expectFailure(try fixture.narrate.run("play", "--device", "vspk", "--from", "3", "--to", "2"), status: 64,
            stderr: "--from 3 comes after --to 2; give the first chunk first.")
        let speed = try fixture.narrate.run("play", "--speed", "3")
        #expect(speed.status == 64 && speed.stderr.hasPrefix("Error: --speed 3 is out of range: give 0.5 to 2.0."))
        let volume = try fixture.narrate.run("play", "--volume", "1.5")
        #expect(volume.status == 64 && volume.stderr.hasPrefix("Error: --volume 1.5 is out of range: give 0 to 1."))
        expectFailure(try fixture.narrate.run("play", "--device", "no-such-speaker"),
            stderr: "Cannot open audio device \"no-such-speaker\": no such device. Run \"narrate devices\" to list devices.")
        try Data().write(to: fixture.devices.busyFile)
        expectFailure(try fixture.narrate.run("play", "--device", "usbspk"),
            stderr: "Audio device \"usbspk\" is busy: another program is using it. Close that program or choose another device with --device.")
    }

    @Test("a missing or damaged chunk is named; --skip-missing plays the others")
    func missingChunk() throws {
        let fixture = try EndToEndFixture()
        let chunks = try threeChunks(fixture)
        let files = try fixture.chunks().map { $0["file"] as! String }
        try FileManager.default.removeItem(atPath: files[1])
        let refused = try fixture.narrate.run("play", "--device", "vspk")
        #expect(refused.status == 1)
        #expect(refused.stderr.hasSuffix("Chunk 2's file \(files[1]) is missing. Re-record it (narrate record --replace 2), delete it, or play around it with --skip-missing.\n"))
        let skipped = try fixture.narrate.run("play", "--device", "vspk", "--skip-missing")
        #expect(skipped.status == 0)
        #expect(skipped.stderr.contains("Skipping chunk 2: Chunk 2's file \(files[1]) is missing."))
        #expect(try played(fixture) == chunks[0] + chunks[2])

        try Data(repeating: 0x55, count: 300).write(to: URL(fileURLWithPath: files[2]))
        let damaged = try fixture.narrate.run("play", "--device", "vspk", "--from", "3")
        #expect(damaged.status == 1)
        #expect(damaged.stderr.hasPrefix("Chunk 3's file \(files[2]) is damaged ("))
    }

    @Test("a pulled speaker ends playback with a clear message")
    func pulledSpeaker() throws {
        let fixture = try EndToEndFixture(source: Signals.speech(.speech, seconds: 3))
        _ = try fixture.newArticle()
        try fixture.record(2.5)
        let running = try fixture.narrate.start(["play", "--device", "usbspk", "--progress", "json"])
        _ = running.waitForStderrLine { ($0.range(of: "\"position\":0.").map { _ in true } ?? false) && !$0.contains("\"position\":0,") }
        usleep(300_000)
        try Data().write(to: fixture.devices.unplugFile)
        let result = running.wait()
        #expect(result.status == 1)
        let last = try #require(result.stderr.split(separator: "\n").last.map(String.init))
        #expect(last.hasPrefix("Audio device \"usbspk\" stopped working ("))
        #expect(last.contains("Check that it is still plugged in. Playback stopped at chunk 1, 00:00:0"))
    }

    @Test("a player stalled past the device buffer counts and reports underruns")
    func underruns() throws {
        let fixture = try EndToEndFixture(source: Signals.speech(.speech, seconds: 3))
        _ = try fixture.newArticle()
        try fixture.record(2.5)
        let running = try fixture.narrate.start(["play", "--device", "usbspk", "--progress", "json", "--json"])
        _ = running.nextStderrLine()
        usleep(400_000)
        kill(running.pid, SIGSTOP)
        usleep(400_000)
        kill(running.pid, SIGCONT)
        let result = running.wait()
        #expect(result.status == 0)
        let json = try #require(try result.json() as? [String: Any])
        let underruns = try #require(json["underruns"] as? Int)
        #expect(underruns >= 1)
        #expect(json["state"] as? String == "finished")
        print("figure: a 0.4 s stall with a 0.12 s playback buffer: \(underruns) underrun(s) counted")
    }

    // MARK: Keys on a terminal

    /// An article of chunks of noise, each from its own seed, `seconds` long; returns the samples
    /// of the whole article (16-bit) and where each chunk starts.
    private func noiseChunks(_ fixture: EndToEndFixture, title: String, seconds: [Double]) throws -> (source: [Int16], starts: [Int]) {
        _ = try fixture.newArticle(title)
        var source: [Int16] = []
        var starts: [Int] = []
        for (number, length) in seconds.enumerated() {
            let noise = Signals.noise(seconds: length + 0.1, seed: UInt64(100 + number))
            let take = TemporaryFolder("narrate-take")
            let microphone = try VirtualDevices(folder: take.url, source: noise)
            let narrate = Narrate(home: fixture.narrate.home, environment: microphone.environment)
            #expect(try narrate.run("record", "--device", "vmic", "--duration", "\(length)").status == 0)
            starts.append(source.count)
            source += Splices.int16(noise).prefix(Int((length * 44_100).rounded()))
        }
        return (source, starts)
    }

    private func terminal(_ fixture: EndToEndFixture, _ arguments: String = "") throws -> TmuxSession {
        let environment = fixture.narrate.environment.filter { ["NARRATE_HOME", "ALSA_CONFIG_PATH", "PATH"].contains($0.key) }
        return try TmuxSession("\(Narrate.executable.path) play --device pacedspk \(arguments)", environment: environment)
    }

    private func playedInt16(_ fixture: EndToEndFixture) throws -> [Int16] {
        Splices.int16([UInt8](try Data(contentsOf: fixture.devices.playedFile)))
    }

    @Test("the key legend and the volume and speed are on screen; - - plays the rest at half the amplitude (-6 dB)")
    func legendAndVolume() throws {
        let fixture = try EndToEndFixture()
        let (source, _) = try noiseChunks(fixture, title: "Volume", seconds: [1.5, 1.5])
        let terminal = try terminal(fixture)
        let screen = try terminal.screen(containing: "▶ chunk 1/2  00:00:01")
        #expect(screen.contains("Space pause  ←/→ 5 s  n/p chunk  12 Enter go to 12  +/- volume  [/] speed  q stop"))
        #expect(screen.contains("vol 0 dB  speed 1×"))
        try terminal.type("-")  // one at a time: tmux reads "--" as the end of its options
        try terminal.type("-")
        let lowered = try terminal.screen(containing: "vol -6 dB")
        #expect(lowered.contains("vol -6 dB  speed 1×"))
        let ended = try terminal.screen(containing: "EXIT=", within: 8)
        #expect(ended.contains("EXIT=0"))

        // The speaker: the source as it is, perhaps a stretch at -3 dB (the two keys a moment
        // apart), then -6 dB to the end, sample for sample.
        let played = try playedInt16(fixture)
        #expect(played.count == source.count)
        let gains = [Decibels(-3).amplitude, Decibels(-6).amplitude]
        func scaled(_ sample: Int16, _ gain: Double) -> Int16 { Int16((Double(sample) * gain).rounded()) }
        let head = zip(played, source).prefix { $0 == $1 }.count
        var minusSix = played.count  // where the stretch at -6 dB that runs to the end starts
        while minusSix > head, played[minusSix - 1] == scaled(source[minusSix - 1], gains[1]) { minusSix -= 1 }
        let between = (head..<minusSix).filter { played[$0] != scaled(source[$0], gains[0]) }
        #expect(between.isEmpty, "frames \(between.prefix(5))… are neither the source, nor at -3 dB, nor at -6 dB")
        #expect(head >= 44_100 && minusSix - head < 22_050 && played.count - minusSix > 22_050, "head \(head), -6 dB from \(minusSix)")
        print("figure: - - under tmux: unchanged for \(head) frames, -3 dB for \(minusSix - head), -6 dB (×\(gains[1])) for \(played.count - minusSix)")
    }

    @Test("] then [ on a terminal: the stretch between lasts the frames it covers ÷ 1.25, nothing skipped or repeated")
    func speedKeys() throws {
        let fixture = try EndToEndFixture()
        let (source, _) = try noiseChunks(fixture, title: "Speed", seconds: [2, 2])
        let terminal = try terminal(fixture)
        _ = try terminal.screen(containing: "▶ chunk 1/2  00:00:01")
        try terminal.type("]")
        let faster = try terminal.screen(containing: "speed 1.25×")
        #expect(faster.contains("speed 1.25×"))
        _ = try terminal.screen(containing: "00:00:02")
        try terminal.type("[")
        #expect(try terminal.screen(containing: "speed 1×").contains("speed 1×"))
        let ended = try terminal.screen(containing: "EXIT=", within: 8)
        #expect(ended.contains("EXIT=0"))

        let played = try playedInt16(fixture)
        let head = zip(played, source).prefix { $0 == $1 }.count
        let tail = zip(played.reversed(), source.reversed()).prefix { $0 == $1 }.count
        let covered = source.count - head - tail
        let stretched = played.count - head - tail
        #expect(head >= 44_100 && tail >= 44_100 && covered > 0, "head \(head), tail \(tail)")
        #expect(abs(Double(stretched) - Double(covered) / 1.25) <= 2, "\(covered) frames became \(stretched)")
        print("figure: ] [ under tmux: \(covered) frames at 1.25× became \(stretched) frames")
    }

    @Test("in an 11-chunk article, 1 then 0 goes to chunk 10, and the speaker gets chunk 1's start, then chunks 10 and 11")
    func jumpPastNine() throws {
        let fixture = try EndToEndFixture()
        let (source, starts) = try noiseChunks(fixture, title: "Eleven", seconds: [2] + Array(repeating: 0.4, count: 10))
        let terminal = try terminal(fixture)
        _ = try terminal.screen(containing: "▶ chunk 1/11  00:00:00")
        try terminal.type("1")
        let typed = try terminal.screen(containing: "go to chunk 1_")
        #expect(typed.contains("go to chunk 1_ (Enter; Esc cancels)"))
        try terminal.type("0")
        let jumped = try terminal.screen(containing: "chunk 10/11")
        #expect(jumped.contains("▶ chunk 10/11"))
        let ended = try terminal.screen(containing: "EXIT=", within: 8)
        #expect(ended.contains("EXIT=0"))
        #expect(ended.contains("Played chunks 1–11 of \"Eleven\" ("))

        let played = try playedInt16(fixture)
        let segments = try #require(Splices.segments(of: played, in: source))
        #expect(segments.count == 2, "\(segments)")
        guard segments.count == 2 else { return }
        #expect(segments[0].lowerBound == 0 && segments[0].upperBound < starts[1])
        #expect(segments[1] == starts[9]..<source.count)
        print("figure: 1 0 under tmux: splices \(segments)")
    }

    @Test("a chunk number the article does not have is refused on screen, and Esc cancels typed digits without stopping")
    func refusedNumber() throws {
        let fixture = try EndToEndFixture()
        _ = try noiseChunks(fixture, title: "Twelve", seconds: Array(repeating: 1, count: 12))
        let terminal = try terminal(fixture)
        _ = try terminal.screen(containing: "▶ chunk 1/12")
        try terminal.type("13")
        #expect(try terminal.screen(containing: "No chunk 13").contains("No chunk 13 here: chunks 1–12."))
        try terminal.send("Escape")
        _ = try terminal.screen(containing: "chunk 2/12")
        let screen = try terminal.screen()
        #expect(!screen.contains("EXIT=") && !screen.contains("go to chunk"))
        try terminal.type("q")
        #expect(try terminal.screen(containing: "EXIT=").contains("EXIT=0"))
    }

    @Test("Space four times through PulseAudio on a terminal: the sink plays every frame of the article once, in order")
    func pausesThroughPulseAudio() throws {
        let pulse = try PulseServer(rewinds: false)
        let fixture = try EndToEndFixture(environment: pulse.environment)
        let (source, _) = try noiseChunks(fixture, title: "Pauses", seconds: [1.5, 1.5])
        let recorder = try MonitorRecorder(pulse)
        let environment = fixture.narrate.environment.filter {
            ["NARRATE_HOME", "ALSA_CONFIG_PATH", "PATH", "PULSE_SERVER", "PULSE_SINK"].contains($0.key)
        }
        let terminal = try TmuxSession("\(Narrate.executable.path) play", environment: environment)
        _ = try terminal.screen(containing: "▶ chunk 1/2  00:00:00", within: 10)
        for pause in 0..<4 {
            usleep(400_000)
            try terminal.send("Space")
            #expect(try terminal.screen(containing: "⏸").contains("⏸"), "pause \(pause + 1)")
            usleep(300_000)
            try terminal.send("Space")
            #expect(try terminal.screen(containing: "▶").contains("▶"), "resume \(pause + 1)")
        }
        let ended = try terminal.screen(containing: "EXIT=", within: 10)
        #expect(ended.contains("EXIT=0"))
        let heard = MonitorRecorder.withoutSilence(try recorder.finish())
        #expect(heard.count == source.count)
        #expect(heard == source)
        print("figure: 4 pauses by Space via PulseAudio (parec, norewinds=1): \(heard.count) frames received of \(source.count)")
    }
}
