/// Turns interleaved left-justified samples of one channel count into another, for audio
/// imported into an article: pure arithmetic, no state between blocks.
///
/// - To mono: the mean of all channels (stereo: (left + right) / 2), rounded to the nearest.
///   A mean never exceeds the loudest channel, so it cannot clip.
/// - Mono to stereo: the one channel on both sides.
/// - Three channels or more to stereo: the mean of all channels on both sides. Surround layouts
///   differ between files and the centre channel usually holds the speech, so no channel is
///   dropped and none is guessed to be left or right.
/// - The same count: unchanged.
public struct ChannelMixer: Sendable, Equatable {
    public let inputChannels: Int
    public let outputChannels: Int

    public init(from inputChannels: Int, to outputChannels: Int) {
        precondition(inputChannels > 0 && (1...2).contains(outputChannels), "a mixer takes 1 or more channels to mono or stereo")
        self.inputChannels = inputChannels
        self.outputChannels = outputChannels
    }

    /// Whether the mixer leaves samples as they are.
    public var isIdentity: Bool { inputChannels == outputChannels }

    /// The frames of `input` in the output's channel count.
    public func mix(_ input: UnsafeBufferPointer<Int32>) -> [Int32] {
        precondition(input.count % inputChannels == 0, "mix takes whole frames")
        if isIdentity { return Array(input) }
        let frames = input.count / inputChannels
        var output = [Int32](repeating: 0, count: frames * outputChannels)
        for frame in 0..<frames {
            let value: Int32
            if inputChannels == 1 {
                value = input[frame]
            } else {
                var sum: Int64 = 0
                for channel in 0..<inputChannels { sum += Int64(input[frame * inputChannels + channel]) }
                value = Self.mean(sum, of: inputChannels)
            }
            for channel in 0..<outputChannels { output[frame * outputChannels + channel] = value }
        }
        return output
    }

    /// `sum / count` rounded to the nearest, halves away from zero.
    static func mean(_ sum: Int64, of count: Int) -> Int32 {
        let count = Int64(count)
        let half = count / 2
        return Int32(sum >= 0 ? (sum + half) / count : (sum - half) / count)
    }
}

/// Rounds left-justified samples to the nearest value of a bit depth, so that a file of that
/// depth stores them without a further truncation (libsndfile keeps only the top bits).
///
/// Halves round up (towards +∞). A sample that would round above the depth's highest value
/// (within half a step of full scale) is held at that value: it saturates, never wraps.
/// No dither is added.
public struct SampleRounding: Sendable, Equatable {
    public let bitsPerSample: Int

    public init(bitsPerSample: Int) {
        precondition((1...32).contains(bitsPerSample), "a depth of 1 to 32 bits")
        self.bitsPerSample = bitsPerSample
    }

    /// The highest left-justified value the depth holds: 0x7FFF0000 for 16 bits.
    public var highest: Int32 { Int32.max & mask }

    private var mask: Int32 { bitsPerSample == 32 ? -1 : ~Int32((1 << (32 - bitsPerSample)) - 1) }

    /// `sample` rounded to the depth.
    public func rounded(_ sample: Int32) -> Int32 {
        guard bitsPerSample < 32 else { return sample }
        let half = Int64(1) << (31 - bitsPerSample)
        let raised = Int64(sample) + half
        return raised > Int64(highest) ? highest : Int32(raised) & mask
    }

    /// Rounds every sample in place.
    public func apply(to samples: inout [Int32]) {
        guard bitsPerSample < 32 else { return }
        for index in samples.indices { samples[index] = rounded(samples[index]) }
    }
}
