import Foundation
import NarrationAudio
import NarrationCore
import NarrationTestSupport
import Testing

/// Ogg Opus with chapters (libopusenc) and the telephone profile, exported by the built binary
/// from articles recorded on the emulated microphone, read back by ffprobe, ffmpeg, mutagen,
/// numpy and libsndfile.
@Suite("narrate export: Ogg Opus with chapters, the mobile and telephone profiles")
struct OpusTelephoneExportTests {
    /// A heading and three paragraphs.
    static let text = [
        "Harbour reopens",
        "The old harbour opened to boats again on Monday after three years of repairs.",
        "Ferries will run twice a day from June, the council said.",
        "Fishermen welcomed the news and the cafes on the quay were full.",
    ]

    /// An article "Harbour" by Ann Lee with `text` attached, each paragraph read in one take of
    /// espeak-ng speech; returns the microphone's bytes of each take (44.1 kHz mono 16-bit).
    private func readArticle(_ fixture: EndToEndFixture) throws -> [[UInt8]] {
        let file = fixture.folder.file("harbour.md")
        try ("# " + Self.text[0] + "\n\n" + Self.text[1...].joined(separator: "\n\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        _ = try fixture.newArticle("Harbour", "--text", file.path, "--narrator", "Ann Lee", "--publication", "Daily Post")
        var takes: [[UInt8]] = []
        for paragraph in Self.text {
            let bytes = try Signals.spoken(paragraph)
            try fixture.devices.setMicrophoneInput(bytes)
            let result = try fixture.record(Double(bytes.count / 2) / 44_100)
            #expect(result.status == 0, "\(result.stderr)")
            takes.append(bytes)
        }
        #expect(try fixture.chunks().map { $0["frames"] as? Int } == takes.map { $0.count / 2 })
        return takes
    }

    /// What numpy measures of a decoded file (raw s16le at `rate`) against a reference (the same):
    /// the lag (in samples) at which their cross-correlation peaks within ±10 ms, the normalised
    /// correlation there and at lag 0, and the correlation of their RMS envelopes (dB, 100 ms windows).
    private func compare(decoded: URL, reference: URL, rate: Int) throws -> (lag: Int, peak: Double, atZero: Double, envelope: Double) {
        let script = """
            import json, sys, numpy as np
            a = np.fromfile(sys.argv[1], dtype='<i2').astype(np.float64)
            b = np.fromfile(sys.argv[2], dtype='<i2').astype(np.float64)
            rate = int(sys.argv[3])
            n = min(len(a), len(b)); a = a[:n]; b = b[:n]
            reach = rate // 100
            def corr(lag):
                x = a[max(0, lag):n + min(0, lag)]; y = b[max(0, -lag):n - max(0, lag)]
                return float(np.dot(x, y) / np.sqrt(np.dot(x, x) * np.dot(y, y)))
            values = {lag: corr(lag) for lag in range(-reach, reach + 1)}
            best = max(values, key=values.get)
            w = rate // 10
            def env(x):
                m = len(x) // w
                return 10 * np.log10(np.mean(x[:m * w].reshape(m, w) ** 2, axis=1) + 1.0)
            e = float(np.corrcoef(env(a), env(b))[0, 1])
            print(json.dumps({"lag": best, "peak": values[best], "zero": values[0], "envelope": e}))
            """
        let text = try Signals.run("/usr/bin/python3", ["-c", script, decoded.path, reference.path, "\(rate)"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        return (object["lag"] as? Int ?? .min, object["peak"] as? Double ?? .nan, object["zero"] as? Double ?? .nan, object["envelope"] as? Double ?? .nan)
    }

    /// The Opus packets' bitrate in kbit/s (ffprobe's packet sizes over `seconds`): the encoder's
    /// rate, without the headers, comments and Ogg pages that weigh on a short file.
    private func packetKbps(_ file: URL, seconds: Double) throws -> Double {
        let sizes = try Signals.run("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries", "packet=size", "-of", "csv=p=0", file.path])
        let bytes = sizes.split(separator: "\n").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }.reduce(0, +)
        return Double(bytes * 8) / seconds / 1_000
    }

    /// The file decoded by ffmpeg to raw 16-bit mono at `rate`.
    private func decode(_ file: URL, rate: Int, to raw: URL) throws {
        try Signals.run("ffmpeg", ["-v", "error", "-y", "-i", file.path, "-ac", "1", "-ar", "\(rate)", "-f", "s16le", "-acodec", "pcm_s16le", raw.path])
    }

    @Test("Ogg Opus: one chapter per paragraph at the chunks' boundaries to the millisecond, tags mutagen reads, round(frames × 48000 / 44100) samples, in time, at 32 kbit/s")
    func opusWithChapters() throws {
        let fixture = try EndToEndFixture()
        let takes = try readArticle(fixture)
        let lengths = takes.map { $0.count / 2 }
        let total = lengths.reduce(0, +)
        let ends = lengths.reduce(into: [Int]()) { $0.append(($0.last ?? 0) + $1) }
        let boundaries = ([0] + ends.dropLast()).map { ($0 * 1_000 + 22_050) / 44_100 }

        let opus = fixture.folder.file("harbour.opus")
        let words = try fixture.narrate.run("export", "-o", opus.path)
        #expect(words.status == 0, "\(words.stderr)")
        #expect(words.stdout.contains(", 4 chunks, 4 chapters, "), "\(words.stdout)")
        let json = try #require(try fixture.narrate.run("export", "-o", opus.path, "--json").json() as? [String: Any])
        #expect(json["format"] as? String == "opus" && json["chapters"] as? Int == 4 && json["frames"] as? Int == total)

        // ffprobe: one chapter per paragraph, starting where its chunk starts, to the millisecond.
        let chapters = try MediaProbe.chapters(opus)
        #expect(chapters.map(\.startMilliseconds) == boundaries, "chunk boundaries \(boundaries)")
        #expect(chapters.map(\.title) == [
            "Harbour reopens", "The old harbour opened to boats…", "Ferries will run twice a day…", "Fishermen welcomed the news and the…",
        ])
        print("figure: opus chapters \(chapters.map(\.startMilliseconds)) ms against chunk boundaries \(boundaries) ms")

        // mutagen's Ogg Opus reader: the tags and the CHAPTERxxx comments as written.
        let script = """
            import json, sys
            from mutagen.oggopus import OggOpus
            f = OggOpus(sys.argv[1])
            print(json.dumps({k.upper(): v for k, v in f.tags.as_dict().items()}))
            """
        let tags = try #require(
            try JSONSerialization.jsonObject(with: Data(try Signals.run("/usr/bin/python3", ["-c", script, opus.path]).utf8)) as? [String: [String]])
        #expect(tags["TITLE"] == ["Harbour"] && tags["ARTIST"] == ["Ann Lee"] && tags["ALBUM"] == ["Daily Post"] && tags["GENRE"] == ["Speech"])
        #expect(tags["CHAPTER001"] == ["00:00:00.000"] && tags["CHAPTER001NAME"] == ["Harbour reopens"])
        #expect(tags["CHAPTER002"] == [Timecode.precise(milliseconds: boundaries[1])])
        #expect(tags["CHAPTER004NAME"] == ["Fishermen welcomed the news and the…"])
        #expect(tags["CHAPTER005"] == nil)

