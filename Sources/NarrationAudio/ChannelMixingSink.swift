public import NarrationCore

/// An `AudioSink` that mixes the channels on the way into another sink (see `ChannelMixer`): what
/// an export of a stereo article writes through for a profile that wants mono.
public final class ChannelMixingSink: AudioSink, @unchecked Sendable {
    private let mixer: ChannelMixer
    private let sink: any AudioSink

    /// Samples arrive with `mixer.inputChannels` and go into `sink`, which must be made for
    /// `mixer.outputChannels`.
    public init(_ mixer: ChannelMixer, into sink: any AudioSink) {
        self.mixer = mixer
        self.sink = sink
    }

    public func write(_ samples: UnsafeBufferPointer<Int32>) throws(NarrationError) {
        try mixer.mix(samples).withUnsafeBufferPointer { (buffer) throws(NarrationError) in try sink.write(buffer) }
    }

    public func close() throws(NarrationError) { try sink.close() }
}

/// An `AudioSink` that rounds samples to a bit depth on the way into another sink (see
/// `SampleRounding`: to the nearest, held at full scale), so that a file of a lower depth than
/// the article's (a 24-bit article in a 16-bit WAV) is rounded rather than truncated by
/// libsndfile.
public final class RoundingSink: AudioSink, @unchecked Sendable {
    private let rounding: SampleRounding
    private let sink: any AudioSink
    private var scratch: [Int32] = []

    public init(bitsPerSample: Int, into sink: any AudioSink) {
        rounding = SampleRounding(bitsPerSample: bitsPerSample)
        self.sink = sink
    }

    public func write(_ samples: UnsafeBufferPointer<Int32>) throws(NarrationError) {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: samples)
        rounding.apply(to: &scratch)
        try scratch.withUnsafeBufferPointer { (buffer) throws(NarrationError) in try sink.write(buffer) }
    }

    public func close() throws(NarrationError) { try sink.close() }
}
