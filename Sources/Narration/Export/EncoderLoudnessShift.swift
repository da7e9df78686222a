import Foundation
import NarrationAudio
import NarrationCore
import Synchronization

extension Exporter {
    /// Excerpts of this length, this many, spread evenly over the article.
    static let shiftExcerptSeconds = 5.0
    static let shiftExcerptCount = 6
    /// Shorter articles are not worth predicting for: encoding them again costs less than the excerpts.
    static let shiftPredictionMinimumSeconds = 120.0

    /// How much a lossy encoding will change the file's integrated loudness, in LU (decoded minus
    /// what the encoder is fed; nil when the format is lossless, the article short or silent).
    ///
    /// Why: an encoder's lowpass takes off the highest frequencies, which the loudness measure's
    /// K-weighting counts more than the ear does (measured: −0.4 LU for synthetic speech through
    /// LAME at 128 kbit/s). Measured after the encode, the difference cost a second encode of the
    /// whole article; predicted before it, the first file lands on the target. The excerpts go
    /// through the same noise gate, gain and limiter as the export (`producer`), are encoded with the same
    /// settings (on every core) into scratch files beside `path`, decoded by libsndfile and metered: a voice's
    /// spectrum, and so the shift, is much the same all through one recording. The exporter
    /// still measures the file it made and encodes again if it missed anyway.
    static func predictedLoudnessShift(
        _ segments: [AudioSegment], frames total: FrameCount, gain: SampleGain, ceiling: Decibels?, noiseReduction: NoiseReducer.Settings?,
        plan: ExportPlan, settings: ExportSettings, beside path: URL
    ) throws(NarrationError) -> Double? {
        let format = plan.format
        let length = format.frames(forSeconds: shiftExcerptSeconds)
        guard settings.format.isLossy, total >= format.frames(forSeconds: shiftPredictionMinimumSeconds) else { return nil }
        // Made at the file's rate: a profile's sample-rate rule converts the excerpts too.
        var withoutChapters = settings
        withoutChapters.chapters = false
        let scratchSettings = withoutChapters
        let produce = producer(segments, frames: total, gain: gain, ceiling: ceiling, noiseReduction: noiseReduction, format: format)
        let results = Mutex<[Int: Result<(fed: LoudnessMeter, decoded: LoudnessMeter), NarrationError>]>([:])
        ParallelWork.forEach(shiftExcerptCount) { index in
            let result = Result { () throws(NarrationError) -> (fed: LoudnessMeter, decoded: LoudnessMeter) in
                let start = (total - length) * (2 * index + 1) / (2 * shiftExcerptCount)
                let scratch = FileSystem.temporaryURL(
                    beside: path.deletingLastPathComponent().appendingPathComponent("excerpt\(index)-\(path.lastPathComponent)"))
                FileSystem.discard(scratch)
                defer { FileSystem.discard(scratch) }
                let meter = LoudnessMeter(format: format, truePeak: false)
                let (sink, _) = try makeSink(at: scratch, plan: plan, settings: scratchSettings)
                do throws(NarrationError) {
                    try produce(start..<(start + length)) { (block) throws(NarrationError) in
                        meter.add(block)
                        try sink.write(block)
                    }
                    try sink.close()
                } catch {
                    try? sink.close()
                    throw error
                }
                return (meter, try Analyzer.loudnessMeter(of: scratch))
            }
            results.withLock { $0[index] = result }
        }
        let all = results.withLock { $0 }
        var fed: [LoudnessMeter] = []
        var decoded: [LoudnessMeter] = []
        for index in 0..<shiftExcerptCount {
            let meters = try all[index]!.get()
            fed.append(meters.fed)
            decoded.append(meters.decoded)
        }
        guard let before = LoudnessMeter.integratedLoudness(of: fed), let after = LoudnessMeter.integratedLoudness(of: decoded) else { return nil }
        return after - before
    }
}
