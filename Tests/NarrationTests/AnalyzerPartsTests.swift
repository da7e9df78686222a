import Foundation
@testable import Narration
import NarrationAudio
import NarrationCore
import NarrationTestSupport
import Testing

@Suite("The exporter's check of its file, read in parts on every core")
struct AnalyzerPartsTests {
    /// 150 s of speech with a clipped burst across the join at 50 s.
    static func samples() throws -> [Int32] {
        var samples = Signals.samples(try Signals.speech(.speech, seconds: 150), bitsPerSample: 16)
        let join = 50 * 44_100
        for index in (join - 30)..<(join + 30) { samples[index] = index % 2 == 0 ? Int32.max : Int32.min }
        return samples
    }

    @Test("WAV and MP3 in 50 s parts measure as in one pass: every figure the same, loudness within 0.01 LU", arguments: [ExportFormat.wav, .mp3])
    func partsMeasureAsOnePass(format: ExportFormat) throws {
        let folder = TemporaryFolder("narrate-parts")
        let file = folder.file("parts.\(format.rawValue)")
        let sink: any AudioSink = format == .mp3
            ? try MP3Writer(creating: file.path, format: .speech, encoding: .constant(kbps: 128), tag: ID3Tag())
            : try SoundFileWriter(creating: file.path, format: .speech, container: .wav)
        try Self.samples().withUnsafeBufferPointer { try sink.write($0) }
        try sink.close()
        let whole = try Analyzer.measure(file: file)
        var parted = try Analyzer.measureInParts(file: file, partSeconds: 50)
        let loudness = try #require(parted.integratedLoudness), expected = try #require(whole.integratedLoudness)
        #expect(abs(loudness - expected) < 0.01, "\(loudness) against \(expected) LUFS")
        parted.integratedLoudness = whole.integratedLoudness
        #expect(abs(parted.rms.value - whole.rms.value) < 1e-9, "\(parted.rms.value) against \(whole.rms.value)")
        parted.rms = whole.rms
        print("figure: \(format) in parts: loudness \(loudness - expected) LU, true peak \(parted.truePeak.value - whole.truePeak.value) dB, noise floor \(parted.noiseFloor.value - whole.noiseFloor.value) dB from one pass")
        if format == .mp3 {
            // mpg123 decodes from a seek point with its synthesis filter and bit reservoir
            // restarted a few frames before: within rounding of the decode from the start.
            #expect(abs(parted.noiseFloor.value - whole.noiseFloor.value) < 0.01 && abs(parted.truePeak.value - whole.truePeak.value) < 0.01)
            parted.noiseFloor = whole.noiseFloor
            parted.truePeak = whole.truePeak
        }
        #expect(parted == whole)
        if format == .wav { #expect(whole.clipping.count == 1) }
    }
}
