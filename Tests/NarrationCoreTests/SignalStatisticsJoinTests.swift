import NarrationCore
import NarrationTestSupport
import Testing

@Suite("Statistics measured in parts and joined equal those measured in one pass")
struct SignalStatisticsJoinTests {
    /// 16 kHz mono: 1,600 frames a window. Noise with clipped runs placed across the joins.
    static let format = AudioFormat(sampleRate: 16_000, channels: 1, bitsPerSample: 16)
    static let full = Int32.max - (1 << 16)

    static func samples(seed: UInt64) -> [Int32] {
        var generator = SeededGenerator(default: seed)
        var samples = (0..<(20 * 1_600)).map { _ in Int32.random(in: -(1 << 28)...(1 << 28), using: &generator) }
        // A run of 4 split 2 + 2 across the join at 3,200; 1 + 2 across 6,400 (3 in all: a run);
        // 2 + 0 at 9,600 (no run); a whole clipped window 11,200..<12,800 with 1 before and after.
        for range in [3_198..<3_202, 6_399..<6_402, 9_598..<9_600, 11_199..<12_801] {
            for index in range { samples[index] = index % 2 == 0 ? full : -full - 1 }
        }
        return samples
    }

    static func statistics(_ samples: ArraySlice<Int32>) -> SignalStatistics {
        var statistics = SignalStatistics(format: format)
        Array(samples).withUnsafeBufferPointer { statistics.add($0) }
        return statistics
    }

    @Test("windows, levels and clipped runs across joins, for parts of 1, 2 and 3 windows and a clipped part", arguments: [1_600, 3_200, 4_800])
    func joined(partFrames: Int) {
        let samples = Self.samples(seed: 7)
        var whole = Self.statistics(samples[...])
        whole.finish()
        var joined = Self.statistics(samples[0..<partFrames])
        for start in stride(from: partFrames, to: samples.count, by: partFrames) {
            joined.append(Self.statistics(samples[start..<min(samples.count, start + partFrames)]))
        }
        joined.finish()
        #expect(joined.windowPowers == whole.windowPowers)
        #expect(joined.clipping == whole.clipping)
        #expect(whole.clipping == [Stretch(start: 3_198, end: 3_202), Stretch(start: 6_399, end: 6_402), Stretch(start: 11_199, end: 12_801)])
        #expect(joined.levels.frames == whole.levels.frames && joined.levels.peak == whole.levels.peak)
        #expect(abs(joined.levels.rms.value - whole.levels.rms.value) < 1e-9)
        #expect(joined.noiseFloor == whole.noiseFloor)
    }
}
