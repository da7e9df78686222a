import Foundation

/// Applies a gain and keeps every sample at or below a ceiling: a lookahead peak limiter.
///
/// Loudness normalisation of speech needs one: speech peaks 15–20 dB above its loudness, so a
/// plain gain up to a −16 or −19 LUFS target would clip. Each sample's gain is the lowest gain
/// any sample in the next `lookahead` needs (so the gain is down before a peak arrives), and it
/// recovers towards the plain gain with a `release` time constant. Output lags input by the
/// lookahead; `flush()` returns the rest, so the output is exactly as long as the input. Works on
/// left-justified `Int32` samples in floating point, rounding once at the format's depth.
public struct PeakLimiter: Sendable {
    public let gain: Double
    public let ceiling: Double
    public let channels: Int
    private let bitsPerSample: Int
    private let lookahead: Int
    private let releaseCoefficient: Double
    /// Frames waiting to come out (interleaved), and the gain each frame needs.
    private var delayed: [Double] = []
    private var needed: [Double] = []
    private var head = 0
    private var envelope = 1.0
    /// Indexes into `needed` whose values increase: the front is the lowest need in the window.
    private var window: [Int] = []
    private var windowHead = 0
    private var windowEnd = 0

    public init(gain: SampleGain, ceiling: Decibels, format: AudioFormat, lookaheadSeconds: Double = 0.005, releaseSeconds: Double = 0.08) {
        self.gain = gain.linear
        self.ceiling = min(1, ceiling.amplitude)
        channels = format.channels
        bitsPerSample = format.bitsPerSample
        lookahead = max(1, format.frames(forSeconds: lookaheadSeconds))
        releaseCoefficient = exp(-1 / (releaseSeconds * Double(format.sampleRate)))
    }

    /// Takes a block; returns the limited frames that are ready (lagging by the lookahead).
    public mutating func process(_ samples: UnsafeBufferPointer<Int32>) -> [Int32] {
        let scale = 1 / Double(Int32.max)
        for frame in 0..<(samples.count / channels) {
            var loudest = 0.0
            for channel in 0..<channels {
                let value = Double(samples[frame * channels + channel]) * scale * gain
                delayed.append(value)
                loudest = max(loudest, abs(value))
            }
            needed.append(loudest > ceiling ? ceiling / loudest : 1)
        }
        return emit(keeping: lookahead)
    }

    /// The frames still held back.
    public mutating func flush() -> [Int32] { emit(keeping: 0) }

    private mutating func emit(keeping keep: Int) -> [Int32] {
        let available = needed.count - head
        guard available > keep else { return [] }
        let step = Double(1 << (32 - bitsPerSample))
        let highest = Double(Int32.max) - step + 1
        var output: [Int32] = []
        output.reserveCapacity((available - keep) * channels)
        for frame in head..<(needed.count - keep) {
            // Slide the lookahead window to frame…frame+lookahead: a monotonic queue keeps its minimum.
            let end = min(needed.count, frame + lookahead + 1)
            while windowEnd < end {
                while window.count > windowHead, needed[window[window.count - 1]] >= needed[windowEnd] { window.removeLast() }
                window.append(windowEnd)
                windowEnd += 1
            }
            while window[windowHead] < frame { windowHead += 1 }
            let target = needed[window[windowHead]]
            envelope = target < envelope ? target : target - (target - envelope) * releaseCoefficient
            for channel in 0..<channels {
                let value = delayed[frame * channels + channel] * envelope * Double(Int32.max)
                output.append(Int32(max(Double(Int32.min), min(highest, (value / step).rounded() * step))))
            }
        }
        head = needed.count - keep
        if head > 65_536 {
            needed.removeFirst(head)
            delayed.removeFirst(head * channels)
            window = window[windowHead...].map { $0 - head }
            windowHead = 0
            windowEnd -= head
            head = 0
        }
        return output
    }
}
