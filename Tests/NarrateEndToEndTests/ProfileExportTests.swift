import Foundation
import NarrationAudio
import NarrationCore
import NarrationTestSupport
import Testing

@Suite("narrate export --profile: right first time")
struct ProfileExportTests {
    /// Writes `samples` (−1…1, mono) as a 16-bit WAV at `rate`.
    private func wav(_ samples: [Double], rate: Int = 44_100, to url: URL) throws {
        let writer = try SoundFileWriter(creating: url.path, format: AudioFormat(sampleRate: rate, channels: 1, bitsPerSample: 16))
        let ints = samples.map { Int32(max(-32_768, min(32_767, ($0 * 32_767).rounded()))) << 16 }
        try ints.withUnsafeBufferPointer { (buffer) throws(NarrationError) in try writer.write(buffer) }
        try writer.close()
    }

    /// ffmpeg's `ebur128=peak=true` true peak of a file, in dBTP.
    private func ffmpegTruePeak(_ file: URL) throws -> Double {
        let output = try Signals.run("sh", ["-c", "ffmpeg -hide_banner -nostats -i '\(file.path)' -af ebur128=peak=true -f null - 2>&1"])
        let range = try #require(output.range(of: "Peak:", options: .backwards))
        return try #require(Double(output[range.upperBound...].split(whereSeparator: { $0 == " " || $0 == "\n" }).first ?? ""))
    }

    /// A quiet 300 Hz voice with a sharp burst every half second: 5 ms of a sine at a quarter of
    /// the rate, 45° off its samples, whose waveform peaks 3 dB above them.
    private func transients(seconds: Double) -> [Double] {
        (0..<Int(seconds * 44_100)).map { index in
            let voice = 0.05 * sin(2 * Double.pi * 300 * Double(index) / 44_100)
            let inBurst = index % 22_050 >= 11_025 && index % 22_050 < 11_025 + 220
            return voice + (inBurst ? 0.6 * sin(Double.pi / 2 * Double(index) + Double.pi / 4) : 0)
        }
    }

    @Test("podcast: sharp transients come out at or below −1 dBTP as ffmpeg measures them, and check agrees")
    func podcastTruePeak() throws {
        let fixture = try EndToEndFixture()
        _ = try fixture.newArticle("Transients")
        let source = fixture.folder.file("transients.wav")
        try wav(transients(seconds: 8), to: source)
        #expect(try fixture.narrate.run("import", source.path).status == 0)
        let output = fixture.folder.file("podcast.mp3")
        let result = try fixture.narrate.run("export", "-o", output.path, "--profile", "podcast")
        #expect(result.status == 0, "\(result.stderr)")
        let peak = try ffmpegTruePeak(output)
        #expect(peak <= -1, "ffmpeg: \(peak) dBTP")
        let check = try fixture.narrate.run("check", output.path, "--profile", "podcast", "--json")
        let json = try #require(try check.json() as? [String: Any])
        #expect(check.status == 0, "\(check.stdout)")
        print("figure: podcast transients: true peak \(json["truePeakDB"] as? Double ?? .nan) dBTP (narrate), \(peak) dBTP (ffmpeg), loudness \(json["integratedLoudness"] as? Double ?? .nan) LUFS")
    }

