import Foundation
import NarrationAudio
import NarrationCore
import NarrationTestSupport
import Testing

/// The export's spectral noise gate on real speech (LibriVox) in a synthetic fan-noisy room.
@Suite("Spectral noise gate")
struct SpectralNoiseGateTests {
    private let format = AudioFormat.speech

    /// Utterance 1 (5.3 s) with 1.5 s of room before and 1 s after, over fan noise at `floor`.
    private func noisySpeech(floor: Double, seed: UInt64 = 7, channelSeed: UInt64? = nil) throws -> (samples: [Double], room: Range<Int>) {
        let speech = try NoisyRoom.utterance(1)
        let head = 66_150, tail = 44_100
        let voice = [Double](repeating: 0, count: head) + speech + [Double](repeating: 0, count: tail)
        let noise = NoisyRoom.fan(seconds: Double(voice.count) / 44_100 + 0.1, seed: seed, floor: floor)
        return (zip(voice, noise).map { $0 + $1 }, 2_205..<(head - 2_205))
    }

    private func profile(_ samples: [Int32], room: Range<Int>, format: AudioFormat) -> NoiseProfile {
        let channels = format.channels
        return NoiseProfile(stretches: [Array(samples[(room.lowerBound * channels)..<(room.upperBound * channels)])], format: format)
    }

    /// The samples through a reducer fed in blocks of `block` frames, flushed at the end.
    private func gate(_ samples: [Int32], _ settings: NoiseReducer.Settings, format: AudioFormat, block: Int) -> [Int32] {
        let reducer = NoiseReducer(settings, format: format)
        var output: [Int32] = []
        let step = block * format.channels
        samples.withUnsafeBufferPointer { buffer in
            for start in stride(from: 0, to: samples.count, by: step) {
                output += reducer.process(UnsafeBufferPointer(rebasing: buffer[start..<min(samples.count, start + step)]))
            }
        }
        return output + reducer.flush()
    }

    private func doubles(_ samples: [Int32]) -> [Double] { samples.map { Double($0) / 2_147_483_648 } }

    @Test("the noise floor after is the floor before less the reduction, within 0.5 dB, and the speech keeps its level within 2 dB", arguments: [12.0, 21, 30])
    func floorFallsByTheReduction(reduction: Double) throws {
        let (noisy, room) = try noisySpeech(floor: -45)
        let input = NoisyRoom.int32(noisy)
        let settings = NoiseReducer.Settings(profile: profile(input, room: room, format: format), decibels: reduction)
        let output = gate(input, settings, format: format, block: 4_410)
        #expect(output.count == input.count)
        let before = NoisyRoom.noiseFloor(doubles(input)), after = NoisyRoom.noiseFloor(doubles(output))
        #expect(abs(after - (before - reduction)) <= 0.5, "floor \(before) → \(after) dBFS at \(reduction) dB")
        let speech = 66_150..<(input.count - 44_100)
        let speechBefore = NoisyRoom.rms(doubles(Array(input[speech]))), speechAfter = NoisyRoom.rms(doubles(Array(output[speech])))
        #expect(abs(speechAfter - speechBefore) <= 2, "speech RMS \(speechBefore) → \(speechAfter) dBFS")
        print("figure: noise gate \(Int(reduction)) dB on LibriVox speech over fan noise: floor \(String(format: "%.1f", before)) → \(String(format: "%.1f", after)) dBFS, speech RMS \(String(format: "%.2f", speechBefore)) → \(String(format: "%.2f", speechAfter)) dBFS")
    }

    @Test("fed in blocks of 1, 7, 4410 frames or all at once, the output is the same to the bit")
    func blockSizeIndependent() throws {
        let (noisy, room) = try noisySpeech(floor: -44)
        let input = Array(NoisyRoom.int32(noisy).prefix(3 * 44_100))
        let settings = NoiseReducer.Settings(profile: profile(input, room: room, format: format), decibels: 21)
        let whole = gate(input, settings, format: format, block: input.count)
        #expect(whole.count == input.count)
        #expect(whole != input)
        for block in [1, 7, 4_410] {
            let output = gate(input, settings, format: format, block: block)
            #expect(output == whole, "blocks of \(block): first difference at \(zip(output, whole).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1)")
        }
    }

