import Foundation
@testable import Narration
import NarrationAudio
import NarrationCore
import NarrationTestSupport
import Testing

@Suite("Exporting an article to one tagged file")
struct ExporterTests {
    static let title = "市议会投票 🎙️ Budget/“vote”"

    /// An article of `count` chunks of different noise and lengths, and all its samples in order.
    private func article(_ fixture: LibraryFixture, chunks count: Int) throws -> (Article, [Int32], [FrameCount]) {
        let article = try fixture.library.newArticle(title: Self.title, publication: "Daily Post", narrator: "Zoë Ng", format: .speech)
        var samples: [Int32] = []
        var lengths: [FrameCount] = []
        for number in 0..<count {
            let frames = 2_000 + number * 397 + (number % 3) * 4_410
            let source = Signals.noise(seconds: Double(frames) / 44_100 + 0.01, seed: UInt64(100 + number))
            try fixture.record(article, frames: frames, source: source)
            samples += Signals.samples(Array(source.prefix(frames * 2)), bitsPerSample: 16)
            lengths.append(frames)
        }
        return (article, samples, lengths)
    }

    @Test("WAV and FLAC hold the chunks' samples bit for bit", arguments: [1, 2, 50], [ExportFormat.wav, .flac])
    func lossless(chunks: Int, format: ExportFormat) throws {
        let fixture = try LibraryFixture()
        let (article, samples, _) = try article(fixture, chunks: chunks)
        let output = fixture.folder.file("out.\(format.rawValue)")
        let result = try fixture.library.export(article, to: output, settings: ExportSettings(format: format))
        #expect(result.frames == samples.count)
        let reader = try SoundFileReader(path: output.path)
        #expect(reader.format == .speech)
        #expect(try reader.readAll() == samples)
        let probe = try Signals.run("ffprobe", ["-v", "error", "-show_entries", "format_tags=title,artist,album,genre", "-of", "default=nw=1", output.path])
        #expect(probe.lowercased().contains("title=\(Self.title.lowercased())"))  // Vorbis comment names are case-blind
        #expect(probe.lowercased().contains("genre=speech"))
    }

    @Test("MP3 decodes to exactly the recorded number of frames", arguments: [1, 2, 50])
    func mp3Length(chunks: Int) throws {
        let fixture = try LibraryFixture()
        let (article, samples, _) = try article(fixture, chunks: chunks)
        let output = fixture.folder.file("out.mp3")
        try fixture.library.export(article, to: output, settings: ExportSettings(format: .mp3, mp3: .constant(kbps: 64)))
        let decoded = try Signals.run("sh", ["-c", "ffmpeg -v error -i '\(output.path)' -f s16le -ac 1 - | wc -c"])
        #expect(Int(decoded.trimmingCharacters(in: .whitespacesAndNewlines)) == samples.count * 2)
        #expect(try SoundFileReader(path: output.path).frames == samples.count)
    }

    @Test("the ID3v2.4 tag and one chapter per chunk read back in mutagen and ffprobe")
    func tagsAndChapters() throws {
        let fixture = try LibraryFixture()
        let (article, _, lengths) = try article(fixture, chunks: 5)
        let output = fixture.folder.file("tagged.mp3")
        try fixture.library.export(article, to: output, settings: ExportSettings(format: .mp3, mp3: .variable(quality: 4)))
        let script = """
            import json, sys, mutagen.id3 as m
            t = m.ID3(sys.argv[1])
            chaps = sorted(t.getall("CHAP"), key=lambda c: c.start_time)
            print(json.dumps({"version": list(t.version), "TIT2": str(t["TIT2"]), "TPE1": str(t["TPE1"]), "TALB": str(t["TALB"]),
              "TCON": str(t["TCON"]), "TDRC": str(t["TDRC"]), "TLEN": str(t["TLEN"]), "COMM": str(t.getall("COMM")[0]),
              "TXXX": str(t["TXXX:NARRATE_ARTICLE_ID"]), "toc": t.getall("CTOC")[0].child_element_ids,
              "chapters": [[c.element_id, c.start_time, c.end_time, str(c.sub_frames["TIT2"])] for c in chaps]}))
            """
        let text = try Signals.run("/usr/bin/python3", ["-c", script, output.path])
        let tag = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(tag["version"] as? [Int] == [2, 4, 0])
        #expect(tag["TIT2"] as? String == Self.title)
        #expect(tag["TPE1"] as? String == "Zoë Ng")
        #expect(tag["TALB"] as? String == "Daily Post")
        #expect(tag["TCON"] as? String == "Speech")
        #expect((tag["TDRC"] as? String)?.count == 10)
        #expect(tag["COMM"] as? String == "Narrated by Zoë Ng.")
        #expect(tag["TXXX"] as? String == article.id.rawValue)
        let total = lengths.reduce(0, +)
        #expect(tag["TLEN"] as? String == String((total * 1_000 + 22_050) / 44_100))
        #expect(tag["toc"] as? [String] == (1...5).map { "chp\($0)" })
        var start = 0
        var expected: [[String]] = []
        for (number, frames) in lengths.enumerated() {
            let ms = { (frames: Int) in String((frames * 1_000 + 22_050) / 44_100) }
            expected.append(["chp\(number + 1)", ms(start), ms(start + frames), "Part \(number + 1)"])
            start += frames
        }
        let chapters = try #require(tag["chapters"] as? [[Any]])
        #expect(chapters.map { $0.map { "\($0)" } } == expected)

        let probe = try Signals.run("ffprobe", ["-v", "error", "-show_chapters", "-of", "json", output.path])
        let probed = try #require(try JSONSerialization.jsonObject(with: Data(probe.utf8)) as? [String: Any])
        let probedChapters = try #require(probed["chapters"] as? [[String: Any]])
        #expect(probedChapters.count == 5)
        #expect(probedChapters.compactMap { ($0["tags"] as? [String: String])?["title"] } == (1...5).map { "Part \($0)" })
        #expect(probedChapters.last?["end_time"] as? String == String(format: "%.6f", Double(Int(expected[4][2])!) / 1_000))
    }

