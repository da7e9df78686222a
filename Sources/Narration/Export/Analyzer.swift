public import Foundation
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
        return meter.integratedLoudness
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
