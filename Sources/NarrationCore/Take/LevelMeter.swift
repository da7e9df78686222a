import func Foundation.pow
import func Foundation.sqrt

/// The levels of one channel over a stretch of audio, as AVAudioRecorder meters them:
/// average power (RMS) and peak power, both in dBFS.
public struct ChannelLevel: Hashable, Sendable {
    public var average: Decibels
    public var peak: Decibels

    public init(average: Decibels, peak: Decibels) {
        self.average = average
        self.peak = peak
    }

    public static let silent = ChannelLevel(average: .silence, peak: .silence)
}

/// Accumulates the sum of squares and the peak of interleaved, left-justified `Int32` samples
/// (full scale `Int32.max`), per channel. Cheap enough for the capture thread: one pass, no allocation.
public struct LevelAccumulator: Sendable {
    public let channels: Int
    private var sumOfSquares: [Double]
    private var peaks: [Int64]
    private var samplesPerChannel: Int = 0

    public init(channels: Int) {
        precondition(channels > 0, "a level accumulator needs at least one channel")
        self.channels = channels
        self.sumOfSquares = Array(repeating: 0, count: channels)
        self.peaks = Array(repeating: 0, count: channels)
    }

    /// Adds interleaved samples; `samples.count` must be a whole number of frames.
    public mutating func add(_ samples: UnsafeBufferPointer<Int32>) {
        precondition(samples.count % channels == 0, "samples must be whole frames")
        let scale = 1.0 / Double(Int32.max)
        for channel in 0..<channels {
            var sum = 0.0
            var peak = peaks[channel]
            var index = channel
            while index < samples.count {
                let sample = Int64(samples[index])
                let magnitude = sample < 0 ? -sample : sample
                if magnitude > peak { peak = magnitude }
                let normalised = Double(sample) * scale
                sum += normalised * normalised
                index += channels
            }
            sumOfSquares[channel] += sum
            peaks[channel] = peak
        }
        samplesPerChannel += samples.count / channels
    }

    /// Forgets what was added, keeping its storage (no allocation: safe on the capture thread).
    public mutating func reset() {
        for channel in 0..<channels {
            sumOfSquares[channel] = 0
            peaks[channel] = 0
        }
        samplesPerChannel = 0
    }

    /// Adds the levels another accumulator gathered (the same number of channels).
    public mutating func merge(_ other: LevelAccumulator) {
        precondition(other.channels == channels, "cannot merge meters of different channel counts")
        for channel in 0..<channels {
            sumOfSquares[channel] += other.sumOfSquares[channel]
            peaks[channel] = max(peaks[channel], other.peaks[channel])
        }
        samplesPerChannel += other.samplesPerChannel
    }

    /// How many frames were added.
    public var frames: FrameCount { samplesPerChannel }

    /// Average and peak power of each channel.
    public var levels: [ChannelLevel] {
        (0..<channels).map { channel in
            guard samplesPerChannel > 0 else { return .silent }
            let rms = sqrt(sumOfSquares[channel] / Double(samplesPerChannel))
            return ChannelLevel(
                average: Decibels(amplitude: rms),
                peak: Decibels(amplitude: Double(peaks[channel]) / Double(Int32.max)))
        }
    }

    /// The highest peak over all channels.
    public var peak: Decibels { levels.map(\.peak).max() ?? .silence }

    /// The RMS over all samples of all channels.
    public var rms: Decibels {
        guard samplesPerChannel > 0 else { return .silence }
        return Decibels(amplitude: sqrt(sumOfSquares.reduce(0, +) / Double(samplesPerChannel * channels)))
    }
}

/// Maps decibels to the 0…1 level a meter shows, as Apple's `MeterTable` does for AVAudioRecorder:
/// amplitude rescaled so that the floor maps to 0, then a square root so that speech fills the meter.
public struct MeterTable: Sendable, Equatable {
    public let floor: Decibels
    private let floorAmplitude: Double

    public init(floor: Decibels = Decibels(-60)) {
        self.floor = floor
        self.floorAmplitude = floor.amplitude
    }

    /// The meter level, 0 at or below the floor, 1 at full scale.
    public func level(_ decibels: Decibels) -> Double {
        guard decibels > floor else { return 0 }
        guard decibels.value < 0 else { return 1 }
        let adjusted = (decibels.amplitude - floorAmplitude) / (1 - floorAmplitude)
        return pow(adjusted, 0.5)
    }
}
