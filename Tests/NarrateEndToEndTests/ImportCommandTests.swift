import Foundation
import Glibc
import NarrationAudio
import NarrationCore
import NarrationTestSupport
import Testing

/// `narrate import`: audio files of other formats become chunks in the article's format, all or none.
@Suite("Importing audio files")
struct ImportCommandTests {
    /// A data root with one article (44.1 kHz mono 16-bit) and a folder of source files.
    private struct Library {
        let folder = TemporaryFolder("narrate-import")
        let narrate: Narrate
        let article: String

        init(_ title: String = "Imports") throws {
            narrate = Narrate(home: folder.file("home"))
            let created = try narrate.run("new", title, "--json")
            guard created.status == 0, let object = try created.json() as? [String: Any], let id = object["id"] as? String else {
                throw FixtureError("narrate new failed: \(created.stderr)")
            }
            article = id
        }

        func file(_ name: String) -> URL { folder.file(name) }

        func chunks() throws -> [[String: Any]] {
            let result = try narrate.run("chunks", "--json", "--article", article)
            guard result.status == 0, let chunks = try result.json() as? [[String: Any]] else {
                throw FixtureError("narrate chunks failed: \(result.stderr)")
            }
            return chunks
        }

        /// Everything in the article's chunks folder, hidden temporary files included.
        func chunkFolder() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: narrate.home.appendingPathComponent("articles/\(article)/chunks").path).sorted()
        }

        /// A 2 s 1 kHz tone at −6 dBFS, 44.1 kHz mono, as WAV and as an MP3 (LAME through ffmpeg, with
        /// its info tag, as LAME writes by default).
        func toneMP3() throws -> (wav: URL, mp3: URL) {
            let wav = file("tone.wav"), mp3 = file("tone.mp3")
            _ = try Signals.run("sox", ["-n", "-r", "44100", "-c", "1", "-b", "16", wav.path, "synth", "2", "sine", "1000", "vol", "0.5"])
            _ = try Signals.run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-i", wav.path, "-c:a", "libmp3lame", "-b:a", "128k", mp3.path])
            return (wav, mp3)
        }

        /// 1.5 s of 48 kHz stereo 16-bit: 500 Hz on the left, 1500 Hz on the right, each at −6 dBFS.
        func stereoWAV() throws -> URL {
            let wav = file("stereo48.wav")
            _ = try Signals.run("sox", ["-n", "-r", "48000", "-c", "2", "-b", "16", wav.path, "synth", "1.5", "sine", "500", "sine", "1500", "vol", "0.5"])
            return wav
        }

        /// 1.25 s of an 800 Hz tone at −6 dBFS, 22.05 kHz mono, Ogg Vorbis (sox).
        func vorbis() throws -> URL {
            let ogg = file("tone.ogg")
            _ = try Signals.run("sox", ["-n", "-r", "22050", "-c", "1", ogg.path, "synth", "1.25", "sine", "800", "vol", "0.5"])
            return ogg
        }
    }

    /// The samples of a chunk file, as full-scale fractions, checked to be in the article's format.
    private func chunkSamples(_ chunk: [String: Any], sourceLocation: SourceLocation = #_sourceLocation) throws -> [Double] {
        let reader = try SoundFileReader(path: try #require(chunk["file"] as? String))
        #expect(reader.format == .speech, "each chunk file is the article's 44.1 kHz mono 16-bit", sourceLocation: sourceLocation)
        #expect(reader.encoding.description == "WAV 16-bit", sourceLocation: sourceLocation)
        #expect(reader.frames == chunk["frames"] as? Int, sourceLocation: sourceLocation)
        return try reader.readAll().map { Double($0) / 2_147_483_648 }
    }

    /// The level in dBFS of the component at `frequency` Hz (a sine's peak), measured on the
    /// middle of `samples` at 44.1 kHz through a Hann window.
    private func level(of frequency: Double, in samples: [Double]) -> Double {
        let part = samples[(samples.count / 10)..<(samples.count * 9 / 10)]
        var real = 0.0, imaginary = 0.0, weights = 0.0
        for (offset, sample) in part.enumerated() {
            let weight = 0.5 - 0.5 * cos(2 * Double.pi * Double(offset) / Double(part.count - 1))
            let phase = 2 * Double.pi * frequency * Double(offset) / 44_100
            real += weight * sample * cos(phase)
            imaginary -= weight * sample * sin(phase)
            weights += weight
        }
        return 20 * log10(2 * (real * real + imaginary * imaginary).squareRoot() / weights)
    }

    @Test("an MP3, a 48 kHz stereo WAV and an Ogg Vorbis file become chunks 1–3 of a 44.1 kHz mono article: lengths, tones, levels and order kept")
    func threeFormats() throws {
        let library = try Library()
        let (toneWAV, mp3) = try library.toneMP3()
        let first = try library.narrate.run("import", mp3.path)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("Imported 1 file into \"Imports\" as chunk 1 (00:00:02.0).\n"))
        #expect(first.stdout.contains("  1  \(mp3.path): MP3, 44100 Hz, mono → 44100 Hz, mono, 16-bit; 00:00:02.0, peak -"))

        let stereo = try library.stereoWAV(), ogg = try library.vorbis()
        let second = try library.narrate.run("import", stereo.path, ogg.path)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.isEmpty)
        let lines = second.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines.first == "Imported 2 files into \"Imports\" as chunks 2–3 (00:00:02.7).")
        #expect(lines.dropFirst().first?.hasPrefix("  2  \(stereo.path): WAV 16-bit, 48000 Hz, stereo → 44100 Hz, mono, 16-bit; 00:00:01.5, peak -") == true)
        #expect(lines.last?.hasPrefix("  3  \(ogg.path): Ogg Vorbis, 22050 Hz, mono → 44100 Hz, mono, 16-bit; 00:00:01.2, peak -") == true)

        let chunks = try library.chunks()
        try #require(chunks.count == 3)
        #expect(chunks.map { $0["index"] as? Int } == [1, 2, 3])
        // Each length within one frame of the source's duration × 44100. The MP3's is exact: LAME's
        // info tag names its encoder delay and padding, and libsndfile (mpg123) trims both.
        #expect(chunks[0]["frames"] as? Int == 88_200)
        for (chunk, seconds) in zip(chunks, [2.0, 1.5, 1.25]) {
            let frames = try #require(chunk["frames"] as? Int)
            #expect(abs(Double(frames) - seconds * 44_100) <= 1, "\(frames) frames for \(seconds) s")
            #expect(chunk["recovered"] as? Bool == false)
            #expect(chunk["paragraph"] is NSNull)
            #expect(chunk["fileProblem"] is NSNull)
        }

        // The MP3: what ffmpeg's own decoder (not mpg123) makes of it, to 1 LSB, and in place against
        // the WAV it was made from (an encoder delay left in would shift it by 1105 frames, 22° of
        // the tone). LAME at 128 kbit/s itself leaves the tone 0.44 dB quieter: ffmpeg hears that too.
        let fromMP3 = try chunkSamples(chunks[0])
        let decodedByFFmpeg = library.file("ffmpeg.wav")
        _ = try Signals.run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-i", mp3.path, "-c:a", "pcm_s16le", decodedByFFmpeg.path])
        let reference = try SoundFileReader(path: decodedByFFmpeg.path).readAll().map { Double($0) / 2_147_483_648 }
        #expect(reference.count == fromMP3.count)
        #expect(zip(reference, fromMP3).map { abs($0 - $1) * 32_768 }.max() ?? 99 <= 1.0)
        let original = try SoundFileReader(path: toneWAV.path).readAll().map { Double($0) / 2_147_483_648 }
        let product = zip(original, fromMP3).reduce(0) { $0 + $1.0 * $1.1 }
        let correlation = product / (original.reduce(0) { $0 + $1 * $1 } * fromMP3.reduce(0) { $0 + $1 * $1 }).squareRoot()
        #expect(correlation > 0.99)
        #expect(abs(level(of: 1_000, in: fromMP3) - -6.02) < 0.6)
        let peak = try #require(chunks[0]["peakDBFS"] as? Double), rms = try #require(chunks[0]["rmsDBFS"] as? Double)
        #expect(abs(peak - 20 * log10(fromMP3.map(abs).max() ?? 0)) < 0.01, "the peak is measured on the chunk's samples")
        #expect(abs(peak - rms - 3.01) < 0.1, "a sine's RMS is 3 dB under its peak")

        // The stereo WAV: the mean of its channels, so each tone at half its level (−12 dBFS), at
        // its own pitch after the rate conversion (500 Hz played unconverted would be 459 Hz).
        let fromWAV = try chunkSamples(chunks[1])
        #expect(abs(level(of: 500, in: fromWAV) - -12.04) < 0.1)
        #expect(abs(level(of: 1_500, in: fromWAV) - -12.04) < 0.1)
        #expect(level(of: 459.4, in: fromWAV) < -60)
        // The Vorbis file: 800 Hz at −6 dBFS after doubling its rate.
        let fromVorbis = try chunkSamples(chunks[2])
        #expect(abs(level(of: 800, in: fromVorbis) - -6.02) < 0.3)
        #expect(level(of: 1_600, in: fromVorbis) < -60)
        #expect(try library.chunkFolder().allSatisfy { !$0.hasPrefix(".") }, "no temporary file is left")
    }

    @Test("--json: each chunk's index, file, frames, and its source's path, encoding, rate, channels and frames")
    func json() throws {
        let library = try Library()
        let (_, mp3) = try library.toneMP3()
        let stereo = try library.stereoWAV()
        let result = try library.narrate.run("import", mp3.path, stereo.path, "--article", library.article, "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try result.json() as? [String: Any])
        #expect(object["article"] as? String == library.article)
        #expect(object["title"] as? String == "Imports")
        #expect(object["withdrawnExport"] is NSNull || object["withdrawnExport"] == nil)
        let chunks = try #require(object["chunks"] as? [[String: Any]])
        try #require(chunks.count == 2)
        #expect(chunks.map { $0["index"] as? Int } == [1, 2])
        #expect(chunks.map { $0["frames"] as? Int } == [88_200, 66_150])
        #expect(object["frames"] as? Int == 88_200 + 66_150)
        let sources = chunks.compactMap { $0["source"] as? [String: Any] }
        #expect(sources.map { $0["path"] as? String } == [mp3.path, stereo.path])
        #expect(sources.map { $0["encoding"] as? String } == ["MP3", "WAV 16-bit"])
        #expect(sources.map { $0["sampleRate"] as? Int } == [44_100, 48_000])
        #expect(sources.map { $0["channels"] as? Int } == [1, 2])
        #expect(sources.map { $0["frames"] as? Int } == [88_200, 72_000])
        #expect(chunks.map { $0["sampleRate"] as? Int } == [44_100, 44_100])
        #expect(chunks.map { $0["recovered"] as? Bool } == [false, false])
        let listed = try library.chunks()
        #expect(listed.map { $0["id"] as? String } == chunks.map { $0["id"] as? String })
        #expect(listed.map { $0["file"] as? String } == chunks.map { $0["file"] as? String })
    }

    @Test("a missing file, a folder, a file that is not audio, an empty file and one of no frames: one sentence each, exit 1, nothing added")
    func refusals() throws {
        let library = try Library()
        let text = library.file("notes.txt")
        try "Not audio at all.\n".write(to: text, atomically: true, encoding: .utf8)
        let empty = library.file("empty.wav")
        FileManager.default.createFile(atPath: empty.path, contents: Data())
        let silent = library.file("no-frames.wav")
        _ = try Signals.run("sox", ["-n", "-r", "44100", "-c", "1", "-b", "16", silent.path, "trim", "0", "0"])
        let missing = library.file("missing.wav")
        let cases: [(URL, String)] = [
            (missing, "\(missing.path) does not exist; check its name and folder."),
            (library.folder.url, "\(library.folder.url.path) is a folder; name the audio files in it."),
            (text, "\(text.path) is not audio narrate can read (Format not recognised); give a WAV, FLAC, Ogg Vorbis or Opus, MP3 or AIFF file."),
            (empty, "\(empty.path) is empty (0 bytes); copy or export it again."),
            (silent, "\(silent.path) holds no audio (0 frames); copy or export it again."),
        ]
        for (file, sentence) in cases {
            let result = try library.narrate.run("import", file.path)
            #expect(result.status == 1)
            #expect(result.stderr == "Nothing was imported: \(sentence)\n")
            #expect(result.stdout.isEmpty)
        }
        #expect(try library.chunks().isEmpty)
        #expect(try library.chunkFolder().isEmpty)
        let usage = try library.narrate.run("import")
        #expect(usage.status == 64)
        #expect(usage.stderr.contains("Missing expected argument '<FILE> ...'"))
    }

    @Test("file 3 of 4 fails halfway through decoding: nothing is added, no temporary file is left, the queued export stays; then all four go in and withdraw it")
    func oneBadAmongGood() throws {
        let library = try Library()
        let (_, mp3) = try library.toneMP3()
        let stereo = try library.stereoWAV(), ogg = try library.vorbis()
        #expect(try library.narrate.run("import", ogg.path).status == 0)
        #expect(try library.narrate.run("queue").status == 0)
        // A FLAC of 3 s with 4000 zero bytes in its middle: its header reads, its decoder loses sync at 1.5 s.
        let flac = library.file("damaged.flac")
        _ = try Signals.run("sox", ["-n", "-r", "44100", "-c", "1", "-b", "16", flac.path, "synth", "3", "sine", "440", "vol", "0.3"])
        var bytes = [UInt8](try Data(contentsOf: flac))
        bytes.replaceSubrange((bytes.count / 2)..<(bytes.count / 2 + 4_000), with: repeatElement(0, count: 4_000))
        try Data(bytes).write(to: flac)
        let before = try library.chunkFolder()

        // Queuing made the article no longer the current one.
        let failed = try library.narrate.run("import", mp3.path, stereo.path, flac.path, ogg.path, "--article", library.article)
        #expect(failed.status == 1)
        // libsndfile words the decoder's failure either way ("flac decoder lost sync", "unknown error in flac decoder").
        #expect(failed.stderr.hasPrefix("Nothing was imported: \(flac.path) (file 3 of 4) could not be read to its end (flac decoder lost sync)")
            || failed.stderr.hasPrefix("Nothing was imported: \(flac.path) (file 3 of 4) could not be read to its end (unknown error in flac decoder)"), "\(failed.stderr)")
        #expect(failed.stderr.hasSuffix("); check that it plays, or copy or export it again.\n") && failed.stderr.split(separator: "\n").count == 1)
        #expect(failed.stdout.isEmpty)
        #expect(try library.chunks().count == 1)
        #expect(try library.chunkFolder() == before, "the two files converted before it are gone, and no temporary file is left")
        let listed = try #require(try library.narrate.run("list", "--json").json() as? [[String: Any]])
        #expect(listed.first?["state"] as? String == "queued", "a failed import changes nothing, so the export stands")

        let good = try library.narrate.run("import", mp3.path, stereo.path, ogg.path, mp3.path, "--article", library.article)
        #expect(good.status == 0)
        #expect(good.stdout.hasPrefix("Imported 4 files into \"Imports\" as chunks 2–5 ("))
        #expect(good.stderr == "The queued export of \"Imports\" was withdrawn, so the old version will not be sent; queue or submit the article again when it is ready.\n")
        #expect(try library.chunks().map { $0["frames"] as? Int } == [55_124, 88_200, 66_150, 55_124, 88_200])
    }

    @Test("an article being recorded into is not imported into: the lock's holder is named")
    func locked() throws {
        let library = try Library("Locked")
        let (_, mp3) = try library.toneMP3()
        let lock = library.narrate.home.appendingPathComponent("articles/\(library.article)/recording.lock")
        let descriptor = open(lock.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        try #require(flock(descriptor, LOCK_EX | LOCK_NB) == 0)
        _ = Array("4242 recording\n".utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let result = try library.narrate.run("import", mp3.path)
        #expect(result.status == 1)
        #expect(result.stderr.contains("(process 4242) is recording into it"), "\(result.stderr)")
        #expect(try library.chunks().isEmpty)
        #expect(try library.chunkFolder().isEmpty)
    }
}
