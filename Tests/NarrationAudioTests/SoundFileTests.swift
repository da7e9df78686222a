import Foundation
import NarrationAudio
import NarrationCore
import NarrationTestSupport
import Testing

@Suite("Writing and reading WAV files through libsndfile")
struct SoundFileTests {
    @Test("samples written come back unchanged", arguments: [16, 24])
    func roundTrip(bits: Int) throws {
        let folder = TemporaryFolder()
        let format = AudioFormat(sampleRate: 44_100, channels: 2, bitsPerSample: bits)
        let samples = Signals.samples(try Signals.speech(format, seconds: 1), bitsPerSample: bits)
        let path = folder.file("take.wav").path
        let writer = try SoundFileWriter(creating: path, format: format)
        try samples.withUnsafeBufferPointer { try writer.write($0) }
        try writer.close()
        let reader = try SoundFileReader(path: path)
        #expect(reader.format == format)
        #expect(reader.frames == samples.count / 2)
        #expect(try reader.readAll() == samples)
    }

    @Test("after a checkpoint the file on disk is a valid WAV of everything written so far")
    func checkpoint() throws {
        let folder = TemporaryFolder()
        let path = folder.file("partial.wav").path
        let samples = Signals.samples(try Signals.speech(.speech, seconds: 1), bitsPerSample: 16)
        let writer = try SoundFileWriter(creating: path, format: .speech)
        try samples.withUnsafeBufferPointer { try writer.write(UnsafeBufferPointer(rebasing: $0[0..<10_000])) }
        try writer.checkpoint()
        let midway = try SoundFileReader(path: path)
        #expect(midway.frames == 10_000)
        #expect(try midway.readAll() == Array(samples[0..<10_000]))
        try samples.withUnsafeBufferPointer { try writer.write(UnsafeBufferPointer(rebasing: $0[10_000...])) }
        try writer.close()
        #expect(try SoundFileReader(path: path).frames == samples.count)
    }

    @Test("an existing file is never overwritten")
    func noOverwrite() throws {
        let folder = TemporaryFolder()
        let path = folder.file("keep.wav").path
        try Data("precious".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: NarrationError.self) { try SoundFileWriter(creating: path, format: .speech) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "precious")
    }

    @Test("a missing file and a damaged file are told apart")
    func missingAndDamaged() throws {
        let folder = TemporaryFolder()
        #expect { try SoundFileReader(path: folder.file("gone.wav").path) } throws: {
            ($0 as? NarrationError)?.kind == .chunkFileMissing
        }
        try Data(repeating: 7, count: 100).write(to: folder.file("junk.wav"))
        #expect { try SoundFileReader(path: folder.file("junk.wav").path) } throws: {
            ($0 as? NarrationError)?.kind == .fileCorrupt
        }
    }
}
