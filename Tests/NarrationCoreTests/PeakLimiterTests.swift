import Foundation
import NarrationCore
import Testing

@Suite("True-peak limiter")
struct PeakLimiterTests {
    private let format = AudioFormat(sampleRate: 44_100, channels: 1, bitsPerSample: 16)

    /// Left-justified 16-bit samples of `values` (−1…1).
    private func samples(_ values: [Double]) -> [Int32] {
        values.map { Int32(max(-32_768, min(32_767, ($0 * 32_767).rounded()))) << 16 }
    }

    /// The samples as −1…1, the way the interpolator reads them.
    private func values(_ samples: [Int32]) -> [Double] { samples.map { Double($0) / Double(Int32.max) } }

    /// Runs `input` through a limiter in blocks of `block` frames, flushing at the end.
    private func limited(_ input: [Int32], gainDB: Double = 0, ceilingDB: Double = -1, block: Int = 1_000) -> [Int32] {
        var limiter = PeakLimiter(gain: SampleGain(decibels: gainDB), ceiling: Decibels(ceilingDB), format: format)
        var output: [Int32] = []
        for start in stride(from: 0, to: input.count, by: block) {
            let end = min(input.count, start + block)
            output += input[start..<end].withUnsafeBufferPointer { limiter.process($0) }
        }
        return output + limiter.flush()
    }

    /// The true peak in dBTP, by a direct convolution with the standard's taps: y[4n+p] = Σ h_p[k]·x[n−k].
    private func truePeakDB(_ samples: [Int32]) -> Double {
        let x = values(samples) + Array(repeating: 0, count: 11)
        var loudest = x.reduce(0) { max($0, abs($1)) }
        for n in x.indices {
            for phase in TruePeakInterpolator.phases {
                var sum = 0.0
                for k in 0..<12 where n - k >= 0 { sum += phase[k] * x[n - k] }
                loudest = max(loudest, abs(sum))
            }
        }
        return 20 * log10(loudest)
    }

    private func samplePeakDB(_ samples: [Int32]) -> Double {
        20 * log10(values(samples).reduce(0) { max($0, abs($1)) })
    }

    @Test("the interpolator is the standard's: Σ|h| of its widest phase is 2.02 (+6.1 dB)")
    func interpolator() {
        #expect(TruePeakInterpolator.phases.count == 4)
        #expect(TruePeakInterpolator.phases.allSatisfy { $0.count == 12 })
        #expect(abs(TruePeakInterpolator.amplification - 2.0229) < 0.001)
        // Every phase passes DC within 3 %, as an interpolator must.
        for phase in TruePeakInterpolator.phases { #expect(abs(phase.reduce(0, +) - 1) < 0.03) }
    }

    @Test("a sine at fs/4 with 45° phase: samples at 0.707, true peak 1.0, held at −1 dBTP")
    func quarterRateSine() {
        let sine = (0..<44_100).map { sin(Double.pi / 2 * Double($0) + Double.pi / 4) * 0.999 }
        let input = samples(sine)
        #expect(abs(samplePeakDB(input) - -3.0) < 0.1)
        #expect(truePeakDB(input) > -0.2)  // what a sample-peak limiter would let through
        let output = limited(input)
        #expect(output.count == input.count)
        #expect(truePeakDB(output) <= -1 + 0.05)
        #expect(truePeakDB(output) >= -1 - 0.3)  // held at the ceiling, not far below it
    }

    @Test("a band-limited transient 12 dB over the ceiling is held at −1 dBTP", arguments: [0.0, 0.25, 0.5])
    func transient(offset: Double) {
        // A windowed sinc centred between samples: its samples underread its peak by up to 3.9 dB.
        let centre = 20_000.0 + offset
        let pulse = (0..<44_100).map { index -> Double in
            let t = Double(index) - centre
            let sinc = t == 0 ? 1 : sin(0.9 * Double.pi * t) / (0.9 * Double.pi * t)
            let window = abs(t) < 64 ? 0.5 + 0.5 * cos(Double.pi * t / 64) : 0
            return 0.02 * sin(Double(index) * 0.05) + 0.7 * sinc * window
        }
        let input = samples(pulse)
        let output = limited(input, gainDB: 12)
        #expect(output.count == input.count)
        #expect(truePeakDB(output) <= -1 + 0.05)
        #expect(truePeakDB(output) > -2)
    }

    @Test("unity gain where nothing exceeds the ceiling: every sample comes out as it went in")
    func unity() {
        let quiet = (0..<20_000).map { sin(Double($0) * 0.03) * 0.5 }
        let input = samples(quiet)
        let output = limited(input, block: 777)
        #expect(output == input)
    }

    @Test("the output is as long as the input for any block size, and loud audio ramps instead of stepping")
    func lengthAndRamp() {
        let loud = (0..<10_007).map { (index: Int) -> Double in
            let amplitude: Double = index < 5_000 ? 0.1 : 0.95
            return amplitude * sin(Double(index) * 0.1)
        }
        let input = samples(loud)
        for block in [1, 64, 4_096, 20_000] {
            #expect(limited(input, block: block).count == input.count)
        }
        // The gain falls over the 5 ms lookahead before the loud part: no sample before it is
        // attenuated by more than the loud part needs, and the change per sample stays small.
        let output = values(limited(input))
        let gains = zip(output, values(input)).map { abs($1) > 0.05 ? $0 / $1 : Double.nan }.filter { !$0.isNaN }
        let steps = zip(gains, gains.dropFirst()).map { abs($1 - $0) }
        #expect(steps.max()! < 0.02)
    }

    @Test("stereo: the louder channel sets one gain for both")
    func stereo() {
        let stereoFormat = AudioFormat(sampleRate: 48_000, channels: 2, bitsPerSample: 24)
        var limiter = PeakLimiter(gain: SampleGain(decibels: 0), ceiling: Decibels(-1), format: stereoFormat)
        let frames = 48_000
        var input: [Int32] = []
        for index in 0..<frames {
            let left = sin(Double.pi / 2 * Double(index) + Double.pi / 4) * 0.99
            input += [Int32(left * 8_388_607) << 8, Int32(left * 0.25 * 8_388_607) << 8]
        }
        let output = input.withUnsafeBufferPointer { limiter.process($0) } + limiter.flush()
        #expect(output.count == input.count)
        let left = stride(from: 0, to: output.count, by: 2).map { output[$0] }
        let right = stride(from: 1, to: output.count, by: 2).map { output[$0] }
        #expect(truePeakDB(left) <= -1 + 0.05)
        // Same gain on both: the right channel keeps its −12 dB relation to the left.
        let middle = frames / 2
        #expect(abs(Double(right[middle]) / Double(left[middle]) - 0.25) < 0.01)
    }
}
