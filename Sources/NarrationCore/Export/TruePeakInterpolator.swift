/// The interpolator of ITU-R BS.1770-4 Annex 2: what "true peak" means in every rule that names
/// dBTP, and what libebur128 (and so `check` and ffmpeg's `ebur128=peak=true`) measures.
///
/// The signal is oversampled 4× by a 48-tap FIR filter, split into 4 phases of 12 taps; the true
/// peak is the largest absolute value among the samples and those interpolated values. Phase `p`
/// over the 12 samples ending at frame `m` gives the value between frames `m − 6` and `m − 5`
/// (the filter's delay), so a value depends on those 12 samples and on no others.
///
/// The shortcut that keeps it fast: an interpolated value can exceed the largest |sample| among
/// its taps by at most Σ|h| of its phase (`amplification`, about 2.02, +6.1 dB), so where no
/// sample of the last 12 frames is above `ceiling / amplification` nothing needs interpolating.
/// In speech mastered to −16…−19 LUFS most frames are that quiet.
public enum TruePeakInterpolator {
    /// Taps per phase: how many consecutive samples one interpolated value reads.
    public static let taps = 12

    /// The four phases of the standard's filter, as published (Annex 2, Table 1): `phases[p][k]`
    /// multiplies the sample `k` frames before the newest.
    public static let phases: [[Double]] = [
        [
            0.0017089843750, 0.0109863281250, -0.0196533203125, 0.0332031250000, -0.0594482421875, 0.1373291015625,
            0.9721679687500, -0.1022949218750, 0.0476074218750, -0.0266113281250, 0.0148925781250, -0.0083007812500,
        ],
        [
            -0.0291748046875, 0.0292968750000, -0.0517578125000, 0.0891113281250, -0.1665039062500, 0.4650878906250,
            0.7797851562500, -0.2003173828125, 0.1015625000000, -0.0582275390625, 0.0330810546875, -0.0189208984375,
        ],
        [
            -0.0189208984375, 0.0330810546875, -0.0582275390625, 0.1015625000000, -0.2003173828125, 0.7797851562500,
            0.4650878906250, -0.1665039062500, 0.0891113281250, -0.0517578125000, 0.0292968750000, -0.0291748046875,
        ],
        [
            -0.0083007812500, 0.0148925781250, -0.0266113281250, 0.0476074218750, -0.1022949218750, 0.9721679687500,
            0.1373291015625, -0.0594482421875, 0.0332031250000, -0.0196533203125, 0.0109863281250, 0.0017089843750,
        ],
    ]

    /// The largest Σ|h| of a phase: no interpolated value exceeds the largest |sample| among its
    /// taps by more than this factor.
    public static let amplification: Double = phases.map { $0.reduce(0) { $0 + abs($1) } }.max()!

    /// The largest |interpolated value| of the 12 samples `history[end − 12 + 1 … end]` (oldest
    /// first; indexes before 0 count as silence), over all four phases.
    @inline(__always)
    public static func peak(of history: UnsafeBufferPointer<Double>, endingAt end: Int) -> Double {
        var loudest = 0.0
        for phase in phases {
            var sum = 0.0
            for k in 0..<taps where end - k >= 0 { sum += phase[k] * history[end - k] }
            loudest = max(loudest, abs(sum))
        }
        return loudest
    }

    /// The true peak of a whole signal of one channel (linear, absolute), samples included: the
    /// reference the limiter's tests and the standard agree on. Silence is assumed before and
    /// after, so the values interpolated past the last sample count too.
    public static func truePeak(of samples: [Double]) -> Double {
        let padded = samples + Array(repeating: 0, count: taps - 1)
        return padded.withUnsafeBufferPointer { buffer in
            var loudest = samples.reduce(0) { max($0, abs($1)) }
            for end in buffer.indices { loudest = max(loudest, peak(of: buffer, endingAt: end)) }
            return loudest
        }
    }
}
