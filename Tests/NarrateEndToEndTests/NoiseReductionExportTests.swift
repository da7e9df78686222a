import Foundation
import NarrationAudio
import NarrationCore
import NarrationTestSupport
import Testing

/// `narrate export --profile acx` of real speech recorded in a noisy room: the room's noise is
/// reduced from its own pauses, and the file passes `check --profile acx`, as narrate and ffmpeg
/// measure it.
@Suite("narrate export --profile acx: noise reduction")
struct NoiseReductionExportTests {
    /// Writes `samples` (−1…1, mono) as a 16-bit WAV at 44.1 kHz.
    private func wav(_ samples: [Double], to url: URL) throws {
        let writer = try SoundFileWriter(creating: url.path, format: .speech)
        let ints = NoisyRoom.int32(samples)
        try ints.withUnsafeBufferPointer { (buffer) throws(NarrationError) in try writer.write(buffer) }
        try writer.close()
    }

    private func json(_ result: Narrate.Result) throws -> [String: Any] { try #require(try result.json() as? [String: Any]) }

    private func decibels(_ value: Double) -> String { String(format: "%.1f", value) }

    @Test("a noisy real recording (floor −44 dBFS) is cleaned: the export passes, check --profile acx passes with its room tone, the floor ≤ −60 dB by narrate and ffmpeg")
    func noisyRoomPasses() throws {
        let fixture = try EndToEndFixture()
        _ = try fixture.newArticle("A noisy room")
        let chunks = try NoisyRoom.article()
        var files: [String] = []
        for (index, chunk) in chunks.enumerated() {
            let file = fixture.folder.file("chunk-\(index + 1).wav")
            try wav(chunk, to: file)
            files.append(file.path)
        }
        let whole = fixture.folder.file("recording.wav")
        try wav(chunks.flatMap { $0 }, to: whole)
        #expect(try fixture.narrate.run(["import"] + files).status == 0)

        let output = fixture.folder.file("acx.mp3")
        let export = try fixture.narrate.run("export", "-o", output.path, "--profile", "acx", "--json")
        #expect(export.status == 0, "\(export.stderr)")
        let exported = try json(export)
        let reduction = try #require(exported["noiseReductionDB"] as? Double)
        let recordingFloor = try #require(exported["recordingNoiseFloorDB"] as? Double)
        #expect((12...30).contains(reduction))

        let before = try json(try fixture.narrate.run("check", whole.path, "--json"))
        let check = try fixture.narrate.run("check", output.path, "--profile", "acx", "--json")
        #expect(check.status == 0, "\(check.stdout)")
        let after = try json(check)
        let floorBefore = try #require(before["noiseFloorDB"] as? Double), floorAfter = try #require(after["noiseFloorDB"] as? Double)
        let rmsBefore = try #require(before["rmsDB"] as? Double), rmsAfter = try #require(after["rmsDB"] as? Double)
        #expect(floorBefore > -46 && floorBefore < -42, "the recording's floor: \(floorBefore) dB")
        #expect(abs(recordingFloor - floorBefore) < 1)
        #expect(floorAfter <= -60)
        let head = try #require(after["headSilence"] as? Double), tail = try #require(after["tailSilence"] as? Double)
        #expect((0.5...1).contains(head) && (1...5).contains(tail), "room tone \(head) s at the head, \(tail) s at the tail")

        let ffmpegBefore = try FFmpegLevels(whole), ffmpegAfter = try FFmpegLevels(output)
        #expect(ffmpegAfter.noiseFloor <= -60, "ffmpeg: floor \(ffmpegAfter.noiseFloor) dB")
        #expect(ffmpegBefore.noiseFloor > -46)
        #expect(ffmpegAfter.rms >= -23 && ffmpegAfter.rms <= -18, "ffmpeg: RMS \(ffmpegAfter.rms) dB")
        print(
            "figure: acx on LibriVox speech in a fan-noisy room: noise reduced by \(Int(reduction)) dB; noise floor \(decibels(floorBefore)) → \(decibels(floorAfter)) dB (narrate), \(decibels(ffmpegBefore.noiseFloor)) → \(decibels(ffmpegAfter.noiseFloor)) dB (ffmpeg astats, quietest 0.5 s block); RMS \(decibels(rmsBefore)) → \(decibels(rmsAfter)) dB (narrate), \(decibels(ffmpegBefore.rms)) → \(decibels(ffmpegAfter.rms)) dB (ffmpeg); loudness \(decibels(ffmpegBefore.loudness)) → \(decibels(ffmpegAfter.loudness)) LUFS (ffmpeg ebur128); room tone \(decibels(head)) s at the head, \(decibels(tail)) s at the tail"
        )

        // In words: the export says what it did.
        let wavOutput = fixture.folder.file("acx.wav")
        let spoken = try fixture.narrate.run("export", "-o", wavOutput.path, "--profile", "acx")
        #expect(spoken.status == 0, "\(spoken.stderr)")
        #expect(spoken.stdout.contains("The room's noise was reduced by \(Int(reduction)) dB before mastering: its noise floor was \(decibels(recordingFloor)) dB."), "\(spoken.stdout)")
    }

    @Test("the reading in a room too noisy to clean (floor −26 dBFS): 30 dB is not enough, and export and queue fail saying so, leaving nothing")
    func tooNoisy() throws {
        let fixture = try EndToEndFixture()
        _ = try fixture.newArticle("A very noisy room")
        let source = fixture.folder.file("noisy.wav")
        try wav(try NoisyRoom.article(floor: -26).flatMap { $0 }, to: source)
        #expect(try fixture.narrate.run("import", source.path).status == 0)
        let recordings = try fixture.recordings()
        let output = fixture.folder.file("acx.mp3")
        let result = try fixture.narrate.run("export", "-o", output.path, "--profile", "acx")
        #expect(result.status == 1)
        let pattern = #/The acx profile needs a noise floor at or below -60\.0 dB; this file's is -\d+\.\d dB even after narrate reduced the room's noise by 30 dB: the room is too noisy to clean: it would need \d+ dB, and more than 30 dB of noise reduction would harm the voice, so record again in a quieter place or closer to the microphone\./#
        #expect(result.stderr.contains(pattern), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
        let queued = try fixture.narrate.run("queue", "--profile", "acx")
        #expect(queued.status == 1)
        #expect(queued.stderr.contains("the room is too noisy to clean"), "\(queued.stderr)")
        let outbox = fixture.narrate.home.appendingPathComponent("outbox")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: outbox.path)) ?? []).isEmpty)
        let jobs = try fixture.narrate.run("outbox", "list", "--all", "--json")
        #expect((try jobs.json() as? [Any])?.isEmpty == true, "\(jobs.stdout)")
        #expect(try fixture.recordings() == recordings)
    }

    @Test("a clean recording gets no noise reduction: --json says null, and its floor rises with the gain alone")
    func cleanRoomUntouched() throws {
        let fixture = try EndToEndFixture()
        _ = try fixture.newArticle("A quiet room")
        let chunks = try NoisyRoom.article(floor: -80)
        let source = fixture.folder.file("quiet.wav")
        try wav(chunks.flatMap { $0 }, to: source)
        #expect(try fixture.narrate.run("import", source.path).status == 0)
        let output = fixture.folder.file("acx.mp3")
        let export = try fixture.narrate.run("export", "-o", output.path, "--profile", "acx", "--json")
        #expect(export.status == 0, "\(export.stderr)")
        let exported = try json(export)
        #expect(exported["noiseReductionDB"] is NSNull)
        let before = try json(try fixture.narrate.run("check", source.path, "--json"))
        let after = try json(try fixture.narrate.run("check", output.path, "--profile", "acx", "--json"))
        let gain = try #require(after["rmsDB"] as? Double) - #require(before["rmsDB"] as? Double)
        let rise = try #require(after["noiseFloorDB"] as? Double) - #require(before["noiseFloorDB"] as? Double)
        // A gate would have taken at least 12 dB off; the floor moves with the gain (±2 dB: the
        // pauses trimmed and the room tone added change the RMS a little).
        #expect(abs(rise - gain) <= 2, "floor rose \(rise) dB with a gain of \(gain) dB")
        let plain = try fixture.narrate.run("export", "-o", fixture.folder.file("acx.wav").path, "--profile", "acx")
        #expect(!plain.stdout.contains("noise was reduced"), "\(plain.stdout)")
    }
}
