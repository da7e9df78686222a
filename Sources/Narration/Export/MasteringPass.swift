import Foundation
import NarrationAudio
import NarrationCore
import Synchronization

/// Turns a profile's mastering steps into what the exporter streams: the stretches of each
/// chunk to keep (pauses trimmed, fades at joins), room tone at the head and tail, the room's
/// noise profile and how far to reduce it when the profile's noise floor needs it, and one gain
/// (from the chunks' measures, so that the export itself is the one streaming pass over the audio).
extension Mastering {
    struct Prepared {
        let segments: [AudioSegment]
        /// Frames per chapter: the first includes the head's room tone, the last the tail's.
        let chapterFrames: [FrameCount]
        let gain: SampleGain
        /// The recording's clipped stretches, in the file's frames (the gain may lower them below
        /// full scale, where a check of the file alone would not see them).
        let clipping: [Stretch]
        /// The spectral noise gate every sample passes before the gain (room tone at the head and
        /// tail too, so that it is the cleaned room tone); nil when the noise is left alone.
        var noiseReduction: NoiseReducer.Settings? = nil
        /// How strongly, and what the room would have needed; nil when the noise is left alone.
        var noiseReductionStrength: NoiseReductionStrength? = nil
        /// The recording's noise floor (its quietest 500 ms) before anything was done to it.
        var noiseFloor: Decibels? = nil
    }

