import Foundation
import NarrationTestSupport
import Testing

/// Files to import that lie about themselves: absurd rates, lengths their bytes do not hold,
/// junk dressed as MP3, files cut short. Each is refused in one sentence (and nothing but it on
/// stderr), nothing is added; extreme but real rates import with the right length, in bounded memory.
@Suite("Importing files that lie: rates, lengths, junk, cut files")
struct ImportBoundsTests {
    /// A data root with one article of `rate` Hz mono 16-bit, and a folder for the files.
    private struct Library {
        let folder = TemporaryFolder("narrate-import-bounds")
        let narrate: Narrate

        init(rate: Int = 44_100) throws {
            narrate = Narrate(home: folder.file("home"))
            let created = try narrate.run("new", "Imports", "--rate", "\(rate)")
            guard created.status == 0 else { throw FixtureError("narrate new failed: \(created.stderr)") }
        }

        func file(_ name: String, _ data: Data) throws -> URL {
            let url = folder.file(name)
            try data.write(to: url)
            return url
        }

        func chunkFrames() throws -> [Int] {
            let result = try narrate.run("chunks", "--json")
            guard result.status == 0, let chunks = try result.json() as? [[String: Any]] else { throw FixtureError(result.stderr) }
            return chunks.compactMap { $0["frames"] as? Int }
        }

        /// `narrate import FILE` run through GNU time: its result and the child's peak resident
        /// memory (VmHWM) in KiB.
        func importMeasured(_ file: URL) throws -> (status: Int32, stderr: String, peakKiB: Int) {
            let report = folder.file("time-\(file.lastPathComponent)"), errors = folder.file("stderr-\(file.lastPathComponent)")
            let child = try ChildProcess(
                "/usr/bin/time", ["-f", "%M", "-o", report.path, Narrate.executable.path, "import", file.path],
                environment: narrate.environment, stdoutFile: nil, stderrFile: errors)
            let status = child.wait()
            let peak = Int(try String(contentsOf: report, encoding: .utf8).split(separator: "\n").last ?? "") ?? -1
            return (status, try String(contentsOf: errors, encoding: .utf8), peak)
        }
    }

    /// A 16-bit WAV whose header says `rate`, `channels` and `claimedFrames` (default: the
    /// frames it holds), holding `frames` frames of a quiet square wave.
    static func wave(rate: UInt32, channels: UInt16 = 1, frames: Int, claimedFrames: Int? = nil) -> Data {
        func le32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
        func le16(_ value: UInt16) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
        let samples = (0..<(frames * Int(channels))).flatMap { index -> [UInt8] in (index / 8) % 2 == 0 ? [0x00, 0x10] : [0x00, 0xF0] }
        let claimed = UInt32(truncatingIfNeeded: (claimedFrames ?? frames) * Int(channels) * 2)
        var bytes = Array("RIFF".utf8) + le32(UInt32(36 + samples.count)) + Array("WAVEfmt ".utf8) + le32(16)
        bytes += le16(1) + le16(channels) + le32(rate) + le32(rate &* UInt32(channels) &* 2) + le16(channels * 2) + le16(16)
        bytes += Array("data".utf8) + le32(claimed) + samples
        return Data(bytes)
    }

    @Test("a header claiming 1 Hz, 0 Hz or 4,000,000 Hz is refused in one sentence; nothing is added", arguments: [
        (UInt32(1), "claims a sample rate of 1 Hz, which no recording has; narrate imports 4000 to 384000 Hz: the file is damaged, or convert it first."),
        (4_000_000, "claims a sample rate of 4000000 Hz, which no recording has; narrate imports 4000 to 384000 Hz: the file is damaged, or convert it first."),
        (0, "is not audio narrate can read (Internal error : SF_INFO struct incomplete); give a WAV, FLAC, Ogg Vorbis or Opus, MP3 or AIFF file."),
    ])
    func absurdRate(rate: UInt32, sentence: String) throws {
        let library = try Library()
        let file = try library.file("rate-\(rate).wav", Self.wave(rate: rate, frames: 16_000))  // 32 KB, as the attack's
        let result = try library.importMeasured(file)
        #expect(result.status == 1)
        #expect(result.stderr == "Nothing was imported: \(file.path) \(sentence)\n")
        #expect(try library.chunkFrames().isEmpty)
        #expect(result.peakKiB < 200_000, "peak \(result.peakKiB) KiB")
    }