    @Test("with a reduction of 0 dB, or on speech louder than the room's profile everywhere, the samples come out as they went in, within a 16-bit step")
    func transparent() throws {
        let (noisy, room) = try noisySpeech(floor: -44)
        let input = NoisyRoom.int32(noisy)
        let noReduction = gate(input, NoiseReducer.Settings(profile: profile(input, room: room, format: format), decibels: 0), format: format, block: 4_410)
        let step = Int64(1 << 16)
        #expect(zip(input, noReduction).allSatisfy { abs(Int64($0) - Int64($1)) <= step })

        // A profile of a room 50 dB quieter than the one recorded: every bin is louder than it.
        let quietRoom = NoisyRoom.int32(NoisyRoom.fan(seconds: 2, seed: 8, floor: -94))
        let settings = NoiseReducer.Settings(profile: NoiseProfile(stretches: [quietRoom], format: format), decibels: 21)
        let speech = gate(input, settings, format: format, block: 4_410)
        let largest = zip(input, speech).map { abs(Int64($0) - Int64($1)) }.max() ?? 0
        #expect(largest <= step, "largest difference \(largest / step) steps")
    }

    @Test("stereo: each channel is gated with its own room's profile, as a mono gate would")
    func stereo() throws {
        let left = try noisySpeech(floor: -45, seed: 11), right = try noisySpeech(floor: -50, seed: 12)
        let stereo = AudioFormat(sampleRate: 44_100, channels: 2, bitsPerSample: 16)
        let leftSamples = NoisyRoom.int32(left.samples), rightSamples = NoisyRoom.int32(right.samples)
        var interleaved = [Int32](repeating: 0, count: 2 * leftSamples.count)
        for frame in leftSamples.indices {
            interleaved[2 * frame] = leftSamples[frame]
            interleaved[2 * frame + 1] = rightSamples[frame]
        }
        let settings = NoiseReducer.Settings(profile: profile(interleaved, room: left.room, format: stereo), decibels: 18)
        #expect(settings.profile.meanPowers.count == 2)
        let output = gate(interleaved, settings, format: stereo, block: 4_410)
        #expect(output.count == interleaved.count)
        let outLeft = stride(from: 0, to: output.count, by: 2).map { output[$0] }
        let outRight = stride(from: 1, to: output.count, by: 2).map { output[$0] }
        let mono = NoiseReducer.Settings(profile: profile(leftSamples, room: left.room, format: format), decibels: 18)
        #expect(outLeft == gate(leftSamples, mono, format: format, block: 4_410))
        for (name, before, after) in [("left", leftSamples, outLeft), ("right", rightSamples, outRight)] {
            let floorBefore = NoisyRoom.noiseFloor(doubles(before)), floorAfter = NoisyRoom.noiseFloor(doubles(after))
            #expect(abs(floorAfter - (floorBefore - 18)) <= 0.5, "\(name): \(floorBefore) → \(floorAfter) dBFS")
        }
    }

    @Test("the window is about 46 ms, a power of two", arguments: [(16_000, 512), (22_050, 1_024), (44_100, 2_048), (48_000, 2_048)])
    func windowSizes(rate: Int, size: Int) {
        #expect(NoiseProfile.windowSize(sampleRate: rate) == size)
    }

    @Test("a profile of stretches all shorter than a window has no windows")
    func shortProfile() {
        let profile = NoiseProfile(stretches: [[Int32](repeating: 1 << 20, count: 2_047), [Int32](repeating: 1 << 20, count: 100)], format: format)
        #expect(profile.windows == 0)
        let one = NoiseProfile(stretches: [[Int32](repeating: 1 << 20, count: 2_048 + 511)], format: format)
        #expect(one.windows == 1)
        let two = NoiseProfile(stretches: [[Int32](repeating: 1 << 20, count: 2_048 + 512)], format: format)
        #expect(two.windows == 2)
    }
}
