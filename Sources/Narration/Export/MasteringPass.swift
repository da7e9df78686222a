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
        /// The recording's clipped stretches, in the file's frames (the gain may lower them below
        /// full scale, where a check of the file alone would not see them).
        let clipping: [Stretch]
    }

    static func prepare(
        _ entries: [NarrationLibrary.ChunkEntry], format: AudioFormat, mastering: Mastering
    ) throws(NarrationError) -> Prepared {
        var segments = entries.map { AudioSegment(file: $0.file, range: 0..<$0.chunk.frames) }
        // Pauses inside the article are cut to the profile's longest pause. Where room tone is
        // added, the article's outer edges are cut later, by what `RoomTone` calls room tone.
        let pause = mastering.maxPauseSeconds.map { format.frames(forSeconds: $0) }
        let addsHead = mastering.roomToneHeadSeconds != nil
        let addsTail = mastering.roomToneTailSeconds != nil
        if pause != nil {
            for index in segments.indices {
                let leading = index == 0 && addsHead ? nil : pause
                let trailing = index == segments.count - 1 && addsTail ? nil : pause
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
        let needsMeasuring = mastering.loudnessTarget != nil || mastering.rmsTarget != nil || mastering.peakCeiling != nil
            || addsHead || addsTail
        guard needsMeasuring else {
            return Prepared(segments: segments, chapterFrames: segments.map(\.range.count), gain: SampleGain(linear: 1), clipping: [])
        }

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

        var headFrames: FrameCount = 0
        var cutAtStart: FrameCount = 0
        if addsHead || addsTail, !segments.isEmpty {
            let quiet = statistics.quietestStretch.flatMap { locate($0, in: segments) }
            // The recording's own room tone at the outer edges is cut, in whole windows from the
            // first and the last window of sound, and the room tone added takes its place: so the
            // file's room tone is the sample repeated, which `check` measures as room tone to
            // within the one window that straddles the first (or last) sound.
            let first = segments[0].range.lowerBound
            if addsHead { segments[0] = try roomToneTrimmed(segments[0], atHead: true, noiseFloor: measurements.noiseFloor, format: format) }
            if addsTail {
                let last = segments.count - 1
                segments[last] = try roomToneTrimmed(segments[last], atHead: false, noiseFloor: measurements.noiseFloor, format: format)
            }
            cutAtStart = segments[0].range.lowerBound - first
            func roomTone(_ seconds: Double?) -> [AudioSegment] {
                guard let seconds, let source = quiet, source.range.count > 0 else { return [] }
                var remaining = format.frames(forSeconds: seconds)
                var pieces: [AudioSegment] = []
                while remaining > 0 {
                    let length = min(remaining, source.range.count)
                    pieces.append(AudioSegment(file: source.file, range: source.range.lowerBound..<(source.range.lowerBound + length)))
                    remaining -= length
                }
                return pieces
            }
            let head = roomTone(mastering.roomToneHeadSeconds)
            let tail = roomTone(mastering.roomToneTailSeconds)
            headFrames = head.reduce(0) { $0 + $1.range.count }
            var chapterFrames = segments.map(\.range.count)
            chapterFrames[0] += headFrames
            chapterFrames[chapterFrames.count - 1] += tail.reduce(0) { $0 + $1.range.count }
            segments = head + segments + tail
            return try limitedGain(
                Prepared(segments: segments, chapterFrames: chapterFrames, gain: SampleGain(decibels: gainDecibels), clipping: []),
                decibels: gainDecibels, clipping: measurements.clipping.map { $0.shifted(by: headFrames - cutAtStart) }, mastering: mastering,
                format: format)
        }
        return try limitedGain(
            Prepared(segments: segments, chapterFrames: segments.map(\.range.count), gain: SampleGain(decibels: gainDecibels), clipping: []),
            decibels: gainDecibels, clipping: measurements.clipping, mastering: mastering, format: format)
    }

    /// `prepared` with the gain that brings the level to the target through the limiter.
    private static func limitedGain(
        _ prepared: Prepared, decibels: Double, clipping: [Stretch], mastering: Mastering, format: AudioFormat
    ) throws(NarrationError) -> Prepared {
        let segments = prepared.segments
        var gainDecibels = decibels
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
        return Prepared(segments: segments, chapterFrames: prepared.chapterFrames, gain: SampleGain(decibels: gainDecibels), clipping: clipping)
    }

    /// Loudness and RMS of the segments after gain and limiting, without writing anything.
    private static func measureLimited(
        _ segments: [AudioSegment], gain: SampleGain, ceiling: Decibels, format: AudioFormat
    ) throws(NarrationError) -> (loudness: Double?, rms: Decibels) {
        var limiter = PeakLimiter(gain: gain, ceiling: ceiling, format: format)
        let meter = LoudnessMeter(format: format)
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

    /// The segment without the room tone (see `RoomTone`: 100 ms windows within 6 dB of the noise
    /// floor) at its head or its tail.
    private static func roomToneTrimmed(
        _ segment: AudioSegment, atHead: Bool, noiseFloor: Decibels, format: AudioFormat
    ) throws(NarrationError) -> AudioSegment {
        var statistics = SignalStatistics(format: format)
        try AudioSegment.stream([segment], format: format) { block in statistics.add(block) }
        let windows = statistics.windowPowers
        let windowFrames = format.frames(forSeconds: SignalStatistics.windowSeconds)
        guard !windows.isEmpty else { return segment }
        if atHead {
            let quiet = RoomTone.leadingWindows(windows, noiseFloor: noiseFloor)
            guard quiet < windows.count else { return segment }  // all room tone: nothing to keep it from
            let start = segment.range.lowerBound + quiet * windowFrames
            var trimmed = AudioSegment(file: segment.file, range: start..<segment.range.upperBound)
            trimmed.fadeOutFrames = min(segment.fadeOutFrames, trimmed.range.count / 2)  // the join after it
            return trimmed
        }
        let quiet = RoomTone.leadingWindows(windows.reversed(), noiseFloor: noiseFloor)
        guard quiet < windows.count else { return segment }
        // The windows end at the last whole window; frames after it (less than one) are cut too.
        let soundEnd = segment.range.lowerBound + (windows.count - quiet) * windowFrames
        var trimmed = AudioSegment(file: segment.file, range: segment.range.lowerBound..<min(segment.range.upperBound, soundEnd))
        trimmed.fadeInFrames = min(segment.fadeInFrames, trimmed.range.count / 2)  // the join before it
        return trimmed
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
