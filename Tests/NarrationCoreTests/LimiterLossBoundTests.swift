import Foundation
import NarrationCore
import Testing

@Suite("How much loudness the limiter can take off, bounded from the chunks' measures")
struct LimiterLossBoundTests {
    /// 50 windows of 100 ms at 44.1 kHz, each of K-weighted power 0.01 and true peak −10.5 dBTP,
    /// but window `loud`, whose true peak is 0 dBTP.
    static func measure(loud: Int?) -> ChunkMeasure {
        var peaks = [Float](repeating: 0.3, count: 50)
        if let loud { peaks[loud] = 1 }
        return ChunkMeasure(
            sampleRate: 44_100, frames: 50 * 4_410, weightedPowers: .init(repeating: 0.01, count: 50), powers: .init(repeating: 0.01, count: 50),
            samplePeaks: peaks, truePeaks: peaks, clipping: [])
    }

    @Test("no peak within the margin of the ceiling after the gain: nothing to bound")
    func quiet() {
        let levels = MeasuredLevels([(Self.measure(loud: nil), 0..<(50 * 4_410))])
        #expect(levels.limiterLossBound(gainDecibels: 6, ceiling: Decibels(-2)) == 0)
        #expect(levels.limiterLossBound(gainDecibels: 8.4, ceiling: Decibels(-2)) > 0)  // −10.5 + 8.4 + 0.2 > −2
    }

    @Test("one peak 3.2 dB over: five windows (itself, the one before, three after) lowered by 3.2 dB in the bound")
    func onePeak() {
        let levels = MeasuredLevels([(Self.measure(loud: 25), 0..<(50 * 4_410))])
        // 47 blocks of four windows; each of the five windows loses (1 − 10^−0.32) of its power
        // in the four blocks it is in, a quarter each: the blocks' mean falls by that over 47.
        let lost = 5 * (1 - pow(10, -0.32))
        let expected = -10 * log10((47 - lost) / 47)
        #expect(abs(levels.limiterLossBound(gainDecibels: 0, ceiling: Decibels(-3)) - expected) < 1e-9)
        #expect(abs(levels.limiterLossBound(gainDecibels: 0, ceiling: Decibels(-3), margin: 0) - (-10 * log10((47 - 5 * (1 - pow(10, -0.3))) / 47))) < 1e-9)
    }

    @Test("a peak in a window the kept stretch cuts through still counts, lent to the first whole window")
    func peakInACutWindow() {
        let cut = MeasuredLevels([(Self.measure(loud: 10), (10 * 4_410 + 100)..<(50 * 4_410))])
        #expect(cut.windowTruePeaks.count == 39 && cut.windowTruePeaks[0] == 1)
        #expect(cut.limiterLossBound(gainDecibels: 0, ceiling: Decibels(-3)) > 0)
    }
}
