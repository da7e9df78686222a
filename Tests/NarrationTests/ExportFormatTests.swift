import Foundation
@testable import Narration
import NarrationAudio
import NarrationCore
import NarrationTestSupport
import Testing

/// Ogg Vorbis, Ogg Opus and FLAC exports read back by ffmpeg, libsndfile and mutagen: length,
/// tags and chapters; and exports of chunks N…M.
@Suite("Export formats: Ogg Vorbis, Ogg Opus, FLAC chapters, chunk ranges")
struct ExportFormatTests {
    static let title = "Budget vote: “yes” 🎙️"

    /// An article of five chunks of different lengths, its samples and their lengths: noise (every
    /// sample differs: exact lengths show), or speech from the virtual microphone (what the lossy
    /// encoders are tuned for: levels compare).
    private func article(_ fixture: LibraryFixture, chunks count: Int = 5, speech: Bool = false) throws -> (Article, [Int32], [FrameCount]) {
        let article = try fixture.library.newArticle(title: Self.title, publication: "Daily Post", narrator: "Zoë Ng", format: .speech)
        var samples: [Int32] = []
        var lengths: [FrameCount] = []
        for number in 0..<count {
            let frames = 9_000 + number * 4_397 + (number % 2) * 11_025
            if speech {
                try fixture.record(article, seconds: Double(frames) / 44_100)
                samples += fixture.sourceSamples(frames: frames)  // each take starts the microphone's speech anew
            } else {
                let source = Signals.noise(seconds: Double(frames) / 44_100 + 0.01, seed: UInt64(300 + number))
                try fixture.record(article, frames: frames, source: source)
                samples += Signals.samples(Array(source.prefix(frames * 2)), bitsPerSample: 16)
            }
            lengths.append(frames)
        }
        return (article, samples, lengths)
    }

    /// Each chunk's start in ms, rounded as chapters store it.
    private func starts(_ lengths: [FrameCount]) -> [Int] {
        var start = 0
        return lengths.map { frames in
            defer { start += frames }
            return Timecode.milliseconds(frames: start, rate: 44_100)
        }
    }

    private func expectTags(_ file: URL, article: Article, sourceLine: SourceLocation = #_sourceLocation) throws {
        let tags = try MediaProbe.vorbisComments(file)
        #expect(tags["title"] == [Self.title], sourceLocation: sourceLine)
        #expect(tags["artist"] == ["Zoë Ng"], sourceLocation: sourceLine)
        #expect(tags["album"] == ["Daily Post"], sourceLocation: sourceLine)
        #expect(tags["genre"] == ["Speech"], sourceLocation: sourceLine)
        #expect(tags["comment"] == ["Narrated by Zoë Ng."], sourceLocation: sourceLine)
        #expect(tags["date"]?.first?.count == 10, sourceLocation: sourceLine)
    }

    @Test("Ogg Vorbis decodes to exactly the article's frames, tagged, without chapters")
    func vorbis() throws {
        let fixture = try LibraryFixture()
        let (article, samples, _) = try article(fixture, speech: true)
        let output = fixture.folder.file("article.ogg")
        let result = try fixture.library.export(article, to: output, settings: ExportSettings(format: .ogg))
        #expect(result.frames == samples.count && result.chapters == 0)
        #expect(try MediaProbe.stream(output) == ("vorbis", 44_100))
        // Vorbis has no encoder delay to skip and its last page's granule position ends the stream
        // at the last frame written: both decoders give back exactly the frames.
        #expect(try MediaProbe.decodedFrames(output) == samples.count)
        #expect(try SoundFileReader(path: output.path).frames == samples.count)
        try expectTags(output, article: article)
        #expect(try MediaProbe.chapters(output).isEmpty)
        let decoded = try SoundFileReader(path: output.path).readAll()
        // Lossy, but the same speech: its level within 0.5 dB.
        #expect(abs(rms(decoded) - rms(samples)) < 0.5, "\(rms(decoded)) against \(rms(samples)) dBFS")
    }

