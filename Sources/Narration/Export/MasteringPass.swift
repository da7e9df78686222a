import Foundation
import NarrationAudio
import NarrationCore

/// Turns a profile's mastering steps into what the exporter streams: the stretches of each
/// chunk to keep (pauses trimmed, fades at joins), room tone at the head and tail, and one gain
/// (measured in a first pass, so that the export itself is one more streaming pass).
extension Mastering {
    struct Prepared {
        let segments: [AudioSegment]
        /// Frames per chapter: the first includes the head's room tone, the last the tail's.
        let chapterFrames: [FrameCount]
        let gain: SampleGain
    }

    static func prepare(
        _ entries: [NarrationLibrary.ChunkEntry], format: AudioFormat, mastering: Mastering
    ) throws(NarrationError) -> Prepared {
        var segments = entries.map { AudioSegment(file: $0.file, range: 0..<$0.chunk.frames) }
        // Pauses inside the article are cut to the profile's longest pause; where room tone is
        // added, the article's outer edges are cut to 0.1 s so that the room tone sets the lead-in.
        let edge = format.frames(forSeconds: 0.1)
        let pause = mastering.maxPauseSeconds.map { format.frames(forSeconds: $0) }
        if pause != nil || mastering.roomToneHeadSeconds != nil || mastering.roomToneTailSeconds != nil {
            for index in segments.indices {
                let leading = index == 0 && mastering.roomToneHeadSeconds != nil ? edge : pause
                let trailing = index == segments.count - 1 && mastering.roomToneTailSeconds != nil ? edge : pause
                segments[index] = try trimmed(segments[index], keepingLeading: leading, trailing: trailing, format: format)
            }
        }
        if let fade = mastering.joinFadeSeconds, segments.count > 1 {
            let frames = format.frames(forSeconds: fade)
            for index in segments.indices {
                if index > 0 { segments[index].fadeInFrames = min(frames, segments[index].range.count / 2) }
                if index < segments.count - 1 { segments[index].fadeOutFrames = min(frames, segments[index].range.count / 2) }
            }
        }
        var chapterFrames = segments.map(\.range.count)
        let needsMeasuring = mastering.loudnessTarget != nil || mastering.rmsTarget != nil || mastering.peakCeiling != nil
            || mastering.roomToneHeadSeconds != nil || mastering.roomToneTailSeconds != nil
        guard needsMeasuring else { return Prepared(segments: segments, chapterFrames: chapterFrames, gain: SampleGain(linear: 1)) }

        let (measurements, statistics) = try Analyzer.measure(segments, format: format)
        var gainDecibels = 0.0
        if let target = mastering.loudnessTarget, let loudness = measurements.integratedLoudness {
            gainDecibels = target.lufs(channels: format.channels) - loudness
        } else if let target = mastering.rmsTarget, measurements.rms > .silence {
            gainDecibels = target.value - measurements.rms.value
        }
        // With no level target, the ceiling only ever lowers the level; with one, the limiter
        // holds the peaks at the ceiling while the gain brings the level to the target.
        if let ceiling = mastering.peakCeiling, mastering.loudnessTarget == nil, mastering.rmsTarget == nil,
            measurements.truePeak > .silence
        {
            gainDecibels = min(0, ceiling.value - measurements.truePeak.value)
        }

        if let quiet = statistics.quietestStretch, let source = locate(quiet, in: segments) {
            let pieceFrames = source.range.count
            func roomTone(_ seconds: Double?) -> [AudioSegment] {
                guard let seconds, pieceFrames > 0 else { return [] }
                var remaining = format.frames(forSeconds: seconds)
                var pieces: [AudioSegment] = []
                while remaining > 0 {
                    let length = min(remaining, pieceFrames)
                    pieces.append(AudioSegment(file: source.file, range: source.range.lowerBound..<(source.range.lowerBound + length)))
                    remaining -= length
                }
                return pieces
            }
            let head = roomTone(mastering.roomToneHeadSeconds)
            let tail = roomTone(mastering.roomToneTailSeconds)
            if !chapterFrames.isEmpty {
                chapterFrames[0] += head.reduce(0) { $0 + $1.range.count }
                chapterFrames[chapterFrames.count - 1] += tail.reduce(0) { $0 + $1.range.count }
            }
            segments = head + segments + tail
        }
        // The limiter takes a little level off the peaks it holds: measure through it and make up
        // the difference, a few times (the more gain, the more the limiter takes back).
        if let ceiling = mastering.peakCeiling, mastering.loudnessTarget != nil || mastering.rmsTarget != nil {
            for _ in 0..<4 {
                let limited = try measureLimited(segments, gain: SampleGain(decibels: gainDecibels), ceiling: ceiling, format: format)
                let shortfall: Double
                if let target = mastering.loudnessTarget, let loudness = limited.loudness {
                    shortfall = target.lufs(channels: format.channels) - loudness
                } else if let target = mastering.rmsTarget {
                    shortfall = target.value - limited.rms.value
                } else {
                    break
                }
                if abs(shortfall) < 0.1 { break }
                gainDecibels += shortfall
            }
        }
        return Prepared(segments: segments, chapterFrames: chapterFrames, gain: SampleGain(decibels: gainDecibels))
    }

