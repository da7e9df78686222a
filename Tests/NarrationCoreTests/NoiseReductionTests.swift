import Foundation
import NarrationCore
import Testing

@Suite("Noise reduction: when, how strongly, and from which stretches")
struct NoiseReductionTests {
    @Test(
        "the reduction brings the floor 6 dB under the limit, 12 to 30 dB, only when the floor after the gain comes within 3 dB of it",
        arguments: [
            // floor, gain, limit → reduction, needed
            (-44.0, 0.0, -60.0, 22.0, 22.0),
            (-45, 0, -60, 21, 21),
            (-50, 0, -60, 16, 16),
            (-50, 4, -60, 20, 20),
            (-44.2, 1.1, -60, 23, 23),  // ceil(22.9)
            (-56, 0, -60, 12, 10),  // at least 12
            (-62.9, 0, -60, 12, 4),  // 2.9 dB under the limit: close enough
            (-30, 0, -60, 30, 36),  // too noisy: 30, and it says what it needed
            (-50, -14, -60, nil, nil),  // the gain lowers the floor clear of the limit
            (-63, 0, -60, nil, nil),  // 3 dB under: clear
            (-75, 0, -60, nil, nil),
        ] as [(Double, Double, Double, Double?, Double?)])
    func strength(floor: Double, gain: Double, limit: Double, reduction: Double?, needed: Double?) {
        let strength = NoiseReductionStrength(floor: Decibels(floor), gain: gain, limit: Decibels(limit))
        #expect(strength?.decibels == reduction)
        #expect(strength?.needed == needed)
        #expect(strength?.tooNoisy == needed.map { $0 > 30 })
    }

    @Test("no noise-floor rule, or digital silence: no reduction")
    func noRule() {
        #expect(NoiseReductionStrength(floor: Decibels(-40), gain: 0, limit: nil) == nil)
        #expect(NoiseReductionStrength(floor: .silence, gain: 20, limit: Decibels(-60)) == nil)
        #expect(DeliveryProfile.acx.noiseFloorLimit == Decibels(-60))
        #expect(DeliveryProfile.podcast.noiseFloorLimit == nil)
        #expect(DeliveryProfile.librivox.noiseFloorLimit == nil)
    }

    /// A chunk measure of 100 ms windows at 44.1 kHz with these levels (dBFS).
    private func measure(_ levels: [Double]) -> ChunkMeasure {
        let powers = levels.map { Float(pow(10, $0 / 10)) }
        return ChunkMeasure(
            sampleRate: 44_100, frames: levels.count * 4_410, weightedPowers: powers, powers: powers, samplePeaks: powers.map { $0.squareRoot() },
            truePeaks: powers.map { $0.squareRoot() }, clipping: [])
    }

    private func choose(_ chunks: [[Double]]) -> [NoiseProfileStretch] {
        let measures = chunks.map(measure)
        let levels = MeasuredLevels(measures.map { ($0, 0..<$0.frames) })
        return NoiseProfileStretches.choose(from: levels, measures: measures)
    }

    private func quiet(_ count: Int, _ level: Double = -45) -> [Double] { Array(repeating: level, count: count) }
    private func loud(_ count: Int) -> [Double] { Array(repeating: -20, count: count) }

    @Test("runs of windows within 4 dB of the floor, at least 0.3 s, 50 ms trimmed at each end, never across a chunk's edge")
    func runs() {
        // Chunk 0: 0.8 s quiet, speech, 0.2 s quiet (too short), speech, 0.4 s slightly louder;
        // chunk 1: 0.3 s quiet at its start (the run at chunk 0's end does not continue into it).
        let stretches = choose([quiet(8) + loud(10) + quiet(2) + loud(5) + quiet(4, -42), quiet(3) + loud(6) + quiet(5)])
        #expect(
            stretches == [
                NoiseProfileStretch(chunk: 0, frames: 2_205..<(8 * 4_410 - 2_205)),
                NoiseProfileStretch(chunk: 0, frames: (25 * 4_410 + 2_205)..<(29 * 4_410 - 2_205)),
                NoiseProfileStretch(chunk: 1, frames: 2_205..<(3 * 4_410 - 2_205)),
                NoiseProfileStretch(chunk: 1, frames: (9 * 4_410 + 2_205)..<(14 * 4_410 - 2_205)),
            ])
    }

    @Test("a level more than 4 dB above the floor is not room")
    func margin() {
        // The floor is −50 dB (the last chunk's quietest 500 ms); −45.9 dB is 4.1 dB above it.
        let stretches = choose([quiet(10, -45.9) + loud(3) + quiet(6, -50)])
        #expect(stretches == [NoiseProfileStretch(chunk: 0, frames: (13 * 4_410 + 2_205)..<(19 * 4_410 - 2_205))])
    }

    @Test("the quietest stretches first, up to 10 s in all")
    func quietestFirst() {
        // Five runs of 3 s at −45, −44, −43, −46 and −40 dB (6 dB above the floor: not room): the
        // −46, −45 and −44 dB runs (2.9 s each after trimming) and 1.3 s of the −43 dB run make 10 s.
        let levels = [-45.0, -44, -43, -46, -40].flatMap { quiet(30, $0) + loud(3) }
        let stretches = choose([levels])
        let total = stretches.reduce(0) { $0 + $1.frames.count }
        #expect(total == 441_000)
        let starts = stretches.map { $0.frames.lowerBound / 4_410 }
        #expect(starts == [0, 33, 66, 99])
        #expect(stretches[2].frames.count == 441_000 - 3 * 12_789 * 10)
    }

    @Test("less than 0.5 s of room found: the quietest 500 ms itself, split at a chunk's edge")
    func fallback() {
        // The only run long enough leaves 0.2 s once trimmed; the quietest 500 ms straddles chunks 0 and 1.
        let stretches = choose([loud(5) + quiet(2, -40) + quiet(1, -50), quiet(2, -50) + loud(1) + quiet(2, -50) + loud(5)])
        #expect(stretches.reduce(0) { $0 + $1.frames.count } == 5 * 4_410)
        #expect(stretches == [NoiseProfileStretch(chunk: 0, frames: (5 * 4_410)..<(8 * 4_410)), NoiseProfileStretch(chunk: 1, frames: 0..<(2 * 4_410))])
    }

    @Test("an article shorter than 500 ms of whole windows has no stretch")
    func tooShort() {
        #expect(choose([quiet(4)]).isEmpty)
    }

    @Test("the sentence of a floor still too high names the reduction and what the room needed")
    func sentence() {
        let profile = DeliveryProfile.acx
        var statistics = SignalStatistics(format: .speech)
        let samples = [Int32](repeating: Int32(0.01 * Double(Int32.max)), count: 44_100)
        samples.withUnsafeBufferPointer { statistics.add($0) }
        let measured = Measurements(statistics: statistics, integratedLoudness: nil, truePeak: Decibels(-40))
        let strength = NoiseReductionStrength(floor: Decibels(-30), gain: 0, limit: Decibels(-60))
        let sentence = profile.rules.compactMap { rule -> String? in
            guard case .noiseFloorAtMost = rule else { return nil }
            return profile.shortfall(of: measured, noiseReduction: strength)
        }.first ?? ""
        #expect(sentence.contains("The acx profile needs a noise floor at or below -60.0 dB; this file's is -40.0 dB even after narrate reduced the room's noise by 30 dB: the room is too noisy to clean: it would need 36 dB, and more than 30 dB of noise reduction would harm the voice, so record again in a quieter place or closer to the microphone."), "\(sentence)")
    }
}
