import Foundation
import NarrationAudio
import NarrationCore
import NarrationTestSupport
import Testing

@Suite("Reading audio files of other formats through libsndfile")
struct SoundFileEncodingTests {
    /// A WAV of 32-bit float samples (format tag 3), written byte by byte.
    private func floatWAV(_ samples: [Float], at url: URL) throws {
        func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
        let data = samples.flatMap { le32($0.bitPattern) }
        var bytes = Array("RIFF".utf8) + le32(UInt32(36 + data.count)) + Array("WAVEfmt ".utf8) + le32(16)
        bytes += le16(3) + le16(1) + le32(44_100) + le32(44_100 * 4) + le16(4) + le16(32)
        bytes += Array("data".utf8) + le32(UInt32(data.count)) + data
        try Data(bytes).write(to: url)
    }

    @Test("a float WAV reads at its level, beyond full scale held at full scale, NaN as silence (libsndfile's own conversion read it as silence)")
    func floatSamples() throws {
        let folder = TemporaryFolder()
        let file = folder.file("float.wav")
        try floatWAV([0.5, -0.5, 1.5, -1.5, 2, .nan, 1, -1, 0.25], at: file)
        let reader = try SoundFileReader(path: file.path)
        #expect(reader.encoding.description == "WAV 32-bit float")
        #expect(reader.encoding.bitsPerSample == nil)
        #expect(reader.format == AudioFormat(sampleRate: 44_100, channels: 1, bitsPerSample: 32))
        #expect(try reader.readAll() == [1 << 30, -(1 << 30), .max, .min, .max, 0, .max, .min, 1 << 29])
    }

    @Test("a clipped sine through Vorbis decodes above full scale: held there, never wrapped to the other sign")
    func vorbisOverFullScale() throws {
        let folder = TemporaryFolder()
        let ogg = folder.file("loud.ogg")
        _ = try Signals.run("sox", ["-n", "-r", "44100", "-c", "1", ogg.path, "synth", "1", "sine", "200", "vol", "1.3"])
        let reader = try SoundFileReader(path: ogg.path)
        #expect(reader.encoding.description == "Ogg Vorbis")
        let samples = try reader.readAll().map(Int64.init)
        #expect(samples.contains(Int64(Int32.max)) && samples.contains(Int64(Int32.min)), "some samples decoded beyond full scale")
        // A 200 Hz sine moves at most 3 % of full scale from one sample to the next; a wrap jumps by 200 %.
        let largestStep = zip(samples, samples.dropFirst()).map { abs($1 - $0) }.max() ?? 0
        #expect(Double(largestStep) < 0.25 * 2_147_483_648)
    }

    @Test("encodings are named as volunteers know them", arguments: [
        ("a.wav", ["-b", "16"], "WAV 16-bit", 16), ("a.flac", ["-b", "24"], "FLAC 24-bit", 24), ("a.aiff", ["-b", "16"], "AIFF 16-bit", 16),
        ("a.ogg", [], "Ogg Vorbis", nil), ("b.wav", ["-b", "8", "-e", "unsigned-integer"], "WAV 8-bit", 8),
    ] as [(String, [String], String, Int?)])
    func encodings(name: String, options: [String], described: String, bits: Int?) throws {
        let folder = TemporaryFolder()
        let file = folder.file(name)
        _ = try Signals.run("sox", ["-n", "-r", "44100", "-c", "1"] + options + [file.path, "synth", "0.1", "sine", "440"])
        let reader = try SoundFileReader(path: file.path)
        #expect(reader.encoding.description == described)
        #expect(reader.encoding.bitsPerSample == bits)
        #expect(reader.format.bitsPerSample == bits ?? 32)
    }
}
