import Foundation
import NarrationAudio
import NarrationCore

extension Exporter {
    /// Encodes an MP3 in one segment per chunk (`MP3SegmentPlan(samples:starts:)`), taking from
    /// `ready` the segments whose keys it holds, on every core; a background export stops at the
    /// next block when `ready` is asked to stop.
    static func encodeReusing(
        _ ready: ReadyExport, _ segments: [AudioSegment], gain: SampleGain, ceiling: Decibels?, noiseReduction: NoiseReducer.Settings?,
        plan: ExportPlan, settings: ExportSettings, to path: URL, progress: (FrameCount) -> Void
    ) throws(NarrationError) -> Encoded {
        guard case .constant(let kbps) = settings.mp3 else { preconditionFailure("a ready export is CBR MP3") }
        let format = plan.format
        let frames = segments.reduce(0) { $0 + $1.range.count }
        var starts: [FrameCount] = []
        var offset = 0
        for segment in segments {
            starts.append(offset)
            offset += segment.range.count
        }
        let segmentPlan = MP3SegmentPlan(
            samples: frames, starts: starts, paddingPeriod: MP3SegmentPlan.paddingPeriod(kbps: kbps, sampleRate: format.sampleRate))
        let settingsKey = encodingKey(kbps: kbps, format: format, gain: gain, ceiling: ceiling, noiseReduction: noiseReduction)
        let keys = (0..<segmentPlan.segmentCount).map { segmentKey($0, of: segmentPlan, segments, format: format, settings: settingsKey) }
        let made = producer(segments, frames: frames, gain: gain, ceiling: ceiling, noiseReduction: noiseReduction, format: format)
        let produce: SampleProducer = { range, write in
            try made(range) { (block) throws(NarrationError) in
                guard !ready.isStopping else { throw NarrationError(.fileSystem, "The export made ready in the background was stopped.") }
                try write(block)
            }
        }
        let reuse = try ParallelMP3Writer.write(
            creating: path.path, format: format, encoding: settings.mp3, tag: ID3Tag(plan: plan, chapters: settings.chapters), plan: segmentPlan,
            threads: Processors.available, reusing: (ready.segments, keys), helpers: ParallelWork.mp3EncoderThreads, produce: produce,
            progress: progress)
        // The file is measured in the same parts: a part's samples decode from the frames of its
        // segment and of the segments on either side (the frames before a part that the
        // decoder and the meters' leads read, and the reservoir bytes a seam may patch).
        let window = format.frames(forSeconds: SignalStatistics.windowSeconds)
        var bounds = (0..<segmentPlan.segmentCount).map { segmentPlan.ownedSamples($0).lowerBound / window * window }
        bounds.append(frames)
        var ranges: [Range<FrameCount>] = []
        var partKeys: [String] = []
        for index in 0..<segmentPlan.segmentCount where bounds[index] < bounds[index + 1] {
            ranges.append(bounds[index]..<bounds[index + 1])
            let neighbours = [index - 1, index, index + 1].map { keys.indices.contains($0) ? keys[$0] : "-" }
            partKeys.append("part \(ranges.last!)\n" + neighbours.joined(separator: "\n"))
        }
        return Encoded(
            frames: frames, chapters: settings.chapters ? plan.chapters.count : 0, encoders: min(Processors.available, max(1, reuse.encoded)),
            reuse: reuse, parts: (ranges, partKeys))
    }

    /// What every segment of one encode shares: the encoding and what is done to the samples.
    private static func encodingKey(kbps: Int, format: AudioFormat, gain: SampleGain, ceiling: Decibels?, noiseReduction: NoiseReducer.Settings?) -> String {
        var reduction = "none"
        if let noiseReduction {
            var hasher = Hasher()
            hasher.combine(noiseReduction)
            reduction = "\(noiseReduction.decibels) dB, profile \(hasher.finalize())"
        }
        return "MP3 \(kbps) kbit/s of \(format); gain \(gain.linear.bitPattern); ceiling \(ceiling.map { String($0.value.bitPattern) } ?? "none"); "
            + "noise reduction \(reduction)"
    }

    /// Names everything segment `index`'s encoder reads and how: its place on the frame grid
    /// (where its input starts and ends, the boundaries it owns, whether it opens or ends the
    /// stream) and each stretch of chunk file, with its fades, that the producer reads for it,
    /// from where the noise gate and limiter start settling to the limiter's look-ahead past its
    /// end. Chunk files never change under one name: a re-recorded or trimmed chunk is a new file.
    private static func segmentKey(_ index: Int, of plan: MP3SegmentPlan, _ segments: [AudioSegment], format: AudioFormat, settings: String) -> String {
        let input = plan.input(index)
        let total = plan.samples
        let reach = max(0, input.lowerBound - format.frames(forSeconds: limiterSettlingSeconds + gateSettlingSeconds + 0.5))
            ..< min(total, input.upperBound + format.frames(forSeconds: 1.5))
        var lines = [
            settings,
            "segment: input \(input), owns \(plan.boundaries[index])..<\(plan.boundaries[index + 1]), first \(index == 0), "
                + (index == plan.segmentCount - 1 ? "last of \(plan.frames) frames" : "not last") + ", reads \(reach)",
        ]
        var offset = 0
        for segment in segments {
            defer { offset += segment.range.count }
            let length = segment.range.count
            let from = max(0, reach.lowerBound - offset), to = min(length, reach.upperBound - offset)
            guard from < to else { continue }
            let read = from..<to
            // A fade counts only where it touches what is read (a chunk's fade-out appears when
            // a chunk is added after it; the segment before reads only its start).
            var fades = ""
            if read.lowerBound < segment.fadeInFrames { fades += ", fading in over \(segment.fadeInFrames)" }
            if read.upperBound > length - segment.fadeOutFrames { fades += ", fading out over \(segment.fadeOutFrames)" }
            lines.append("\(segment.file.path) \(segment.range): \(read) read at \(offset)\(fades)")
        }
        return lines.joined(separator: "\n")
    }
}
