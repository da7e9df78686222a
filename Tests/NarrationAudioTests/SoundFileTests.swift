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

    /// Recovery writes `TakeHeader.bytes(for:frames:)` over a take's header and expects the
    /// samples right after it: both must be exactly what libsndfile writes.
    @Test("a take's header, at a checkpoint and once closed, is the one recovery writes, for every supported format")
    func takeHeader() throws {
        let folder = TemporaryFolder()
        for rate in AudioFormat.supportedSampleRates {
            for channels in AudioFormat.supportedChannelCounts {
                for bits in AudioFormat.supportedBitDepths {
                    let format = AudioFormat(sampleRate: rate, channels: channels, bitsPerSample: bits)
                    let path = folder.file("take-\(rate)-\(channels)-\(bits).wav").path
                    let frames = 1_001
                    let samples = (0..<frames * channels).map { Int32($0 - 1_000) << 16 }
                    let writer = try SoundFileWriter(creating: path, format: format)
                    try samples.withUnsafeBufferPointer { try writer.write(UnsafeBufferPointer(rebasing: $0[0..<(501 * channels)])) }
                    try writer.checkpoint()
                    let atCheckpoint = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
                    // Mid-take an odd data size has no pad byte yet, so the RIFF size differs by it.
                    #expect(atCheckpoint[8..<44] == TakeHeader.bytes(for: format, frames: 501)[8..<44], "\(format)")
                    #expect(atCheckpoint.count == TakeHeader.size + 501 * format.bytesPerFrame, "\(format)")
                    #expect(TakeHeader.isIntact(atCheckpoint, format: format), "\(format)")
                    try samples.withUnsafeBufferPointer { try writer.write(UnsafeBufferPointer(rebasing: $0[(501 * channels)...])) }
                    try writer.close()
                    let closed = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
                    #expect(Array(closed.prefix(TakeHeader.size)) == TakeHeader.bytes(for: format, frames: frames), "\(format)")
                    #expect(closed.count == TakeHeader.fileLength(frames: frames, format: format), "\(format)")
                    #expect(try SoundFileReader(path: path).readAll() == samples, "\(format)")
                }
            }
        }
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
