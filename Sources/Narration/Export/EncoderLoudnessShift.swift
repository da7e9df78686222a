import Foundation
import NarrationAudio
import NarrationCore

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
    /// settings into a scratch file beside `path`, decoded by libsndfile and metered: a voice's
    /// spectrum, and so the shift, is much the same all through one recording. The exporter
    /// still measures the file it made and encodes again if it missed anyway.
    static func predictedLoudnessShift(
        _ segments: [AudioSegment], frames total: FrameCount, gain: SampleGain, ceiling: Decibels?, noiseReduction: NoiseReducer.Settings?,
        plan: ExportPlan, settings: ExportSettings, beside path: URL
    ) throws(NarrationError) -> Double? {
        let format = plan.format
        let length = format.frames(forSeconds: shiftExcerptSeconds)
        guard settings.format.isLossy, total >= format.frames(forSeconds: shiftPredictionMinimumSeconds) else { return nil }
        var scratchSettings = settings
        scratchSettings.chapters = false
        scratchSettings.profile = nil
        let produce = producer(segments, frames: total, gain: gain, ceiling: ceiling, noiseReduction: noiseReduction, format: format)
        let scratch = FileSystem.temporaryURL(beside: path.deletingLastPathComponent().appendingPathComponent("excerpt-\(path.lastPathComponent)"))
        defer { FileSystem.discard(scratch) }
        var fed: [LoudnessMeter] = []
        var decoded: [LoudnessMeter] = []
        for index in 0..<shiftExcerptCount {
            let start = (total - length) * (2 * index + 1) / (2 * shiftExcerptCount)
            let meter = LoudnessMeter(format: format, truePeak: false)
            FileSystem.discard(scratch)
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
            fed.append(meter)
            decoded.append(try Analyzer.loudnessMeter(of: scratch))
        }
        guard let before = LoudnessMeter.integratedLoudness(of: fed), let after = LoudnessMeter.integratedLoudness(of: decoded) else { return nil }
        return after - before
    }
}
