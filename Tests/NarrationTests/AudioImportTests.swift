import Foundation
import Narration
import NarrationAudio
import NarrationCore
import NarrationTestSupport
import Testing

@Suite("Importing audio files into an article")
struct AudioImportTests {
    private func library(_ folder: TemporaryFolder) throws -> NarrationLibrary {
        try NarrationLibrary(root: DataRoot(url: folder.file("home")))
    }

    @Test("a mono file at the article's rate goes into a stereo article on both sides, sample for sample; 16-bit into 24-bit unchanged")
    func monoIntoStereo() throws {
        let folder = TemporaryFolder()
        let library = try library(folder)
        let format = AudioFormat(sampleRate: 44_100, channels: 2, bitsPerSample: 24)
        let article = try library.newArticle(title: "Stereo", publication: "", narrator: "", format: format)
        let source = folder.file("speech.wav")
        let samples = Signals.samples(try Signals.speech(.speech, seconds: 1.5), bitsPerSample: 16)
        let writer = try SoundFileWriter(creating: source.path, format: .speech)
        try samples.withUnsafeBufferPointer { try writer.write($0) }
        try writer.close()

        let result = try library.importAudio([source], into: article)
        let imported = try #require(result.files.first)
        #expect(imported.index == ChunkIndex(1))
        #expect(imported.sourceFrames == samples.count && imported.chunk.frames == samples.count)
        #expect(imported.sourceEncoding == "WAV 16-bit")
        let reader = try SoundFileReader(path: imported.file.path)
        #expect(reader.format == format)
        #expect(try reader.readAll() == samples.flatMap { [$0, $0] })
        #expect(try library.records(of: article).chunks().map(\.id) == [imported.chunk.id])
        let levels = samples.withUnsafeBufferPointer { block in
            var accumulator = LevelAccumulator(channels: 1)
            accumulator.add(block)
            return accumulator
        }
        #expect(imported.chunk.peak == levels.peak && abs(imported.chunk.rms.value - levels.rms.value) < 1e-9)
    }

    @Test("a 24-bit file into a 16-bit article at the same rate: each sample rounded to the nearest 16-bit value")
    func roundedTo16Bits() throws {
        let folder = TemporaryFolder()
        let library = try library(folder)
        let article = try library.newArticle(title: "Rounded", publication: "", narrator: "", format: .speech)
        let deep = AudioFormat(sampleRate: 44_100, channels: 1, bitsPerSample: 24)
        let samples = Signals.samples(try Signals.speech(deep, seconds: 0.5), bitsPerSample: 24)
        let source = folder.file("deep.wav")
        let writer = try SoundFileWriter(creating: source.path, format: deep)
        try samples.withUnsafeBufferPointer { try writer.write($0) }
        try writer.close()
        let imported = try #require(try library.importAudio([source], into: article).files.first)
        let rounding = SampleRounding(bitsPerSample: 16)
        #expect(try SoundFileReader(path: imported.file.path).readAll() == samples.map(rounding.rounded))
    }

    @Test("six channels at 48 kHz into a 44.1 kHz stereo article: the mean of the six on both sides, at its pitch")
    func surroundIntoStereo() throws {
        let folder = TemporaryFolder()
        let library = try library(folder)
        let format = AudioFormat(sampleRate: 44_100, channels: 2, bitsPerSample: 16)
        let article = try library.newArticle(title: "Surround", publication: "", narrator: "", format: format)
        let source = folder.file("six.wav")
        // A 600 Hz tone at −6 dBFS in channel 3 (the centre), silence in the other five.
        _ = try Signals.run("sox", [
            "-n", "-r", "48000", "-c", "6", "-b", "16", source.path, "synth", "1", "sine", "0", "sine", "0", "sine", "600", "sine", "0", "sine", "0",
            "sine", "0", "vol", "0.5",
        ])
        let imported = try #require(try library.importAudio([source], into: article).files.first)
        #expect(imported.chunk.frames == 44_100)
        #expect(imported.sourceFormat.channels == 6)
        let samples = try SoundFileReader(path: imported.file.path).readAll()
        let left = stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
        let right = stride(from: 1, to: samples.count, by: 2).map { samples[$0] }
        #expect(left == right)
        // A sixth of the tone's amplitude: −6.02 − 15.56 dB.
        let middle = left[4_410..<39_690].map { Double($0) / 2_147_483_648 }
        let peak = 20 * log10(middle.map(abs).max() ?? 0)
        #expect(abs(peak - -21.58) < 0.2)
    }
}