    @Test("Ogg Opus of a 44.1 kHz article is 48 kHz, decodes to round(frames × 48000 / 44100) frames, tagged, with chapters at the chunks' starts")
    func opus() throws {
        let fixture = try LibraryFixture()
        let (article, samples, lengths) = try article(fixture, speech: true)
        let output = fixture.folder.file("article.opus")
        let result = try fixture.library.export(article, to: output, settings: ExportSettings(format: .opus))
        #expect(result.frames == samples.count && result.chapters == 5)
        #expect(try MediaProbe.stream(output) == ("opus", 48_000))
        // ffmpeg skips the pre-skip the header gives and trims the end to the last granule position.
        let expected = (samples.count * 48_000 + 22_050) / 44_100
        #expect(try MediaProbe.decodedFrames(output) == expected)
        let reader = try SoundFileReader(path: output.path)
        #expect(reader.format.sampleRate == 48_000 && reader.frames == expected)
        try expectTags(output, article: article)
        let expectedChapters = zip(starts(lengths), 1...5).map { MediaProbe.Chapter(startMilliseconds: $0, title: "Part \($1)") }
        #expect(try MediaProbe.chapters(output) == expectedChapters)
        let level = rms(try reader.readAll())
        #expect(abs(level - rms(samples)) < 0.5, "\(level) against \(rms(samples)) dBFS")
    }

    @Test("an Opus export of a 16 kHz article is converted to 48 kHz by libsoxr, to the frame")
    func opusAtSixteen() throws {
        let format = AudioFormat(sampleRate: 16_000, channels: 1, bitsPerSample: 16)
        let fixture = try LibraryFixture(format: format, sourceSeconds: 2)
        let article = try fixture.library.newArticle(title: "Short", publication: "", narrator: "", format: format)
        try fixture.record(article, seconds: 0.5)
        let output = fixture.folder.file("short.opus")
        try fixture.library.export(article, to: output, settings: ExportSettings(format: .opus))
        let reader = try SoundFileReader(path: output.path)
        #expect(reader.format.sampleRate == 48_000 && reader.frames == 24_000)
    }

    @Test("FLAC carries one CHAPTERxxx per chunk: ffprobe lists them at the chunks' starts to the millisecond")
    func flacChapters() throws {
        let fixture = try LibraryFixture()
        let (article, samples, lengths) = try article(fixture)
        let output = fixture.folder.file("article.flac")
        let result = try fixture.library.export(article, to: output, settings: ExportSettings(format: .flac))
        #expect(result.chapters == 5)
        #expect(try SoundFileReader(path: output.path).readAll() == samples)
        #expect(try MediaProbe.decodedFrames(output) == samples.count)
        let expected = zip(starts(lengths), 1...5).map { MediaProbe.Chapter(startMilliseconds: $0, title: "Part \($1)") }
        #expect(try MediaProbe.chapters(output) == expected)
        let tags = try MediaProbe.vorbisComments(output)
        try expectTags(output, article: article)
        #expect(tags["chapter001"] == ["00:00:00.000"] && tags["chapter001name"] == ["Part 1"])
        #expect(tags["chapter005"] == [Timecode.precise(milliseconds: starts(lengths)[4])])
        #expect(tags["narrate_article_id"] == [article.id.rawValue])

        let plain = fixture.folder.file("plain.flac")
        let unchaptered = try fixture.library.export(article, to: plain, settings: ExportSettings(format: .flac, chapters: false))
        #expect(unchaptered.chapters == 0)
        #expect(try MediaProbe.chapters(plain).isEmpty)
    }