    /// - Parameters:
    ///   - measures: each chunk's measure (`NarrationLibrary.measures`); mastering reads no audio
    ///     to measure the article, only the windows where pauses are cut, the first and last
    ///     chunk where room tone is, and the quiet stretches the noise profile is taken from.
    ///   - noiseFloorLimit: the profile's noise-floor rule; the room's noise is reduced when the
    ///     recording's floor, raised by the gain, would come within 3 dB of it
    ///     (`NoiseReductionStrength`). Nil: never reduced.
    static func prepare(
        _ entries: [NarrationLibrary.ChunkEntry], measures: [ChunkMeasure], format: AudioFormat, mastering: Mastering,
        noiseFloorLimit: Decibels? = nil, limiterKnown: Bool = false
    ) throws(NarrationError) -> Prepared {
        var segments = entries.map { AudioSegment(file: $0.file, range: 0..<$0.chunk.frames) }
        guard !mastering.isIdentity else {
            return Prepared(segments: segments, chapterFrames: segments.map(\.range.count), gain: SampleGain(linear: 1), clipping: [])
        }
        // Pauses inside the article are cut to the profile's longest pause. Where room tone is
        // added, the article's outer edges are cut later, by what `RoomTone` calls room tone.
        let pause = mastering.maxPauseSeconds.map { format.frames(forSeconds: $0) }
        let addsHead = mastering.roomToneHeadSeconds != nil
        let addsTail = mastering.roomToneTailSeconds != nil
        if pause != nil {
            for index in segments.indices {
                let leading = index == 0 && addsHead ? nil : pause
                let trailing = index == segments.count - 1 && addsTail ? nil : pause
                segments[index] = try trimmed(segments[index], measure: measures[index], keepingLeading: leading, trailing: trailing, format: format)
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
            || addsHead || addsTail || noiseFloorLimit != nil
        guard needsMeasuring else {
            return Prepared(segments: segments, chapterFrames: segments.map(\.range.count), gain: SampleGain(linear: 1), clipping: [])
        }

        let measurements = MeasuredLevels(zip(measures, segments).map { ($0, $1.range) })
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
        // The noise is reduced before the gain, from a profile of the raw recording's own quiet
        // stretches (read from the chunks' files, each stretch on its own).
        var strength = NoiseReductionStrength(floor: measurements.noiseFloor, gain: gainDecibels, limit: noiseFloorLimit)
        var reduction: NoiseReducer.Settings?
        if let chosen = strength {
            var stretches: [[Int32]] = []
            for stretch in NoiseProfileStretches.choose(from: measurements, measures: measures) {
                var samples: [Int32] = []
                try AudioSegment.stream([AudioSegment(file: segments[stretch.chunk].file, range: stretch.frames)], format: format) { block in
                    samples.append(contentsOf: block)
                }
                stretches.append(samples)
            }
            let profile = NoiseProfile(stretches: stretches, format: format)
            if profile.windows > 0 { reduction = NoiseReducer.Settings(profile: profile, decibels: chosen.decibels) } else { strength = nil }
        }
        /// `prepared` with the noise reduction chosen.
        func reducing(_ prepared: Prepared) -> Prepared {
            var prepared = prepared
            prepared.noiseReduction = reduction
            prepared.noiseReductionStrength = strength
            prepared.noiseFloor = measurements.noiseFloor
            return prepared
        }

        var headFrames: FrameCount = 0
        var cutAtStart: FrameCount = 0
        if addsHead || addsTail, !segments.isEmpty {
            // The quietest 500 ms, within the chunk where it starts.
            let quiet = measurements.quietestStretch.map { stretch -> AudioSegment in
                let (chunk, window) = measurements.windowSources[stretch.first]
                let start = window * measures[chunk].windowFrames
                return AudioSegment(
                    file: segments[chunk].file, range: start..<min(segments[chunk].range.upperBound, start + 5 * measures[chunk].windowFrames))
            }
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
                reducing(Prepared(segments: segments, chapterFrames: chapterFrames, gain: SampleGain(decibels: gainDecibels), clipping: [])),
                decibels: gainDecibels, clipping: measurements.clipping.map { $0.shifted(by: headFrames - cutAtStart) }, levels: measurements,
                mastering: mastering, limiterKnown: limiterKnown, format: format)
        }
        return try limitedGain(
            reducing(Prepared(segments: segments, chapterFrames: segments.map(\.range.count), gain: SampleGain(decibels: gainDecibels), clipping: [])),
            decibels: gainDecibels, clipping: measurements.clipping, levels: measurements, mastering: mastering, limiterKnown: limiterKnown,
            format: format)
    }

    /// `prepared` with the gain that brings the level to the target through the noise gate (if
    /// any) and the limiter.
    /// - Parameter levels: the chunks' measures over the kept stretches, from which the limiter's
    ///   loss can be bounded without reading the audio.
    private static func limitedGain(
        _ prepared: Prepared, decibels: Double, clipping: [Stretch], levels: MeasuredLevels, mastering: Mastering, limiterKnown: Bool,
        format: AudioFormat
    ) throws(NarrationError) -> Prepared {
        let segments = prepared.segments
        var gainDecibels = decibels
        // Where the chunks' measures show the limiter can take off at most 0.05 LU (no peak near
        // the ceiling after the gain), nothing is measured: the gain from the measures stands,
        // and the exporter measures its file anyway. The noise gate changes the levels the
        // measures saw, so with it the audio is measured.
        let limiterNegligible = mastering.loudnessTarget != nil && prepared.noiseReduction == nil
            && mastering.peakCeiling.map { levels.limiterLossBound(gainDecibels: decibels, ceiling: $0) < 0.05 } == true
        // The limiter takes a little level off the peaks it holds: measure through it and make up
        // the difference. A small difference is made up without measuring again (the limiter
        // takes back only part of the little gain added, and the exporter measures its file
        // anyway); a large one is measured again, up to four passes in all.
        if !limiterNegligible, !limiterKnown, let ceiling = mastering.peakCeiling, mastering.loudnessTarget != nil || mastering.rmsTarget != nil {
            for _ in 0..<4 {
                let limited = try measureLimited(
                    segments, gain: SampleGain(decibels: gainDecibels), ceiling: ceiling, noiseReduction: prepared.noiseReduction, format: format)
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
                if abs(shortfall) <= 0.3 { break }
            }
        }
        var result = Prepared(segments: segments, chapterFrames: prepared.chapterFrames, gain: SampleGain(decibels: gainDecibels), clipping: clipping)
        result.noiseReduction = prepared.noiseReduction
        result.noiseReductionStrength = prepared.noiseReductionStrength
        result.noiseFloor = prepared.noiseFloor
        return result
    }

    /// Loudness and RMS of the segments after noise reduction, gain and limiting, without writing
    /// anything: in stretches of five minutes, on every core, each through its own gate and
    /// limiter as a parallel export makes it (`Exporter.producer`), the meters' blocks gated
    /// together. The stretches do not depend on the cores, so the gain, and the file, are the
    /// same on any machine.
    private static func measureLimited(
        _ segments: [AudioSegment], gain: SampleGain, ceiling: Decibels, noiseReduction: NoiseReducer.Settings?, format: AudioFormat
    ) throws(NarrationError) -> (loudness: Double?, rms: Decibels) {
        let total = segments.reduce(0) { $0 + $1.range.count }
        let parts = max(1, total / format.frames(forSeconds: 300))
        let produce = Exporter.producer(segments, frames: total, gain: gain, ceiling: ceiling, noiseReduction: noiseReduction, format: format)
        let meters = (0..<parts).map { _ in LoudnessMeter(format: format, truePeak: false) }
        let levels = Mutex<LevelAccumulator>(LevelAccumulator(channels: format.channels))
        let failure = Mutex<NarrationError?>(nil)
        ParallelWork.forEach(parts) { part in
            let range = (total * part / parts)..<(total * (part + 1) / parts)
            var local = LevelAccumulator(channels: format.channels)
            do throws(NarrationError) {
                try produce(range) { (block) throws(NarrationError) in
                    meters[part].add(block)
                    local.add(block)
                }
            } catch {
                failure.withLock { $0 = $0 ?? error }
            }
            levels.withLock { $0.merge(local) }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        return (LoudnessMeter.integratedLoudness(of: meters), levels.withLock { $0.rms })
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
    /// frames (nil: left as it is). The chunk's measure says which 100 ms windows hold a sample
    /// above the threshold; only the first and last of them are read, for the exact sample.
    private static func trimmed(
        _ segment: AudioSegment, measure: ChunkMeasure, keepingLeading leading: FrameCount?, trailing: FrameCount?, format: AudioFormat
    ) throws(NarrationError) -> AudioSegment {
        guard leading != nil || trailing != nil else { return segment }
        let threshold = Int64(Decibels(-50).amplitude * Double(Int32.max))
        // Peaks are kept as Float: a window within rounding of the threshold is read to be sure.
        let candidates = measure.samplePeaks.indices.filter { Double(measure.samplePeaks[$0]) * Double(Int32.max) >= Double(threshold) * 0.999 }
        /// The loud frames of window `index`, first and last.
        func loudFrames(inWindow index: Int) throws(NarrationError) -> (first: FrameCount, last: FrameCount)? {
            let start = index * measure.windowFrames
            let window = AudioSegment(file: segment.file, range: start..<(start + measure.frames(inWindow: index)))
            var first: FrameCount?, last: FrameCount = 0
            var frame = start
            try AudioSegment.stream([window], format: format) { block in
                for offset in stride(from: 0, to: block.count, by: format.channels) {
                    if (0..<format.channels).contains(where: { abs(Int64(block[offset + $0])) > threshold }) {
                        if first == nil { first = frame }
                        last = frame
                    }
                    frame += 1
                }
            }
            return first.map { ($0, last) }
        }
        var first: FrameCount?
        for index in candidates {
            if let loud = try loudFrames(inWindow: index) {
                first = loud.first
                break
            }
        }
        guard let first else { return segment }
        var last = first
        for index in candidates.reversed() {
            if let loud = try loudFrames(inWindow: index) {
                last = loud.last
                break
            }
        }
        let start = leading.map { max(segment.range.lowerBound, first - $0) } ?? segment.range.lowerBound
        let end = trailing.map { min(segment.range.upperBound, last + 1 + $0) } ?? segment.range.upperBound
        return AudioSegment(file: segment.file, range: start..<end)
    }
}
