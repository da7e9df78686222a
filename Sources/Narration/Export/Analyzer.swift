public import Foundation
import Synchronization
import NarrationAudio
public import NarrationCore

/// Measures audio for `check` and for mastering: one streaming pass, constant memory.
public enum Analyzer {
    /// Measures the frames of `segments` joined in order.
    static func measure(_ segments: [AudioSegment], format: AudioFormat, progress: (FrameCount) -> Void = { _ in }) throws(NarrationError)
        -> (measurements: Measurements, statistics: SignalStatistics)
    {
        var statistics = SignalStatistics(format: format)
        let meter = LoudnessMeter(format: format)
        try AudioSegment.stream(segments, format: format) { block in
            statistics.add(block)
            meter.add(block)
            progress(statistics.levels.frames)
        }
        statistics.finish()
        return (Measurements(statistics: statistics, integratedLoudness: meter.integratedLoudness, truePeak: meter.truePeak), statistics)
    }

    /// Measures an audio file of any format libsndfile reads (WAV, FLAC, MP3, …).
    public static func measure(file: URL, progress: (FrameCount, FrameCount) -> Void = { _, _ in }) throws(NarrationError) -> Measurements {
        let reader = try SoundFileReader(path: file.path)
        let format = reader.format
        let total = reader.frames
        reader.close()
        return try measure([AudioSegment(file: file, range: 0..<total)], format: format) { progress($0, total) }.measurements
    }
}

extension Analyzer {
    /// The integrated loudness of an audio file libsndfile reads, nothing else: what the exporter
    /// checks of a lossy file it has just encoded.
    static func integratedLoudness(of file: URL) throws(NarrationError) -> Double? {
        try loudnessMeter(of: file).integratedLoudness
    }

    /// A loudness meter (without true peak) that has heard the whole of an audio file.
    static func loudnessMeter(of file: URL) throws(NarrationError) -> LoudnessMeter {
        let reader = try SoundFileReader(path: file.path)
        defer { reader.close() }
        let format = reader.format
        let meter = LoudnessMeter(format: format, truePeak: false)
        var block = [Int32](repeating: 0, count: AudioSegment.blockFrames * format.channels)
        while true {
            let read = try block.withUnsafeMutableBufferPointer { (buffer) throws(NarrationError) in
                try reader.read(into: buffer, frames: AudioSegment.blockFrames)
            }
            guard read > 0 else { break }
            block.withUnsafeBufferPointer { meter.add(UnsafeBufferPointer(rebasing: $0[0..<(read * format.channels)])) }
        }
        return meter
    }
}

extension NarrationLibrary {
    /// Measures an article's chunks joined in order, as exported without mastering.
    public func measure(_ article: Article, progress: (FrameCount, FrameCount) -> Void = { _, _ in }) throws(NarrationError) -> Measurements {
        let entries = try chunkEntries(of: article)
        guard !entries.isEmpty else {
            throw .emptyArticle(article, nothingTo: "check")
        }
        for entry in entries {
            try verifyFile(of: entry, format: article.format, then: .nothing)
        }
        let total = entries.reduce(0) { $0 + $1.chunk.frames }
        return try Analyzer.measure(entries.map { AudioSegment(file: $0.file, range: 0..<$0.chunk.frames) }, format: article.format) {
            progress($0, total)
        }.measurements
    }
}

extension Analyzer {
    /// Parts of this length are measured side by side by `measureInParts`.
    static let partSeconds = 300.0
    /// Frames before a part that its true-peak meter reads first: the interpolator's reach, so
    /// that a peak between the last sample of one part and the first of the next is measured.
    static let truePeakLeadFrames = 64

    /// What `measure(file:)` measures, with the file read in five-minute parts on every core (the
    /// exporter's check of the file it made). The same figures, but for the integrated loudness,
    /// which misses the three 400 ms blocks that straddle each join between parts: of the 3,000
    /// blocks of five minutes, a change below 0.001 LU. The parts do not depend on the cores, so
    /// every machine measures the same.
    static func measureInParts(file: URL, partSeconds: Double = partSeconds) throws(NarrationError) -> Measurements {
        let reader = try SoundFileReader(path: file.path)
        let format = reader.format
        let total = reader.frames
        reader.close()
        let window = format.frames(forSeconds: SignalStatistics.windowSeconds)
        let partFrames = format.frames(forSeconds: partSeconds) / window * window
        let parts = max(1, (total + partFrames - 1) / partFrames)
        guard parts > 1 else { return try measure(file: file) }
        struct Part: Sendable {
            var statistics: SignalStatistics
            let loudness: LoudnessMeter
            let truePeak: LoudnessMeter
        }
        let results = Mutex<[Int: Result<Part, NarrationError>]>([:])
        ParallelWork.forEach(parts) { index in
            let result = Result { () throws(NarrationError) -> Part in
                let start = index * partFrames, end = min(total, start + partFrames)
                let lead = min(start, truePeakLeadFrames)
                var part = Part(
                    statistics: SignalStatistics(format: format), loudness: LoudnessMeter(format: format, truePeak: false),
                    truePeak: LoudnessMeter(format: format))
                let reader = try SoundFileReader(path: file.path)
                defer { reader.close() }
                try reader.seek(to: start - lead)
                var position = start - lead
                var block = [Int32](repeating: 0, count: AudioSegment.blockFrames * format.channels)
                while position < end {
                    let read = try block.withUnsafeMutableBufferPointer { (buffer) throws(NarrationError) in
                        try reader.read(into: buffer, frames: min(AudioSegment.blockFrames, end - position))
                    }
                    guard read > 0 else { throw NarrationError(.fileCorrupt, "\(file.path) ended early, at frame \(position).") }
                    block.withUnsafeBufferPointer { samples in
                        part.truePeak.add(UnsafeBufferPointer(rebasing: samples[0..<(read * format.channels)]))
                        let skip = max(0, start - position)
                        guard skip < read else { return }
                        let counted = UnsafeBufferPointer(rebasing: samples[(skip * format.channels)..<(read * format.channels)])
                        part.statistics.add(counted)
                        part.loudness.add(counted)
                    }
                    position += read
                }
                return part
            }
            results.withLock { $0[index] = result }
        }
        let all = results.withLock { $0 }
        var measured: [Part] = []
        for index in 0..<parts { measured.append(try all[index]!.get()) }
        var statistics = measured[0].statistics
        for part in measured.dropFirst() { statistics.append(part.statistics) }
        statistics.finish()
        let truePeak = measured.map { $0.truePeak.truePeak }.max { $0.value < $1.value } ?? .silence
        return Measurements(statistics: statistics, integratedLoudness: LoudnessMeter.integratedLoudness(of: measured.map(\.loudness)), truePeak: truePeak)
    }
}