    @Test("extreme real rates import with the right frame count in bounded memory", arguments: [
        (8_000, 48_000, 8_000 * 30), (192_000, 16_000, 192_000 * 5),
    ])
    func extremeRatios(source: Int, article: Int, frames: Int) throws {
        let library = try Library(rate: article)
        let file = try library.file("\(source).wav", Self.wave(rate: UInt32(source), frames: frames))
        let result = try library.importMeasured(file)
        #expect(result.status == 0, "\(result.stderr)")
        let expected = Double(frames) * Double(article) / Double(source)
        let imported = try #require(try library.chunkFrames().first)
        #expect(abs(Double(imported) - expected) <= 1, "\(imported) frames, expected \(expected)")
        // The article's whole chunk at 48 kHz is 5.5 MB of samples: the import keeps blocks, not the chunk.
        #expect(result.peakKiB < 120_000, "peak \(result.peakKiB) KiB")
        print("figure: import \(source) Hz into \(article) Hz, \(frames) frames: peak resident \(result.peakKiB) KiB")
    }

    @Test("a WAV or AIFF cut short is refused naming both lengths", arguments: ["wav", "aiff"])
    func cutPCM(kind: String) throws {
        let library = try Library()
        let whole = library.folder.file("whole.\(kind)")
        _ = try Signals.run("sox", ["-n", "-r", "44100", "-c", "1", "-b", "16", whole.path, "synth", "2", "sine", "440", "vol", "0.5"])
        let cut = try library.file("cut.\(kind)", try Data(contentsOf: whole).prefix(50_000))
        let result = try library.narrate.run("import", cut.path)
        #expect(result.status == 1)
        let held = kind == "wav" ? "00:00:00.566 (24978 frames)" : "00:00:00.566 (24956 frames)"
        #expect(result.stderr == "Nothing was imported: \(cut.path) is cut short: its header claims 00:00:02.000 (88200 frames) but the file holds \(held); copy or export it again.\n")
        #expect(try library.chunkFrames().isEmpty)
        #expect(try library.narrate.run("import", whole.path).status == 0)
        #expect(try library.chunkFrames() == [88_200])
    }

    @Test("junk that starts like an MP3 is not audio, in one line and no line of libmpg123's; an MP3 cut short says so")
    func mp3() throws {
        let library = try Library()
        let wav = library.folder.file("tone.wav"), mp3 = library.folder.file("tone.mp3")
        _ = try Signals.run("sox", ["-n", "-r", "44100", "-c", "1", "-b", "16", wav.path, "synth", "20", "sine", "440", "vol", "0.5"])
        _ = try Signals.run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-i", wav.path, "-c:a", "libmp3lame", "-b:a", "64k", mp3.path])
        let whole = try Data(contentsOf: mp3)
        var generator = SeededGenerator(seed: 31)
        let noise = Data((0..<200_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let firstFrame = Data([0xFF, 0xFB, 0x90, 0x64])  // a real frame header (128 kbit/s, 44.1 kHz), then junk
        let cases: [(String, Data, String)] = [
            ("junk.mp3", firstFrame + noise, "is not an audio file narrate can read: it starts as MP3 audio but byte 417 of 200004 is not"),
            ("bad-tag.mp3", Data("ID3".utf8) + noise, "is not an audio file narrate can read: it starts as MP3 audio but byte 0 of 200003 is not"),
            ("tagged-junk.mp3", Data("ID3".utf8) + Data([3, 0, 0, 0, 0, 0, 0]) + noise, "is not an audio file narrate can read: it starts as MP3 audio but byte 10 of 200010 is not"),
            ("cut.mp3", whole.prefix(whole.count / 2 + 7), "is an MP3 cut short: its last frame, at byte "),
        ]
        for (name, data, sentence) in cases {
            let file = try library.file(name, data)
            let result = try library.narrate.run("import", file.path)
            #expect(result.status == 1, "\(name)")
            #expect(result.stderr.hasPrefix("Nothing was imported: \(file.path) \(sentence)"), "\(name): \(result.stderr)")
            #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(name): one line, none of libmpg123's: \(result.stderr)")
        }
        #expect(try library.chunkFrames().isEmpty)
        let imported = try library.narrate.run("import", mp3.path)
        #expect(imported.status == 0)
        #expect(imported.stderr.isEmpty, "a whole MP3 decodes without a word on stderr: \(imported.stderr)")
        #expect(try library.chunkFrames().count == 1)
    }
}
