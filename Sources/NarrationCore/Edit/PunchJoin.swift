import func Foundation.cos
import func Foundation.sin

/// How punch-and-roll joins a chunk's first part to the take recorded over the rest.
///
/// The chunk is cut at the punch frame `t`. The new chunk is the old one's frames `0..<t`,
/// then an overlap of `n` frames in which the old audio after `t` fades out while the take's
/// first `n` frames fade in, then the rest of the take. Its length is exactly
/// `t + take frames`: the first part, then the take, whose first `n` frames are mixed with the
/// old audio they overlap. The fades are equal-power (gains cos θ and sin θ, θ rising from 0 to
/// π/2 over the overlap, taken at the middle of each frame), so uncorrelated speech keeps its
/// loudness through the join and neither side steps in level: no click. `n` is the crossfade
/// length (10 ms by default), shortened when the old chunk or the take has fewer frames left.
public enum PunchJoin {
    public static let defaultCrossfadeSeconds = 0.010

    /// The overlap, in frames.
    public static func overlap(crossfade: FrameCount, punchFrame: FrameCount, chunkFrames: FrameCount, takeFrames: FrameCount) -> FrameCount {
        max(0, min(crossfade, chunkFrames - punchFrame, takeFrames))
    }

    /// The gains of the old and the new audio at frame `index` of an overlap of `length` frames.
    public static func gains(at index: Int, of length: Int) -> (old: Double, new: Double) {
        let angle = Double.pi / 2 * (Double(index) + 0.5) / Double(length)
        return (cos(angle), sin(angle))
    }

    /// Mixes the overlap: `old` (the chunk's frames from the punch on) fading out, `new` (the
    /// take's first frames) fading in; both hold the same whole number of interleaved frames.
    /// Samples are left-justified `Int32`s; each mixed sample is rounded to the nearest value
    /// of `bitsPerSample` (so the file stores it exactly), and a sum beyond full scale is held
    /// at full scale.
    public static func crossfade(old: UnsafeBufferPointer<Int32>, new: UnsafeBufferPointer<Int32>, channels: Int, bitsPerSample: Int) -> [Int32] {
        precondition(old.count == new.count && old.count % channels == 0, "a crossfade mixes whole frames of equal length")
        let length = old.count / channels
        var mixed = [Int32](repeating: 0, count: old.count)
        let step = Double(1 << (32 - bitsPerSample))
        let highest = Double(Int32.max) - step + 1
        for frame in 0..<length {
            let (fadeOut, fadeIn) = gains(at: frame, of: length)
            for channel in 0..<channels {
                let index = frame * channels + channel
                let value = ((Double(old[index]) * fadeOut + Double(new[index]) * fadeIn) / step).rounded() * step
                mixed[index] = Int32(max(Double(Int32.min), min(highest, value)))
            }
        }
        return mixed
    }
}
