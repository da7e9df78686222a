import Foundation
import Glibc
import NarrationAudio
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
}
