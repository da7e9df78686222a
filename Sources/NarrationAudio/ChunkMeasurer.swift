internal import CEBUR128
import Foundation
public import NarrationCore

/// Measures a chunk's samples, streamed in blocks of any size, into a `ChunkMeasure`: libebur128
/// (the reference implementation) gives each 100 ms window's K-weighted power and true peak; the
/// plain power, sample peak and clipped runs are counted here as `SignalStatistics` counts them.
/// The single owner of its `ebur128_state`.
public final class ChunkMeasurer {
    public let format: AudioFormat
    private var state: UnsafeMutablePointer<ebur128_state>?
    private let windowFrames: FrameCount
    private var frames: FrameCount = 0
    private var fill = 0
    private var power = 0.0
    private var samplePeak = 0.0
    private var truePeak = 0.0
    private var measure: ChunkMeasure
    private var clipStart: FrameCount?

    /// The corresponding C function is `ebur128_init`.
    public init(format: AudioFormat) {
        self.format = format
        let mode = Int32(EBUR128_MODE_M.rawValue | EBUR128_MODE_TRUE_PEAK.rawValue)
        guard let state = ebur128_init(UInt32(format.channels), UInt(format.sampleRate), mode) else {
            preconditionFailure("libebur128 could not allocate a meter")
        }
        self.state = state
        measure = ChunkMeasure(sampleRate: format.sampleRate, frames: 0, weightedPowers: [], powers: [], samplePeaks: [], truePeaks: [], clipping: [])
        windowFrames = measure.windowFrames
    }

    deinit { ebur128_destroy(&state) }

    /// Adds interleaved left-justified samples. The corresponding C function is `ebur128_add_frames_int`.
    public func add(_ samples: UnsafeBufferPointer<Int32>) {
        let channels = format.channels
        var offset = 0
        let total = samples.count / channels
        while offset < total {
            let count = min(windowFrames - fill, total - offset)
            let piece = UnsafeBufferPointer(rebasing: samples[(offset * channels)..<((offset + count) * channels)])
            let result = ebur128_add_frames_int(state, piece.baseAddress, count)
            precondition(result == Int32(EBUR128_SUCCESS.rawValue), "libebur128 refused frames (\(result))")
            for channel in 0..<channels {
                var value = 0.0
                if ebur128_prev_true_peak(state, UInt32(channel), &value) == Int32(EBUR128_SUCCESS.rawValue) { truePeak = max(truePeak, value) }
            }
            tally(piece)
            fill += count
            offset += count
            if fill == windowFrames { closeWindow() }
        }
    }

    /// The measure of everything added. The corresponding C functions are
    /// `ebur128_loudness_window` and `ebur128_prev_true_peak`.
    public func finish() -> ChunkMeasure {
        if fill > 0 { closeWindow() }
        endClipRun()
        return ChunkMeasure(
            sampleRate: format.sampleRate, frames: frames, weightedPowers: measure.weightedPowers, powers: measure.powers,
            samplePeaks: measure.samplePeaks, truePeaks: measure.truePeaks, clipping: measure.clipping)
    }

    /// Plain power, sample peak and clipped runs of a piece within one window.
    private func tally(_ piece: UnsafeBufferPointer<Int32>) {
        let channels = format.channels
        let scale = 1 / Double(Int32.max)
        let fullScale = Int32.max - (1 << (32 - format.bitsPerSample))
        for index in stride(from: 0, to: piece.count, by: channels) {
            var framePower = 0.0
            var clipped = false
            for channel in 0..<channels {
                let sample = piece[index + channel]
                let value = Double(sample) * scale
                framePower += value * value
                samplePeak = max(samplePeak, abs(value))
                if sample >= fullScale || sample <= -fullScale - 1 { clipped = true }
            }
            power += framePower / Double(channels)
            if clipped {
                if clipStart == nil { clipStart = frames }
            } else {
                endClipRun()
            }
            frames += 1
        }
    }

    private func endClipRun() {
        if let start = clipStart, frames - start >= 3 { measure.clipping.append(Stretch(start: start, end: frames)) }
        clipStart = nil
    }

    /// Ends the current window: its powers and peaks join the measure.
    private func closeWindow() {
        var loudness = -Double.infinity
        // The last 100 ms libebur128 holds: exactly this window, unless it is a chunk's short last one.
        if fill == windowFrames { _ = ebur128_loudness_window(state, 100, &loudness) }
        let weighted = loudness.isFinite ? pow(10, (loudness + 0.691) / 10) : 0
        measure.weightedPowers.append(Float(weighted))
        measure.powers.append(Float(power / Double(fill)))
        measure.samplePeaks.append(Float(samplePeak))
        measure.truePeaks.append(Float(truePeak))
        fill = 0
        power = 0
        samplePeak = 0
        truePeak = 0
    }
}
