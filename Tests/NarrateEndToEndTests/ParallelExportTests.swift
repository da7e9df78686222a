import Foundation
import NarrationAudio
import NarrationCore
import NarrationTestSupport
import Testing

/// A long MP3 export is encoded on every core the process may use; on one core (`taskset -c 0`)
/// it is one stream. Both decode to the same samples, mastered or not.
@Suite("MP3 export on several cores", .enabled(if: ProcessInfo.processInfo.activeProcessorCount >= 2, "needs two cores"))
struct ParallelExportTests {
    /// An article of two imported chunks of 80 s of speech (with pauses) and noise bursts: long
    /// enough for two segments.
    private func article() throws -> (folder: TemporaryFolder, narrate: Narrate) {
        let folder = TemporaryFolder("narrate-parallel")
        let narrate = Narrate(home: folder.file("home"))
        #expect(try narrate.run("new", "A long read", "--publication", "Daily Post").status == 0)
        var files: [String] = []
        for (index, seed) in [3, 4].enumerated() {
            let speech = Signals.samples(try Signals.speech(.speech, seconds: 80), bitsPerSample: 16)
            let noise = Signals.samples(Signals.noise(seconds: 80, seed: UInt64(seed)), bitsPerSample: 16)
            var bytes: [UInt8] = []
            for frame in 0..<AudioFormat.speech.frames(forSeconds: 80) {
                let burst = frame % 300_000 < 8_000 ? Int64(noise[frame]) * 2 : 0
                let value = Int16(clamping: (Int64(speech[frame]) + burst) >> 16)
                bytes += [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
            }
            let raw = folder.file("chunk\(index).raw"), wav = folder.file("chunk\(index).wav")
            try Data(bytes).write(to: raw)
            try Signals.run("sox", ["-t", "raw", "-r", "44100", "-c", "1", "-b", "16", "-e", "signed-integer", "-L", raw.path, wav.path])
            files.append(wav.path)
        }
        let imported = try narrate.run(["import"] + files)
        #expect(imported.status == 0, "\(imported.stderr)")
        return (folder, narrate)
    }

    /// An article of two chunks of 80 s: the LibriVox reading over and over, in a fan-noisy room
    /// (noise floor −44 dBFS), which the acx profile cleans.
    private func noisyArticle() throws -> (folder: TemporaryFolder, narrate: Narrate) {
        let folder = TemporaryFolder("narrate-parallel-noisy")
        let narrate = Narrate(home: folder.file("home"))
        #expect(try narrate.run("new", "A long noisy read").status == 0)
        let once = try NoisyRoom.reading().flatMap { $0 }
        let frames = AudioFormat.speech.frames(forSeconds: 80)
        var reading: [Double] = []
        while reading.count < 2 * frames { reading += once }
        let chunks = NoisyRoom.inRoom([Array(reading[0..<frames]), Array(reading[frames..<(2 * frames)])], seed: 80)
        var files: [String] = []
        for (index, chunk) in chunks.enumerated() {
            let file = folder.file("noisy\(index).wav")
            let writer = try SoundFileWriter(creating: file.path, format: .speech)
            try NoisyRoom.int32(chunk).withUnsafeBufferPointer { (buffer) throws(NarrationError) in try writer.write(buffer) }
            try writer.close()
            files.append(file.path)
        }
        let imported = try narrate.run(["import"] + files)
        #expect(imported.status == 0, "\(imported.stderr)")
        return (folder, narrate)
    }

    @Test("an acx export with noise reduction made by two encoders decodes to the samples of the one-stream export")
    func sameSamplesWithNoiseReduction() throws {
        let (folder, narrate) = try noisyArticle()
        let parallel = folder.file("two.mp3"), single = folder.file("one.mp3")
        let result = try narrate.run("export", "--json", "-o", parallel.path, "--profile", "acx")
        #expect(result.status == 0, "\(result.stderr)")
        let two = try #require(try result.json() as? [String: Any])
        let one = try exportOnOneCore(narrate, ["-o", single.path, "--profile", "acx"], in: folder)
        #expect(two["encoders"] as? Int == 2)
        #expect(one["encoders"] as? Int == 1)
        let reduction = try #require(two["noiseReductionDB"] as? Double)
        #expect(one["noiseReductionDB"] as? Double == reduction)
        let expected = try SoundFileReader(path: single.path).readAll()
        let stitched = try SoundFileReader(path: parallel.path).readAll()
        #expect(stitched.count == one["frames"] as? Int)
        let firstDifference = zip(expected, stitched).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(firstDifference == nil, "decoded samples differ from frame \(firstDifference ?? 0) on")
        let check = try narrate.run("check", parallel.path, "--profile", "acx")
        #expect(check.status == 0, "\(check.stdout)")
        print("figure: acx on two encoders, 160 s in a −44 dBFS room: noise reduced by \(Int(reduction)) dB, decoded samples identical to the one-stream export")
    }

    /// Runs `narrate export … --json` on one core, through taskset.
    private func exportOnOneCore(_ narrate: Narrate, _ arguments: [String], in folder: TemporaryFolder) throws -> [String: Any] {
        let stdout = folder.file("one-core.json")
        let child = try ChildProcess(
            "taskset", ["-c", "0", Narrate.executable.path, "export", "--json"] + arguments, environment: narrate.environment,
            stdoutFile: stdout, stderrFile: folder.file("one-core.err"))
        #expect(child.wait() == 0, "\((try? String(contentsOf: folder.file("one-core.err"), encoding: .utf8)) ?? "")")
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: stdout)) as? [String: Any])
    }

    @Test(
        "plain and podcast-mastered MP3 exports made by two encoders decode to the samples of the one-stream export",
        arguments: [["--format", "mp3", "--bitrate", "64"], ["--profile", "podcast"]])
    func sameSamplesOnTwoCores(options: [String]) throws {
        let (folder, narrate) = try article()
        let parallel = folder.file("two.mp3"), single = folder.file("one.mp3")
        let result = try narrate.run(["export", "--json", "-o", parallel.path] + options)
        #expect(result.status == 0, "\(result.stderr)")
        let two = try #require(try result.json() as? [String: Any])
        let one = try exportOnOneCore(narrate, ["-o", single.path] + options, in: folder)
        #expect(two["encoders"] as? Int == 2)
        #expect(one["encoders"] as? Int == 1)
        #expect(two["frames"] as? Int == one["frames"] as? Int)

        let expected = try SoundFileReader(path: single.path).readAll()
        let stitched = try SoundFileReader(path: parallel.path).readAll()
        #expect(stitched.count == one["frames"] as? Int, "the file decodes to exactly the frames exported")
        let firstDifference = zip(expected, stitched).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(firstDifference == nil, "decoded samples differ from frame \(firstDifference ?? 0) on")
        // The chapters are those of the one-stream file, at the same times.
        let chapters = { (url: URL) throws -> String in
            try Signals.run("ffprobe", ["-v", "error", "-show_chapters", "-of", "csv", url.path])
        }
        #expect(try chapters(parallel) == chapters(single))
    }
}
