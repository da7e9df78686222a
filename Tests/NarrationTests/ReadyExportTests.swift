import Foundation
@testable import Narration
import NarrationAudio
import NarrationCore
import NarrationTestSupport
import Testing

/// The export the studio keeps nearly made between takes: queue then encodes and measures only
/// what the last takes changed, and the file is the one a full encode makes.
@Suite("An export made ready between takes")
struct ReadyExportTests {
    private static let chunkSeconds = 20.0

    private func article(_ fixture: LibraryFixture, chunks: Int) throws -> Article {
        let article = try fixture.library.newArticle(title: "Harbour news", publication: "Daily Post", narrator: "Ann", format: .speech)
        for _ in 0..<chunks { try fixture.record(article, seconds: Self.chunkSeconds) }
        return article
    }

    /// An article of `chunks` takes, and its export made ready under the podcast profile.
    private func readyArticle(_ fixture: LibraryFixture, chunks: Int) throws -> (Article, ReadyExport) {
        let article = try article(fixture, chunks: chunks)
        let ready = ReadyExport(scratchFolder: fixture.folder.url)
        try fixture.library.prepareExport(article, profile: .podcast, ready: ready)
        return (article, ready)
    }

    /// Exports with a ready export of its own that starts empty but with `ready`'s gain and
    /// encoder shift: every segment encoded now, with the same settings.
    private func exportAfresh(_ article: Article, like ready: ReadyExport, _ fixture: LibraryFixture, to file: URL) throws -> ExportResult {
        let fresh = ReadyExport(scratchFolder: fixture.folder.url)
        let made = ready.made
        fresh.remember(
            gain: try #require(made.gain), shift: try #require(made.shift), ceiling: made.ceiling, file: file, measured: nil, segments: nil)
        return try fixture.library.export(article, to: file, settings: ExportSettings(profile: .podcast), ready: fresh)
    }

    @Test("a take added after a ready export: queue encodes 2 of the segments, and the file is byte for byte a full encode's")
    func appendedTake() throws {
        let fixture = try LibraryFixture(sourceSeconds: 30)
        let article = try article(fixture, chunks: 8)
        let ready = ReadyExport(scratchFolder: fixture.folder.url)
        let first = try fixture.library.prepareExport(article, profile: .podcast, ready: ready)
        #expect(first.segments == MP3SegmentReuse(encoded: 8, reused: 0), "one segment per 20 s chunk")
        #expect(!FileManager.default.fileExists(atPath: fixture.library.root.articleURL(article.id).appendingPathComponent("ready.mp3").path))
        #expect(ready.readySegments == 8)

        try fixture.record(article, seconds: Self.chunkSeconds)
        let queued = fixture.folder.file("queued.mp3")
        let result = try fixture.library.export(article, to: queued, settings: ExportSettings(profile: .podcast), ready: ready)
        #expect(result.segments == MP3SegmentReuse(encoded: 2, reused: 7), "the new chunk's segment and the one before it")

        let full = fixture.folder.file("full.mp3")
        let fresh = try exportAfresh(article, like: ready, fixture, to: full)
        #expect(fresh.segments == MP3SegmentReuse(encoded: 9, reused: 0))
        #expect(try Data(contentsOf: queued) == Data(contentsOf: full), "the stitched file is the full encode's, byte for byte")
        let decoded = try SoundFileReader(path: queued.path).readAll()
        #expect(decoded.count == result.frames, "the file decodes to exactly the frames exported")

        // Nothing changed since: every segment and every measured part is ready.
        let again = fixture.folder.file("again.mp3")
        #expect(try fixture.library.export(article, to: again, settings: ExportSettings(profile: .podcast), ready: ready).segments?.encoded == 0)
        #expect(try Data(contentsOf: again) == Data(contentsOf: queued))

        // The file measured in parts on the 100 ms grid, as the exporter checks it, is the file
        // measured in one pass.
        let window = AudioFormat.speech.frames(forSeconds: 0.1)
        let bounds = stride(from: 0, to: decoded.count, by: 137 * window).map { $0 } + [decoded.count]
        let parts = try Analyzer.measureInParts(file: queued, parts: zip(bounds, bounds.dropFirst()).map { $0..<$1 })
        let whole = try Analyzer.measure(file: queued)
        #expect(abs(try #require(parts.integratedLoudness) - #require(whole.integratedLoudness)) < 0.001)
        #expect(abs(parts.truePeak.value - whole.truePeak.value) < 0.01)
        #expect(abs(parts.noiseFloor.value - whole.noiseFloor.value) < 0.01 && abs(parts.rms.value - whole.rms.value) < 0.01)
        #expect(abs(parts.peak.value - whole.peak.value) < 0.01, "\(parts.peak.value) against \(whole.peak.value)")
        print("figure: ready export after one more take: \(result.segments!), loudness \(whole.integratedLoudness!) LUFS in parts \(parts.integratedLoudness!)")
    }

    @Test("deleting a chunk in the middle re-encodes from the chunk before it; those before stay ready, and the file is a full encode's")
    func deletedChunk() throws {
        let fixture = try LibraryFixture(sourceSeconds: 30)
        let (article, ready) = try readyArticle(fixture, chunks: 7)
        _ = try fixture.library.deleteChunk(at: ChunkIndex(5), of: article)
        let edited = fixture.folder.file("edited.mp3")
        let result = try fixture.library.export(article, to: edited, settings: ExportSettings(profile: .podcast), ready: ready)
        // Segments 1–3 read nothing of chunk 4's end or later; segment 4 runs into chunk 5's
        // place, and the later ones moved on the frame grid by 20 s, not a multiple of its period.
        #expect(result.segments == MP3SegmentReuse(encoded: 3, reused: 3))
        let full = fixture.folder.file("full.mp3")
        _ = try exportAfresh(article, like: ready, fixture, to: full)
        #expect(try Data(contentsOf: edited) == Data(contentsOf: full))
    }

    @Test("a new gain beyond the step makes every segment stale; within it, the earlier gain is kept")
    func gainStep() throws {
        let fixture = try LibraryFixture(sourceSeconds: 30)
        let (article, ready) = try readyArticle(fixture, chunks: 4)
        let kept = try #require(ready.made.gain)
        let near = SampleGain(decibels: kept.decibels + 0.09)
        #expect(ready.gain(near: near) == kept)
        let far = SampleGain(decibels: kept.decibels + 0.11)
        #expect(ready.gain(near: far) == far)
        // A take 12 dB quieter (a quarter of the level) moves the article's loudness by more than the step.
        let speech = try Signals.speech(.speech, seconds: 30)
        var quiet = speech
        for index in stride(from: 0, to: speech.count - 1, by: 2) {
            let sample = Int16(bitPattern: UInt16(speech[index]) | UInt16(speech[index + 1]) << 8) / 4
            quiet[index] = UInt8(truncatingIfNeeded: sample)
            quiet[index + 1] = UInt8(truncatingIfNeeded: sample >> 8)
        }
        try fixture.record(article, frames: AudioFormat.speech.frames(forSeconds: Self.chunkSeconds), source: quiet)
        let result = try fixture.library.prepareExport(article, profile: .podcast, ready: ready)
        #expect(result.segments == MP3SegmentReuse(encoded: 5, reused: 0))
        #expect(try #require(ready.made.gain) != kept)
    }
}