    @Test("--no-chapters leaves the chapters out")
    func noChapters() throws {
        let fixture = try LibraryFixture()
        let (article, _, _) = try article(fixture, chunks: 2)
        let output = fixture.folder.file("plain.mp3")
        try fixture.library.export(article, to: output, settings: ExportSettings(format: .mp3, chapters: false))
        let probe = try Signals.run("ffprobe", ["-v", "error", "-show_chapters", "-of", "csv", output.path])
        #expect(probe.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
    }

    @Test("bitrates that break gapless playback are refused, saying why")
    func lowBitrate() throws {
        let fixture = try LibraryFixture()
        let (article, _, _) = try article(fixture, chunks: 1)
        #expect(throws: NarrationError.usage(
            "48 kbit/s is too low for 44100 Hz mono: LAME would resample it and drop the information gapless players need. Use at least 56 kbit/s.")) {
            try fixture.library.export(article, to: fixture.folder.file("low.mp3"), settings: ExportSettings(format: .mp3, mp3: .constant(kbps: 48)))
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.folder.file("low.mp3").path))
    }

    @Test("faults leave the destination untouched: empty article, missing chunk, busy article, full disk")
    func faults() throws {
        let fixture = try LibraryFixture()
        let empty = try fixture.library.newArticle(title: "Empty", publication: "", narrator: "", format: .speech)
        let output = fixture.folder.file("kept.flac")
        try Data("the previous export".utf8).write(to: output)
        #expect { try fixture.library.export(empty, to: output, settings: ExportSettings(format: .flac)) } throws: {
            ($0 as? NarrationError)?.kind == .emptyArticle
        }
        let (article, _, _) = try article(fixture, chunks: 3)
        let entries = try fixture.library.chunkEntries(of: article)
        try FileManager.default.moveItem(at: entries[1].file, to: fixture.folder.file("aside.wav"))
        #expect(throws: NarrationError(
            .chunkFileMissing,
            "Chunk 2's file \(entries[1].file.path) is missing.", remedy: .replaceOrDeleteChunk(ChunkIndex(2), then: .exportAgain))) {
            try fixture.library.export(article, to: output, settings: ExportSettings(format: .flac))
        }
        try FileManager.default.moveItem(at: fixture.folder.file("aside.wav"), to: entries[1].file)

        let recording = try fixture.library.prepareRecording(
            into: article, placement: .append, device: "vmic", duration: 0.1, definitions: fixture.devices.definitions)
        #expect { try fixture.library.export(article, to: output, settings: ExportSettings(format: .flac)) } throws: {
            ($0 as? NarrationError)?.kind == .articleBusy
        }
        try recording.start()
        _ = recording.finish()
        #expect(try String(contentsOf: output, encoding: .utf8) == "the previous export")
    }

    @Test("a full disk leaves no partial file at the destination", .enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
    func fullDisk() throws {
        let fixture = try LibraryFixture()
        let (article, _, _) = try article(fixture, chunks: 20)
        let mount = try TemporaryMount(sizeKiB: 64)
        let output = mount.url.appendingPathComponent("article.wav")
        #expect {
            try fixture.library.export(article, to: output, settings: ExportSettings(format: .wav))
        } throws: { error in
            (error as? NarrationError)?.kind == .diskFull
                && (error as? NarrationError)?.message.hasSuffix("Nothing was written to \(output.path); free some space and export again.") == true
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: mount.url.path).isEmpty)
    }
}
