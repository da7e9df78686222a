import NarrationCore
import Testing

@Suite("Channels and depth of imported audio")
struct ChannelMixerTests {
    @Test("stereo to mono is the mean of the channels, rounded to the nearest, halves away from zero", arguments: [
        ([1_000, 3_000], 2_000), ([Int32.max, Int32.max], Int32.max), ([Int32.min, Int32.min], Int32.min),
        ([Int32.max, Int32.min], -1), ([1, 2], 2), ([-1, -2], -2), ([7, -7], 0),
    ] as [([Int32], Int32)])
    func stereoToMono(frame: [Int32], mean: Int32) {
        let mixed = frame.withUnsafeBufferPointer { ChannelMixer(from: 2, to: 1).mix($0) }
        #expect(mixed == [mean])
    }

    @Test("mono to stereo puts the channel on both sides; six channels to stereo put their mean on both sides")
    func upAndSurround() {
        let mono: [Int32] = [5, -9, Int32.max]
        #expect(mono.withUnsafeBufferPointer { ChannelMixer(from: 1, to: 2).mix($0) } == [5, 5, -9, -9, Int32.max, Int32.max])
        let surround: [Int32] = [6, 12, 18, 0, -6, -12, 600, 600, 600, 600, 600, 600]
        #expect(surround.withUnsafeBufferPointer { ChannelMixer(from: 6, to: 2).mix($0) } == [3, 3, 600, 600])
        #expect(surround.withUnsafeBufferPointer { ChannelMixer(from: 6, to: 1).mix($0) } == [3, 600])
        #expect(ChannelMixer(from: 2, to: 2).isIdentity)
    }

    @Test("rounding to 16 and 24 bits goes to the nearest step, halves up, and holds full scale instead of wrapping", arguments: [
        (16, 0x0000_7FFF, 0), (16, 0x0000_8000, 0x0001_0000), (16, -0x8000, 0), (16, -0x8001, -0x1_0000),
        (16, 0x1234_5678, 0x1234_0000), (16, 0x1234_C000, 0x1235_0000),
        (16, Int32.max, 0x7FFF_0000), (16, 0x7FFF_7FFF, 0x7FFF_0000), (16, 0x7FFF_8000, 0x7FFF_0000), (16, Int32.min, Int32.min),
        (24, 0x0000_007F, 0), (24, 0x0000_0080, 0x100), (24, Int32.max, 0x7FFF_FF00), (24, Int32.min, Int32.min),
    ] as [(Int, Int32, Int32)])
    func rounding(bits: Int, sample: Int32, rounded: Int32) {
        #expect(SampleRounding(bitsPerSample: bits).rounded(sample) == rounded)
    }
}