    @Test("librivox: a 16 kHz article becomes a 44.1 kHz file as long as the article, to the frame, with its chapters and sidecar times")
    func librivoxConverts() throws {
        let fixture = try EndToEndFixture()
        _ = try fixture.newArticle("Narrow band", "--rate", "16000")
        let first = fixture.folder.file("narrow-1.wav")
        let second = fixture.folder.file("narrow-2.wav")
        try wav((0..<24_000).map { 0.3 * sin(2 * Double.pi * 440 * Double($0) / 16_000) }, rate: 16_000, to: first)
        try wav((0..<24_000).map { 0.2 * sin(2 * Double.pi * 660 * Double($0) / 16_000) }, rate: 16_000, to: second)
        #expect(try fixture.narrate.run("import", first.path, second.path).status == 0)
        let output = fixture.folder.file("librivox.mp3")
        let result = try fixture.narrate.run("export", "-o", output.path, "--profile", "librivox", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let frames = try #require(try result.json() as? [String: Any])["frames"] as? Int
        #expect(frames == 48_000)
        let reader = try SoundFileReader(path: output.path)
        #expect(reader.format.sampleRate == 44_100)
        #expect(abs(Double(reader.frames) / 44_100 - 3) <= 1.0 / 44_100, "\(reader.frames) frames")
        reader.close()
        // The chapters' times are the article's: chunk 2 starts at 1.5 s.
        #expect(try MediaProbe.chapters(output).map(\.startMilliseconds) == [0, 1_500])
        let check = try fixture.narrate.run("check", output.path, "--profile", "librivox")
        #expect(check.status == 0, "\(check.stdout)")

        // Queued, the sidecar's times are seconds of the article too.
        let queued = try fixture.narrate.run("queue", "--profile", "librivox")
        #expect(queued.status == 0, "\(queued.stderr)")
        let outbox = fixture.narrate.home.appendingPathComponent("outbox")
        let job = try #require(try FileManager.default.contentsOfDirectory(atPath: outbox.path).first)
        let folder = outbox.appendingPathComponent(job)
        let sidecarName = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasSuffix(".json") })
        let sidecar = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent(sidecarName))) as? [String: Any])
        #expect(sidecar["duration"] as? Double == 3)
        let starts = (sidecar["chunks"] as? [[String: Any]])?.compactMap { $0["start"] as? Double }
        #expect(starts == [0, 1.5])
        let audio = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasSuffix(".mp3") })
        #expect(try SoundFileReader(path: folder.appendingPathComponent(audio).path).format.sampleRate == 44_100)
    }

    @Test("acx in a quiet room: the export passes, and check finds at its head and tail the room tone the profile adds, within a 100 ms window")
    func acxRoomTone() throws {
        let fixture = try EndToEndFixture()
        _ = try fixture.newArticle("Quiet room")
        // A voice (220 Hz, syllable-like bursts) with 1.2 s pauses over a room at about −75 dBFS.
        var generator = SeededGenerator(default: 1_770)
        let samples = (0..<(8 * 44_100)).map { index -> Double in
            let second = Double(index) / 44_100
            let speaking = second.truncatingRemainder(dividingBy: 2.4) >= 1.2
            let syllable = 0.5 + 0.5 * sin(2 * Double.pi * 4 * second)
            let voice = speaking ? 0.25 * syllable * sin(2 * Double.pi * 220 * second) : 0
            return voice + Double.random(in: -0.0003...0.0003, using: &generator)
        }
        let source = fixture.folder.file("quiet.wav")
        try wav(samples, to: source)
        #expect(try fixture.narrate.run("import", source.path).status == 0)
        let output = fixture.folder.file("acx.mp3")
        let result = try fixture.narrate.run("export", "-o", output.path, "--profile", "acx")
        #expect(result.status == 0, "\(result.stderr)")
        let check = try fixture.narrate.run("check", output.path, "--profile", "acx", "--json")
        #expect(check.status == 0, "\(check.stdout)")
        let json = try #require(try check.json() as? [String: Any])
        let head = try #require(json["headSilence"] as? Double)
        let tail = try #require(json["tailSilence"] as? Double)
        #expect(abs(head - 0.75) <= 0.1 + 1e-9, "head \(head) s")
        #expect(abs(tail - 2) <= 0.1 + 1e-9, "tail \(tail) s")
        print("figure: acx in a quiet room: room tone \(head) s at the head (0.75 added), \(tail) s at the tail (2 added), noise floor \(json["noiseFloorDB"] as? Double ?? .nan) dB")
    }

    @Test("config.toml's no_clipping and max_silence: a clipped or long-silent recording fails, a clean one passes")
    func clippingAndSilenceRules() throws {
        let fixture = try EndToEndFixture()
        let config = fixture.folder.file("config/narrate")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try """
            [profiles.strict]
            base = "archive"
            no_clipping = true
            max_silence = 2
            """.write(to: config.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        var environment = fixture.devices.environment
        environment["XDG_CONFIG_HOME"] = fixture.folder.file("config").path
        let narrate = Narrate(home: fixture.narrate.home, environment: environment)
        func tone(_ seconds: Double, amplitude: Double = 0.3) -> [Double] {
            (0..<Int(seconds * 44_100)).map { amplitude * sin(2 * Double.pi * 440 * Double($0) / 44_100) }
        }
        func silence(_ seconds: Double) -> [Double] { Array(repeating: 0, count: Int(seconds * 44_100)) }
        let cases: [(String, [Double], String?)] = [
            ("clean", tone(1) + silence(1.5) + tone(1), nil),
            ("clipped", tone(1) + tone(0.5, amplitude: 1.5) + tone(1), "The strict profile allows no clipping; this recording clips in 1 stretch, the first at 00:00:01.000"),
            ("pause", tone(1) + silence(3) + tone(1), "The strict profile allows no silence longer than 2.0 s; this file has 3.0 s of silence at 00:00:01.000"),
        ]
        for (name, samples, failure) in cases {
            #expect(try narrate.run("new", name).status == 0)
            let source = fixture.folder.file("\(name).wav")
            try wav(samples, to: source)
            #expect(try narrate.run("import", source.path).status == 0)
            let output = fixture.folder.file("\(name)-out.flac")
            let result = try narrate.run("export", "-o", output.path, "--profile", "strict")
            if let failure {
                #expect(result.status == 1, "\(name)")
                #expect(result.stderr.hasPrefix(failure), "\(result.stderr)")
                #expect(!FileManager.default.fileExists(atPath: output.path))
            } else {
                #expect(result.status == 0, "\(result.stderr)")
                #expect(try narrate.run("check", output.path, "--profile", "strict").status == 0)
            }
        }
    }
}
