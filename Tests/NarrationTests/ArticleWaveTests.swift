import Foundation
import Narration
import NarrationAudio
import NarrationCore
import NarrationTestSupport
import Testing

/// The article as one WAV made on demand, the web studio's playback: read back through
/// libsndfile and compared with the chunk files.
@Suite("The article as one seekable wave")
struct ArticleWaveTests {
    @Test("from chunk 2 the wave is chunks 2 and 3 sample for sample, and any byte range is that stretch of it")
    func exact() throws {
        let fixture = try LibraryFixture(sourceSeconds: 2)
        let article = try fixture.library.newArticle(title: "Wave", publication: "", narrator: "", format: .speech)
        for seconds in [0.31, 0.52, 0.27] { try fixture.record(article, seconds: seconds) }
        let entries = try fixture.library.chunkEntries(of: article)
        let wave = ArticleWave(entries: entries, from: ChunkIndex(position: 1), format: article.format)
        #expect(wave.frames == entries[1].chunk.frames + entries[2].chunk.frames)
        let whole = try wave.bytes(in: 0..<wave.byteCount)
        #expect(whole.count == wave.byteCount)
        let file = fixture.folder.url.appendingPathComponent("wave.wav")
        try Data(whole).write(to: file)
        let expected = try fixture.samples(of: entries[1]) + fixture.samples(of: entries[2])
        #expect(try SoundFileReader(path: file.path).readAll() == expected)
        // Ranges across the header, a join between chunks, and odd offsets inside a sample.
        let join = ArticleWave.headerBytes + entries[1].chunk.frames * 2
        for range in [0..<10, 40..<50, (join - 7)..<(join + 9), 1_001..<2_000, (wave.byteCount - 3)..<wave.byteCount] {
            #expect(try wave.bytes(in: range) == Array(whole[range]), "bytes \(range)")
        }
    }

    @Test("a chunk whose file is missing is left out, as the player plays around it")
    func missing() throws {
        let fixture = try LibraryFixture(sourceSeconds: 2)
        let article = try fixture.library.newArticle(title: "Missing", publication: "", narrator: "", format: .speech)
        for seconds in [0.2, 0.3] { try fixture.record(article, seconds: seconds) }
        try FileManager.default.removeItem(at: try fixture.library.chunkEntries(of: article)[0].file)
        let entries = try fixture.library.chunkEntries(of: article)
        let wave = ArticleWave(entries: entries, from: nil, format: article.format)
        #expect(wave.pieces.map(\.index.number) == [2])
        #expect(wave.frames == entries[1].chunk.frames)
    }
}
