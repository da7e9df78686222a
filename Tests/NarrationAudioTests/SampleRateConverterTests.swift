import Foundation
import NarrationAudio
import Testing

@Suite("Converting sample rates through libsoxr")
struct SampleRateConverterTests {
    /// A tone of `hertz` at `amplitude` of full scale, left-justified, `channels` the same.
    static func tone(hertz: Double, amplitude: Double, rate: Int, seconds: Double, channels: Int) -> [Int32] {
        let frames = Int(Double(rate) * seconds)
        return (0..<frames).flatMap { frame in
            let value = Int32(amplitude * Double(Int32.max) * sin(2 * .pi * hertz * Double(frame) / Double(rate)))
            return [Int32](repeating: value, count: channels)
        }
    }

    @Test("the output has the input's length at the new rate, and a tone keeps its pitch and level",
          arguments: [(48_000, 44_100, 2), (44_100, 48_000, 1), (22_050, 44_100, 1), (44_100, 16_000, 1)])
    func toneKept(input: Int, output: Int, channels: Int) {
        let seconds = 1.5
        let samples = Self.tone(hertz: 440, amplitude: 0.5, rate: input, seconds: seconds, channels: channels)
        let converted = SampleRateConverter.convert(samples, channels: channels, from: input, to: output)
        let frames = converted.count / channels
        let expected = Double(samples.count / channels) * Double(output) / Double(input)
        #expect(abs(Double(frames) - expected) <= 1, "\(frames) frames, expected \(expected)")

        // Away from the edges: each channel the same, the level within 0.1 dB, 440 Hz by zero crossings.
        let middle = (frames / 4)..<(frames * 3 / 4)
        let first = middle.map { Double(converted[$0 * channels]) / Double(Int32.max) }
        for channel in 1..<channels {
            #expect(middle.allSatisfy { converted[$0 * channels + channel] == converted[$0 * channels] })
        }
        let peak = first.map(abs).max() ?? 0
        #expect(abs(20 * log10(peak / 0.5)) < 0.1, "peak \(peak)")
        let crossings = zip(first, first.dropFirst()).filter { $0.0 < 0 && $0.1 >= 0 }.count
        let hertz = Double(crossings) / (Double(middle.count) / Double(output))
        #expect(abs(hertz - 440) < 3, "\(hertz) Hz")
    }

    @Test("fed in small blocks, the stream is the same as converted at once")
    func blocksMatchWhole() {
        let samples = Self.tone(hertz: 1_000, amplitude: 0.3, rate: 44_100, seconds: 0.7, channels: 1)
        let whole = SampleRateConverter.convert(samples, channels: 1, from: 44_100, to: 48_000)
        let converter = SampleRateConverter(from: 44_100, to: 48_000, channels: 1)
        var streamed: [Int32] = []
        for start in stride(from: 0, to: samples.count, by: 997) {
            let block = Array(samples[start..<min(start + 997, samples.count)])
            streamed += block.withUnsafeBufferPointer { converter.convert($0) }
        }
        streamed += converter.finish()
        #expect(streamed == whole)
    }

    @Test("whatever the ratio, output comes in blocks of at most outputBlockFrames frames, and all of it",
          arguments: [(8_000, 48_000, 1), (4_000, 48_000, 2), (192_000, 16_000, 1), (384_000, 16_000, 1)])
    func boundedBlocks(input: Int, output: Int, channels: Int) {
        let samples = Self.tone(hertz: 300, amplitude: 0.3, rate: input, seconds: 3, channels: channels)
        let converter = SampleRateConverter(from: input, to: output, channels: channels)
        var largest = 0, total = 0
        let take = { (block: ArraySlice<Int32>) in
            largest = max(largest, block.count / channels)
            total += block.count / channels
        }
        samples.withUnsafeBufferPointer { converter.convert($0, emit: take) }  // the whole signal in one call
        converter.finish(emit: take)
        #expect(largest <= SampleRateConverter.outputBlockFrames)
        #expect(largest == SampleRateConverter.outputBlockFrames || output < input, "a large output fills whole blocks")
        let expected = Double(samples.count / channels) * Double(output) / Double(input)
        #expect(abs(Double(total) - expected) <= 1, "\(total) frames, expected \(expected)")
        print("figure: \(input) → \(output) Hz, \(channels) ch: \(total) frames in blocks of at most \(largest)")
    }
}
