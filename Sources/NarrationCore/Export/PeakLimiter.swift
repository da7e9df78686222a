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
    /// The interpolator's phases one after another (phase-major), for the inner loop.
    private let coefficients = TruePeakInterpolator.phases.flatMap { $0 }
    /// Frames waiting to come out (interleaved, gain applied), and the gain each frame needs.
    /// `delayed` keeps at least the 11 frames before `head` an interpolated value reads.
    private var delayed: [Double] = []
    private var needed: [Double] = []
    /// Frames taken in (including the silence put before the first and after the last), and
    /// the index in `needed` of the next frame to give out.
    private var received = 0
    private var head = 0
    /// Frames since one with a sample above `quietBound`: values are interpolated while < 12.
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

    public init(gain: SampleGain, ceiling: Decibels, format: AudioFormat, lookaheadSeconds: Double = 0.005, releaseSeconds: Double = 0.08) {
        self.gain = gain.linear
        self.ceiling = min(1, ceiling.amplitude)
        channels = format.channels
        bitsPerSample = format.bitsPerSample
        lookahead = max(TruePeakInterpolator.taps, format.frames(forSeconds: lookaheadSeconds))
        releaseCoefficient = exp(-1 / (releaseSeconds * Double(format.sampleRate)))
        quietBound = self.ceiling / TruePeakInterpolator.amplification
        held = Array(repeating: 1, count: lookahead)
        heldSum = Double(lookahead)
        // A lookahead of silence before the first frame, never given out: the average that ramps
        // the gain down must already see the first frames' needs (an average over frames before
        // the start taken as unity would let a loud beginning through).
        take(silentFrames: lookahead)
    }

    /// Frames the output lags the input by: the lookahead and the interpolator's reach.
    private var latency: Int { lookahead + TruePeakInterpolator.taps - 1 }

    /// Takes a block; returns the limited frames that are ready (lagging by the lookahead).
    public mutating func process(_ samples: UnsafeBufferPointer<Int32>) -> [Int32] {
        let scale = gain / Double(Int32.max)
        delayed.append(contentsOf: samples.lazy.map { Double($0) * scale })
        take(frames: samples.count / channels)
        return emit(upTo: received - latency)
    }

    /// The frames still held back.
    public mutating func flush() -> [Int32] {
        let end = received
        take(silentFrames: latency)
        return emit(upTo: end)
    }

    private mutating func take(silentFrames count: Int) {
        delayed.append(contentsOf: repeatElement(0, count: count * channels))
        take(frames: count)
    }

    /// Sets the needs of the `count` frames just added to `delayed`: each frame's own samples,
    /// and each interpolated value's, which holds for all 12 frames it reads.
    private mutating func take(frames count: Int) {
        let first = needed.count
        needed.append(contentsOf: repeatElement(1, count: count))
        received += count
        let taps = TruePeakInterpolator.taps
        let phases = TruePeakInterpolator.phases.count
        let channels = channels, ceiling = ceiling, quietBound = quietBound, head = head
        var sinceLoud = sinceLoud
        delayed.withUnsafeBufferPointer { x in
            needed.withUnsafeMutableBufferPointer { need in
                coefficients.withUnsafeBufferPointer { h in
                    for m in first..<(first + count) {
                        var loudest = 0.0
                        for channel in 0..<channels { loudest = max(loudest, abs(x[m * channels + channel])) }
                        if loudest > ceiling { need[m] = ceiling / loudest }
                        sinceLoud = loudest > quietBound ? 0 : min(sinceLoud, taps) + 1
                        guard sinceLoud < taps, m >= taps - 1 else { continue }
                        var peak = 0.0
                        for channel in 0..<channels {
                            let newest = m * channels + channel
                            for phase in 0..<phases {
                                var sum = 0.0
                                for k in 0..<taps { sum += h[phase * taps + k] * x[newest - k * channels] }
                                peak = max(peak, abs(sum))
                            }
                        }
                        guard peak > ceiling else { continue }
                        let value = ceiling / peak
                        for frame in max(head, m - taps + 1)...m where need[frame] > value { need[frame] = value }
                    }
                }
            }
        }
        self.sinceLoud = sinceLoud
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
        var output = [Int32](repeating: 0, count: max(0, count - skipped) * channels)
        var written = 0
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
            heldPosition = heldPosition + 1 == lookahead ? 0 : heldPosition + 1
            let target = min(1, heldSum / Double(lookahead))
            envelope = target < envelope ? target : target - (target - envelope) * releaseCoefficient
            guard frame - head >= skipped else { continue }
            let scale = envelope * Double(Int32.max) / step
            for channel in 0..<channels {
                let value = (delayed[frame * channels + channel] * scale).rounded() * step
                output[written] = Int32(max(Double(Int32.min), min(highest, value)))
                written += 1
            }
        }
        head += count
        // Drop what was given out, keeping the frames the interpolator still reads.
        let drop = head - TruePeakInterpolator.taps
        if drop > 65_536 {
            needed.removeFirst(drop)
            delayed.removeFirst(drop * channels)
            window = window[windowHead...].map { $0 - drop }
            windowHead = 0
            windowEnd -= drop
            head -= drop
        }
        return output
    }
}