        // Exact length: pre-skip and the last granule position trim the encoder's delay and padding.
        let expected = (total * 48_000 + 22_050) / 44_100
        let decodedFrames = try MediaProbe.decodedFrames(opus)
        #expect(decodedFrames == expected)
        #expect(try MediaProbe.stream(opus) == ("opus", 48_000))
        let reader = try SoundFileReader(path: opus.path)
        #expect(reader.format.sampleRate == 48_000 && reader.frames == expected)
        reader.close()
        print("figure: opus decoded \(decodedFrames) samples, expected round(\(total) × 48000 / 44100) = \(expected)")

        // The bitrate: the encoder's packets, and the whole file (headers, comments, Ogg pages), over its duration.
        let seconds = Double(total) / 44_100
        let bytes = try #require(try FileManager.default.attributesOfItem(atPath: opus.path)[.size] as? Int)
        let fileKbps = Double(bytes * 8) / seconds / 1_000
        let kbps = try packetKbps(opus, seconds: seconds)
        #expect(abs(kbps - 32) < 32 * 0.15, "\(kbps) kbit/s in packets")
        #expect(fileKbps > kbps && fileKbps < 32 * 1.25, "\(fileKbps) kbit/s in the file")
        print("figure: opus \(bytes) bytes for \(seconds) s: \(kbps) kbit/s in packets, \(fileKbps) in the file (set 32)")

