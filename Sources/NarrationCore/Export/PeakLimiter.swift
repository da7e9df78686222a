import Foundation

/// Applies a gain and keeps the true peak (ITU-R BS.1770-4 Annex 2, `TruePeakInterpolator`) at or
/// below a ceiling: a lookahead limiter.
///
/// Loudness normalisation of speech needs one: speech peaks 15–20 dB above its loudness, so a
/// plain gain up to a −16 or −19 LUFS target would clip. Holding sample peaks is not enough: a
/// sharp transient's waveform between samples rises up to several dB above them, which is what
/// dBTP rules, libebur128 and ffmpeg measure (and what a decoder's output filter reconstructs).
///
/// Each frame needs the gain that brings its samples and every value interpolated from taps it
/// belongs to under the ceiling (an interpolated value reads 12 frames, so its need covers all
/// 12; the `TruePeakInterpolator` shortcut skips frames that cannot exceed it). The gain is the
/// lowest need held over the next `lookahead` frames, averaged over the last `lookahead` frames:
/// the average of values that are each at most a frame's need is at most that need, and it falls
/// in a straight ramp over the lookahead instead of a step (a step is a click). It recovers
/// towards the plain gain with a `release` time constant. Output lags input by the lookahead plus
/// 11 frames; `flush()` returns the rest, so the output is exactly as long as the input. Works on
/// left-justified `Int32` samples in floating point, rounding once at the format's depth.
///
/// The gain varies a little across the 12 taps of a value on a ramp, so the output's true peak
/// can differ from the ceiling by a few hundredths of a dB either way; rounding to 16 bits adds
/// half a step. Profiles keep a margin below their rules for that and for the encoder.
public struct PeakLimiter: Sendable {
    public let gain: Double
    public let ceiling: Double
    public let channels: Int
    private let bitsPerSample: Int
    private let lookahead: Int
    private let releaseCoefficient: Double
    /// Below this, no sample within the taps can make an interpolated value exceed the ceiling.
    private let quietBound: Double
    /// Frames waiting to come out (interleaved, gain applied), and the gain each frame needs.
    private var delayed: [Double] = []
    private var needed: [Double] = []
    /// Frames taken in (including the silence `flush` adds), and frames given out.
    private var received = 0
    private var head = 0
    /// Frames since a sample above `quietBound`, per the whole frame: interpolate while < 12.
    private var sinceLoud = Int.max
    /// Indexes into `needed` whose values increase: the front is the lowest need in the window.
    private var window: [Int] = []
    private var windowHead = 0
    private var windowEnd = 0
    /// The held minimum of the last `lookahead` frames, a ring, and its sum (for the average).
    private var held: [Double]
    private var heldSum: Double
    private var heldPosition = 0
    private var envelope = 1.0
    /// Each channel's last `taps` samples for the interpolator: a ring written twice (at `position`
    /// and `position + taps`), so the last 12 are always contiguous and end at `position + taps`.
    private var history: [Double]
    private var position = 0

    public init(gain: SampleGain, ceiling: Decibels, format: AudioFormat, lookaheadSeconds: Double = 0.005, releaseSeconds: Double = 0.08) {
        self.gain = gain.linear
        self.ceiling = min(1, ceiling.amplitude)
        channels = format.channels
        bitsPerSample = format.bitsPerSample
        lookahead = max(1, format.frames(forSeconds: lookaheadSeconds))
        releaseCoefficient = exp(-1 / (releaseSeconds * Double(format.sampleRate)))
        quietBound = self.ceiling / TruePeakInterpolator.amplification
        held = Array(repeating: 1, count: lookahead)
        heldSum = Double(lookahead)
        history = Array(repeating: 0, count: 2 * TruePeakInterpolator.taps * format.channels)
        // A lookahead of silence before the first frame, never given out: the average that ramps
        // the gain down must already see the first frames' needs (an average over frames before
        // the start taken as unity would let a loud beginning through).
        let silence = [Double](repeating: 0, count: channels)
        for _ in 0..<lookahead { take(silence) }
    }