    @Test("chunks 2…4 only: WAV and FLAC hold exactly their samples, chapters start at 0 and keep the chunks' numbers",
          arguments: [ExportFormat.wav, .flac, .mp3])
    func range(format: ExportFormat) throws {
        let fixture = try LibraryFixture()
        let (article, samples, lengths) = try article(fixture)
        let output = fixture.folder.file("part.\(format.rawValue)")
        let settings = ExportSettings(format: format, firstChunk: ChunkIndex(2), lastChunk: ChunkIndex(4))
        let result = try fixture.library.export(article, to: output, settings: settings)
        let first = lengths[0]
        let chosen = lengths[1...3].reduce(0, +)
        #expect(result.frames == chosen)
        #expect(result.plan.firstChunk == 2 && result.plan.chunks.map(\.title) == ["Part 2", "Part 3", "Part 4"])
        #expect(try SoundFileReader(path: output.path).frames == chosen)
        if format != .mp3 { #expect(try SoundFileReader(path: output.path).readAll() == Array(samples[first..<(first + chosen)])) }
        let chapters = try MediaProbe.chapters(output)
        if format.holdsChapters {
            #expect(result.chapters == 3)
            #expect(chapters == zip(starts(Array(lengths[1...3])), 2...4).map { MediaProbe.Chapter(startMilliseconds: $0, title: "Part \($1)") })
        } else {
            #expect(result.chapters == 0 && chapters.isEmpty)
        }
    }

    @Test("either bound alone: --from 4 exports 4…5, --to 2 exports 1…2")
    func openRanges() throws {
        let fixture = try LibraryFixture()
        let (article, _, lengths) = try article(fixture)
        let tail = try fixture.library.export(
            article, to: fixture.folder.file("tail.wav"), settings: ExportSettings(format: .wav, firstChunk: ChunkIndex(4)))
        #expect(tail.frames == lengths[3] + lengths[4] && tail.plan.firstChunk == 4)
        let head = try fixture.library.export(
            article, to: fixture.folder.file("head.wav"), settings: ExportSettings(format: .wav, lastChunk: ChunkIndex(2)))
        #expect(head.frames == lengths[0] + lengths[1] && head.plan.firstChunk == 1)
    }

    @Test("chunks the article does not have, or reversed, are refused and nothing is written")
    func badRanges() throws {
        let fixture = try LibraryFixture()
        let (article, _, _) = try article(fixture, chunks: 3)
        let output = fixture.folder.file("never.flac")
        #expect(throws: NarrationError(.usage, "There is no chunk 4: \"\(Self.title)\" has 3 chunks (1–3).", remedy: .listChunks)) {
            try fixture.library.export(article, to: output, settings: ExportSettings(format: .flac, firstChunk: ChunkIndex(2), lastChunk: ChunkIndex(4)))
        }
        #expect(throws: NarrationError.usage("Chunk 3, the first to export, comes after chunk 2, the last; give the first chunk first.")) {
            try fixture.library.export(article, to: output, settings: ExportSettings(format: .flac, firstChunk: ChunkIndex(3), lastChunk: ChunkIndex(2)))
        }
        #expect(!FileManager.default.fileExists(atPath: output.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.folder.url.path).allSatisfy { !$0.contains("narrate-partial") })
    }

    @Test("a loudness profile masters Ogg Vorbis and Ogg Opus to its target, measured after encoding", arguments: [ExportFormat.ogg, .opus])
    func podcastProfile(format: ExportFormat) throws {
        let fixture = try LibraryFixture()
        let article = try fixture.library.newArticle(title: "Loud", publication: "", narrator: "", format: .speech)
        for _ in 0..<2 { try fixture.record(article, seconds: 2) }
        var settings = ExportSettings(profile: .podcast)
        settings.format = format
        let output = fixture.folder.file("podcast.\(format.rawValue)")
        try fixture.library.export(article, to: output, settings: settings)
        let measured = try Analyzer.measure(file: output)
        let loudness = try #require(measured.integratedLoudness)
        #expect(abs(loudness - -19) <= 1, "\(format): \(loudness) LUFS")
        #expect(DeliveryProfile.podcast.verdict(on: measured).passed, "\(DeliveryProfile.podcast.verdict(on: measured).sentence)")
    }

    /// RMS in dBFS of left-justified samples.
    private func rms(_ samples: [Int32]) -> Double {
        let sum = samples.reduce(0.0) { $0 + pow(Double($1) / Double(Int32.max), 2) }
        return 10 * log10(sum / Double(max(1, samples.count)))
    }
}
