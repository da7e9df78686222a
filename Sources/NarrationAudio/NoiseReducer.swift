public import NarrationCore

/// The export's noise reduction: interleaved left-justified samples through one
/// `SpectralNoiseGate` per channel, each with its channel's noise profile, rounded back to the
/// format's depth. Streaming like `PeakLimiter`: `process` returns what is ready, `flush` the
/// rest, and the output is exactly as long as the input and aligned with it.
///
/// Not thread-safe: one owner feeds it.
public final class NoiseReducer: @unchecked Sendable {
    /// What an export reduces noise with: the room's profile and how many dB.
    public struct Settings: Sendable, Hashable {
        public let profile: NoiseProfile
        public let decibels: Double

        public init(profile: NoiseProfile, decibels: Double) {
            self.profile = profile
            self.decibels = decibels
        }
    }

    public let format: AudioFormat
    private let gates: [SpectralNoiseGate]
    private var channelInput: [[Float]]
    private var channelOutput: [[Float]]

    /// - Precondition: the profile was taken at the format's rate and channels (a programmer error).
    public init(_ settings: Settings, format: AudioFormat) {
        let profile = settings.profile
        precondition(
            profile.sampleRate == format.sampleRate && profile.meanPowers.count == format.channels,
            "a noise profile of \(profile.sampleRate) Hz, \(profile.meanPowers.count) channel(s) for \(format)")
        self.format = format
        gates = profile.meanPowers.map {
            SpectralNoiseGate(profile: $0, sampleRate: format.sampleRate, windowSize: profile.windowSize, reductionDecibels: settings.decibels)
        }
        channelInput = Array(repeating: [], count: format.channels)
        channelOutput = Array(repeating: [], count: format.channels)
    }

    /// Frames the gate holds back: how far a stretch must reach past the frames wanted from it.
    public var latency: FrameCount { gates.first?.latency ?? 0 }

    /// The gate's hop: a gate started at a multiple of it from the stream's start analyses the
    /// same windows as one started at the start.
    public var hop: FrameCount { gates.first?.hop ?? 1 }

    /// Takes a block of whole frames; returns the gated frames that are ready.
    public func process(_ samples: UnsafeBufferPointer<Int32>) -> [Int32] {
        let channels = format.channels
        precondition(samples.count % channels == 0, "the noise gate takes whole frames")
        let frames = samples.count / channels
        for channel in 0..<channels {
            channelInput[channel].removeAll(keepingCapacity: true)
            channelInput[channel].reserveCapacity(frames)
            for frame in 0..<frames { channelInput[channel].append(Float(samples[frame * channels + channel]) * SpectralNoiseGate.fromInt32) }
            channelOutput[channel].removeAll(keepingCapacity: true)
            channelInput[channel].withUnsafeBufferPointer { gates[channel].process($0, into: &channelOutput[channel]) }
        }
        return interleaved()
    }

    /// Ends the stream: the frames still held back.
    public func flush() -> [Int32] {
        for channel in 0..<format.channels {
            channelOutput[channel].removeAll(keepingCapacity: true)
            gates[channel].flush(into: &channelOutput[channel])
        }
        return interleaved()
    }

    /// The channels' outputs interleaved, each sample rounded to the format's depth and held at full scale.
    private func interleaved() -> [Int32] {
        let channels = format.channels
        let frames = channelOutput[0].count
        let step = Double(1 << (32 - format.bitsPerSample))
        let highest = Double(Int32.max) - step + 1
        let scale = 2_147_483_648 / step
        var output = [Int32](repeating: 0, count: frames * channels)
        for channel in 0..<channels {
            precondition(channelOutput[channel].count == frames, "every channel's gate gives the same frames")
            for frame in 0..<frames {
                let value = (Double(channelOutput[channel][frame]) * scale).rounded() * step
                output[frame * channels + channel] = Int32(max(Double(Int32.min), min(highest, value)))
            }
        }
        return output
    }
}