    /// Loudness and RMS of the segments after gain and limiting, without writing anything.
    private static func measureLimited(
        _ segments: [AudioSegment], gain: SampleGain, ceiling: Decibels, format: AudioFormat
    ) throws(NarrationError) -> (loudness: Double?, rms: Decibels) {
        var limiter = PeakLimiter(gain: gain, ceiling: ceiling, format: format)
        let meter = LoudnessMeter(format: format, truePeak: false)
        var levels = LevelAccumulator(channels: format.channels)
        func add(_ samples: [Int32]) {
            samples.withUnsafeBufferPointer { buffer in
                meter.add(buffer)
                levels.add(buffer)
            }
        }
        try AudioSegment.stream(segments, format: format) { block in add(limiter.process(block)) }
        add(limiter.flush())
        return (meter.integratedLoudness, levels.rms)
    }

    /// The segment stretch that holds `stretch` of the joined stream (clamped to that segment).
    private static func locate(_ stretch: Stretch, in segments: [AudioSegment]) -> AudioSegment? {
        var offset = 0
        for segment in segments {
            let length = segment.range.count
            if stretch.start < offset + length {
                let start = segment.range.lowerBound + (stretch.start - offset)
                let end = min(segment.range.upperBound, start + (stretch.end - stretch.start))
                return AudioSegment(file: segment.file, range: start..<end)
            }
            offset += length
        }
        return nil
    }

    /// The segment with leading and trailing silence (below −50 dBFS) cut to at most the given
    /// frames (nil: left as it is).
    private static func trimmed(
        _ segment: AudioSegment, keepingLeading leading: FrameCount?, trailing: FrameCount?, format: AudioFormat
    ) throws(NarrationError) -> AudioSegment {
        guard leading != nil || trailing != nil else { return segment }
        let threshold = Int64(Decibels(-50).amplitude * Double(Int32.max))
        var first: FrameCount?
        var last: FrameCount = 0
        var frame = segment.range.lowerBound
        try AudioSegment.stream([segment], format: format) { block in
            for index in stride(from: 0, to: block.count, by: format.channels) {
                let loud = (0..<format.channels).contains { abs(Int64(block[index + $0])) > threshold }
                if loud {
                    if first == nil { first = frame }
                    last = frame
                }
                frame += 1
            }
        }
        guard let first else { return segment }
        let start = leading.map { max(segment.range.lowerBound, first - $0) } ?? segment.range.lowerBound
        let end = trailing.map { min(segment.range.upperBound, last + 1 + $0) } ?? segment.range.upperBound
        return AudioSegment(file: segment.file, range: start..<end)
    }
}