        // The audio: the recorded takes, resampled to 48 kHz by sox, against the decoded file.
        let source = fixture.folder.file("source.raw")
        try Data(takes.joined()).write(to: source)
        let reference = fixture.folder.file("reference.raw")
        try Signals.run("sox", ["-t", "raw", "-r", "44100", "-e", "signed-integer", "-b", "16", "-c", "1", "-L", source.path,
                                "-t", "raw", "-r", "48000", "-e", "signed-integer", "-b", "16", "-c", "1", "-L", reference.path])
        let decoded = fixture.folder.file("decoded.raw")
        try decode(opus, rate: 48_000, to: decoded)
        let match = try compare(decoded: decoded, reference: reference, rate: 48_000)
        #expect(match.lag == 0, "the decoded audio is shifted by \(match.lag) samples")
        #expect(match.atZero > 0.95, "waveform correlation \(match.atZero)")
        #expect(match.envelope > 0.98, "envelope correlation \(match.envelope)")
        print("figure: opus against the takes: best lag \(match.lag) samples, correlation \(match.atZero) at 0, 100 ms envelope \(match.envelope)")
    }

    @Test("--bitrate sets an Opus file's rate (16 and 64 kbit/s within 15 % in its packets); out of range, --vbr with Opus and --bitrate with FLAC are refused in one line")
    func opusBitrate() throws {
        let fixture = try EndToEndFixture()
        _ = try fixture.newArticle("Rates")
        try fixture.record(6)
        for rate in [16, 64] {
            let file = fixture.folder.file("rate\(rate).opus")
            let result = try fixture.narrate.run("export", "-o", file.path, "--bitrate", "\(rate)")
            #expect(result.status == 0, "\(result.stderr)")
            let kbps = try packetKbps(file, seconds: 6)
            #expect(abs(kbps - Double(rate)) < Double(rate) * 0.15, "\(kbps) kbit/s for --bitrate \(rate)")
            print("figure: opus --bitrate \(rate): \(kbps) kbit/s in packets")
        }

        for (arguments, message) in [
            (["--bitrate", "300"], "--bitrate 300 is not an Ogg Opus bitrate; give 6 to 256 kbit/s.\n"),
            (["--bitrate", "5"], "--bitrate 5 is not an Ogg Opus bitrate; give 6 to 256 kbit/s.\n"),
            (["--vbr", "2"], "--vbr applies to MP3 only; this export is opus (give --bitrate).\n"),
        ] {
            let refused = try fixture.narrate.run(["export", "-o", fixture.folder.file("x.opus").path] + arguments)
            #expect(refused.status == 64 && refused.stderr == message, "\(refused.stderr)")
        }
        let flac = try fixture.narrate.run("export", "-o", fixture.folder.file("x.flac").path, "--bitrate", "64")
        #expect(flac.status == 64 && flac.stderr == "--bitrate applies to MP3 and Ogg Opus only; this export is flac.\n")
        #expect(!FileManager.default.fileExists(atPath: fixture.folder.file("x.opus").path))
    }

    @Test("--profile mobile: Ogg Opus with chapters at −19 LUFS mono, true peak ≤ −1 dBTP, and check agrees")
    func mobile() throws {
        let fixture = try EndToEndFixture()
        _ = try readArticle(fixture)
        let opus = fixture.folder.file("harbour.opus")
        let json = try #require(try fixture.narrate.run("export", "--profile", "mobile", "-o", opus.path, "--json").json() as? [String: Any])
        #expect(json["format"] as? String == "opus" && json["chapters"] as? Int == 4)
        let check = try fixture.narrate.run("check", opus.path, "--profile", "mobile", "--json")
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let measured = try #require(try check.json() as? [String: Any])
        let loudness = try #require(measured["integratedLoudness"] as? Double)
        #expect(abs(loudness + 19) <= 1)
        print("figure: mobile: \(loudness) LUFS, true peak \(measured["truePeakDB"] as? Double ?? .nan) dBTP")
    }

    /// `ffmpeg -af ebur128=peak=true`: integrated loudness (LUFS) and true peak (dBTP).
    private func ebur128(_ file: URL) throws -> (loudness: Double, truePeak: Double) {
        let output = try Signals.run("sh", ["-c", "ffmpeg -hide_banner -nostats -i '\(file.path)' -af ebur128=peak=true -f null - 2>&1"])
        func value(after label: String) throws -> Double {
            let range = try #require(output.range(of: label, options: .backwards))
            return try #require(Double(output[range.upperBound...].split(whereSeparator: { $0 == " " || $0 == "\n" }).first ?? ""))
        }
        return (try value(after: "I:"), try value(after: "Peak:"))
    }

    @Test("--profile telephone: a WAV at 8000 Hz, mono, 16-bit PCM, round(frames × 8000 / 44100) frames, −19 LUFS, true peak ≤ −1 dBTP, in time")
    func telephone() throws {
        let fixture = try EndToEndFixture()
        _ = try fixture.newArticle("Phone line")
        try fixture.record(5)
        let frames = 5 * 44_100
        let wav = fixture.folder.file("phone.wav")
        let result = try fixture.narrate.run("export", "--profile", "telephone", "-o", wav.path, "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let reader = try SoundFileReader(path: wav.path)
        #expect(reader.format.sampleRate == 8_000 && reader.format.channels == 1)
        #expect(reader.encoding.description == "WAV 16-bit")
        #expect(reader.frames == (frames * 8_000 + 22_050) / 44_100)
        reader.close()
        let levels = try ebur128(wav)
        #expect(levels.truePeak <= -1, "\(levels.truePeak) dBTP")
        #expect(abs(levels.loudness + 19) <= 1, "\(levels.loudness) LUFS")
        let check = try fixture.narrate.run("check", wav.path, "--profile", "telephone")
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        print("figure: telephone: \(levels.loudness) LUFS, true peak \(levels.truePeak) dBTP (ffmpeg)")

        // In time: the recorded speech, taken to 8 kHz by sox, lines up with the file.
        let source = fixture.folder.file("source.raw")
        try Data(fixture.source.prefix(frames * 2)).write(to: source)
        let reference = fixture.folder.file("reference.raw")
        try Signals.run("sox", ["-t", "raw", "-r", "44100", "-e", "signed-integer", "-b", "16", "-c", "1", "-L", source.path,
                                "-t", "raw", "-r", "8000", "-e", "signed-integer", "-b", "16", "-c", "1", "-L", reference.path])
        let decoded = fixture.folder.file("decoded.raw")
        try decode(wav, rate: 8_000, to: decoded)
        let match = try compare(decoded: decoded, reference: reference, rate: 8_000)
        #expect(match.lag == 0 && match.envelope > 0.95, "lag \(match.lag), envelope \(match.envelope)")
        print("figure: telephone against the take: best lag \(match.lag), correlation \(match.atZero), envelope \(match.envelope)")
    }

    @Test("--profile telephone mixes a 24-bit stereo article to one 16-bit channel: both sides' tones at equal level")
    func telephoneFromStereo() throws {
        let fixture = try EndToEndFixture()
        _ = try fixture.newArticle("Stereo", "--channels", "2", "--bits", "24")
        // 440 Hz on the left, 660 Hz on the right, equal amplitude, 4 s.
        let stereo = fixture.folder.file("stereo.wav")
        try Signals.run("sox", ["-n", "-r", "44100", "-c", "2", "-b", "24", stereo.path, "synth", "4", "sine", "440", "sine", "660", "vol", "0.3"])
        let imported = try fixture.narrate.run("import", stereo.path)
        #expect(imported.status == 0, "\(imported.stderr)")
        let wav = fixture.folder.file("phone.wav")
        let result = try fixture.narrate.run("export", "--profile", "telephone", "-o", wav.path)
        #expect(result.status == 0, "\(result.stderr)")
        let reader = try SoundFileReader(path: wav.path)
        #expect(reader.format.sampleRate == 8_000 && reader.format.channels == 1 && reader.encoding.description == "WAV 16-bit")
        #expect(reader.frames == 4 * 8_000)
        reader.close()
        // The level of each tone in the mono file (numpy's FFT): a mix keeps both at the same level.
        let decoded = fixture.folder.file("decoded.raw")
        try decode(wav, rate: 8_000, to: decoded)
        let spectrum = """
            import json, sys, numpy as np
            x = np.fromfile(sys.argv[1], dtype='<i2').astype(np.float64)
            x = x[8000:24000] * np.hanning(16000)
            s = np.abs(np.fft.rfft(x))
            db = lambda f: 20 * np.log10(s[int(round(f * 16000 / 8000))] + 1e-9)
            print(json.dumps({"l": db(440), "r": db(660), "floor": db(1000)}))
            """
        let text = try Signals.run("/usr/bin/python3", ["-c", spectrum, decoded.path])
        let levels = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Double])
        let left = try #require(levels["l"]), right = try #require(levels["r"]), floor = try #require(levels["floor"])
        #expect(abs(left - right) < 0.5, "440 Hz \(left) dB, 660 Hz \(right) dB")
        #expect(left - floor > 40, "440 Hz \(left) dB over \(floor) dB at 1 kHz")
        print("figure: telephone from stereo: 440 Hz \(left) dB, 660 Hz \(right) dB, 1 kHz \(floor) dB")
    }
}
