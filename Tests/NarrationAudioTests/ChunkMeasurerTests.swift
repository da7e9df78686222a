import Foundation
import NarrationAudio
import NarrationCore
import NarrationTestSupport
import Testing

@Suite("A chunk measured once, in 100 ms windows, for mastering without reading the audio")
struct ChunkMeasurerTests {
    /// Speech with white-noise bursts and, from 12 s, a clipped stretch.
    private func signal(seconds: Double, seed: UInt64, format: AudioFormat = .speech) throws -> [Int32] {
        let speech = Signals.samples(try Signals.speech(format, seconds: seconds), bitsPerSample: format.bitsPerSample)
        let noise = Signals.samples(Signals.noise(seconds: seconds, seed: seed, sampleRate: format.sampleRate), bitsPerSample: 16)
        let frames = format.frames(forSeconds: seconds)
        return (0..<(frames * format.channels)).map { index in
            let frame = index / format.channels
            var value = Int64(speech[index]) + (frame % 90_000 < 3_000 ? Int64(noise[frame]) : 0)
            if frame > format.frames(forSeconds: 12) && frame < format.frames(forSeconds: 12.2) { value *= 8 }
            return Int32(clamping: value)
        }
    }

    private func measure(_ samples: [Int32], format: AudioFormat = .speech, block: Int = 3_001) -> ChunkMeasure {
        let measurer = ChunkMeasurer(format: format)
        samples.withUnsafeBufferPointer { buffer in
            for start in stride(from: 0, to: buffer.count, by: block * format.channels) {
                measurer.add(UnsafeBufferPointer(rebasing: buffer[start..<min(buffer.count, start + block * format.channels)]))
            }
        }
        return measurer.finish()
    }

    @Test("the windows give what one pass of libebur128 and of check's statistics give over the whole chunk", arguments: [AudioFormat.speech, AudioFormat(sampleRate: 48_000, channels: 2, bitsPerSample: 24)])
    func matchesOnePass(format: AudioFormat) throws {
        let samples = try signal(seconds: 20.05, seed: 5, format: format)
        let measure = measure(samples, format: format)
        let meter = LoudnessMeter(format: format)
        var statistics = SignalStatistics(format: format)
        samples.withUnsafeBufferPointer { meter.add($0); statistics.add($0) }
        statistics.finish()

        #expect(measure.frames == samples.count / format.channels)
        #expect(measure.powers.count == 201, "200 whole windows and a short last one")
        let levels = MeasuredLevels([(measure, 0..<measure.frames)])
        let integrated = try #require(levels.integratedLoudness), reference = try #require(meter.integratedLoudness)
        #expect(abs(integrated - reference) < 0.01, "integrated \(integrated) against libebur128's \(reference)")
        #expect(abs(levels.truePeak.value - meter.truePeak.value) < 0.01)
        #expect(abs(levels.rms.value - statistics.levels.rms.value) < 0.01)
        #expect(abs(levels.samplePeak.value - statistics.levels.peak.value) < 0.01)
        #expect(zip(measure.powers, statistics.windowPowers).allSatisfy { abs(Double($0) - $1) <= 1e-6 * max(1e-12, $1) + 1e-12 })
        #expect(measure.clipping == statistics.clipping && !measure.clipping.isEmpty)
        #expect(levels.quietestStretch.map { Decibels(amplitude: $0.rms.amplitude).value } .map { abs($0 - statistics.noiseFloor.value) < 0.01 } == true)
    }

    @Test("chunks joined give the joined stream's loudness within 0.1 LU; windows a kept stretch cuts are left out")
    func joinedAndTrimmed() throws {
        let chunks = try [3, 4, 6].map { try signal(seconds: 7.37, seed: $0) }
        let measures = chunks.map { measure($0) }
        let meter = LoudnessMeter(format: .speech)
        for chunk in chunks { chunk.withUnsafeBufferPointer { meter.add($0) } }
        let joined = MeasuredLevels(measures.map { ($0, 0..<$0.frames) })
        let reference = try #require(meter.integratedLoudness)
        #expect(abs(try #require(joined.integratedLoudness) - reference) < 0.1, "\(joined.integratedLoudness ?? 0) against \(reference)")

        // Keeping frames 1000…50 000 of the first chunk keeps windows 1…10 (4410 frames each) only.
        let kept = MeasuredLevels([(measures[0], 1_000..<50_000)])
        #expect(kept.windowSources.map(\.window) == Array(1...10))
    }

    @Test("the stored form reads back equal; another version or damaged bytes read as nothing, to be measured again")
    func storedForm() throws {
        let measure = measure(try signal(seconds: 13, seed: 9))
        #expect(ChunkMeasure(bytes: measure.bytes) == measure)
        var other = measure.bytes
        other[0] = ChunkMeasure.version + 1
        #expect(ChunkMeasure(bytes: other) == nil)
        #expect(ChunkMeasure(bytes: Array(measure.bytes.dropLast(3))) == nil)
        #expect(ChunkMeasure(bytes: []) == nil)
    }
}