    /// Frames the output lags the input by: the lookahead and the interpolator's reach.
    private var latency: Int { lookahead + TruePeakInterpolator.taps - 1 }

    /// Takes a block; returns the limited frames that are ready (lagging by the lookahead).
    public mutating func process(_ samples: UnsafeBufferPointer<Int32>) -> [Int32] {
        let scale = 1 / Double(Int32.max)
        var frame = [Double](repeating: 0, count: channels)
        for index in 0..<(samples.count / channels) {
            for channel in 0..<channels { frame[channel] = Double(samples[index * channels + channel]) * scale * gain }
            take(frame)
        }
        return emit(upTo: received - latency)
    }

    /// The frames still held back.
    public mutating func flush() -> [Int32] {
        let end = received
        let silence = [Double](repeating: 0, count: channels)
        for _ in 0..<latency { take(silence) }
        return emit(upTo: end)
    }

    /// Adds one frame (gain applied) and the needs it and its interpolated values set.
    private mutating func take(_ frame: [Double]) {
        var loudest = 0.0
        for value in frame {
            delayed.append(value)
            loudest = max(loudest, abs(value))
        }
        needed.append(loudest > ceiling ? ceiling / loudest : 1)
        received += 1
        sinceLoud = loudest > quietBound ? 0 : (sinceLoud == Int.max ? Int.max : sinceLoud + 1)
        let taps = TruePeakInterpolator.taps
        position = (position + 1) % taps
        for channel in 0..<channels {
            history[2 * taps * channel + position] = frame[channel]
            history[2 * taps * channel + position + taps] = frame[channel]
        }
        guard sinceLoud < taps else { return }
        var peak = 0.0
        history.withUnsafeBufferPointer { buffer in
            for channel in 0..<channels {
                peak = max(peak, TruePeakInterpolator.peak(of: buffer, endingAt: 2 * taps * channel + position + taps))
            }
        }
        guard peak > ceiling else { return }
        // The value read these 12 frames: each of them needs the gain that holds it.
        let need = ceiling / peak
        let last = needed.count - 1
        for index in max(head, last - taps + 1)...last where needed[index] > need { needed[index] = need }
    }

    /// Gives out frames up to (not including) absolute frame `end`.
    private mutating func emit(upTo end: Int) -> [Int32] {
        let firstFrame = received - needed.count + head  // absolute number of `needed[head]`
        guard end > firstFrame else { return [] }
        let count = end - firstFrame
        let skipped = max(0, lookahead - firstFrame)  // the silence put before the first frame
        let step = Double(1 << (32 - bitsPerSample))
        let highest = Double(Int32.max) - step + 1
        // `needed` is final up to `taps − 1` frames before the newest (later values may still lower it).
        let final = needed.count - (TruePeakInterpolator.taps - 1)
        var output: [Int32] = []
        output.reserveCapacity(max(0, count - skipped) * channels)
        for frame in head..<(head + count) {
            // The lowest need over frame…frame+lookahead−1: a monotonic queue keeps its minimum.
            let windowLimit = min(final, frame + lookahead)
            while windowEnd < windowLimit {
                while window.count > windowHead, needed[window[window.count - 1]] >= needed[windowEnd] { window.removeLast() }
                window.append(windowEnd)
                windowEnd += 1
            }
            while windowHead < window.count, window[windowHead] < frame { windowHead += 1 }
            let lowest = windowHead < window.count ? needed[window[windowHead]] : 1
            // Its average over the last `lookahead` frames: a ramp, never above any frame's need.
            heldSum += lowest - held[heldPosition]
            held[heldPosition] = lowest
            heldPosition = (heldPosition + 1) % lookahead
            let target = min(1, heldSum / Double(lookahead))
            envelope = target < envelope ? target : target - (target - envelope) * releaseCoefficient
            guard frame - head >= skipped else { continue }
            for channel in 0..<channels {
                let value = delayed[frame * channels + channel] * envelope * Double(Int32.max)
                output.append(Int32(max(Double(Int32.min), min(highest, (value / step).rounded() * step))))
            }
        }
        head += count
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
