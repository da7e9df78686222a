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
    /// Windows before a part that its loudness meter reads first: the three 400 ms blocks that
    /// end in the part's first 300 ms begin in the part before, and are the part's to count.
    static let loudnessLeadWindows = 3

    /// One part's measures, which add up to the file's (`SignalStatistics.append`, the
    /// loudness meters' blocks together).
    struct MeasuredPart: Sendable {
        var statistics: SignalStatistics
        let loudness: LoudnessMeter
        let truePeak: LoudnessMeter
    }

    /// What `measure(file:)` measures, with the file read in parts on every core (the exporter's
    /// check of the file it made): five-minute parts, or `parts` (which must tile the file, each
    /// starting on the 100 ms window grid). The same figures: each part's loudness meter starts
    /// 300 ms early, so that together the parts' meters hold exactly the 400 ms blocks of one
    /// pass. With `store`, a part whose key it holds is not read again, and the store then holds
    /// exactly this file's parts.
    static func measureInParts(
        file: URL, partSeconds: Double = partSeconds, parts given: [Range<FrameCount>]? = nil, store: (MeasuredPartStore, keys: [String])? = nil
    ) throws(NarrationError) -> Measurements {
        let reader = try SoundFileReader(path: file.path)
        let format = reader.format
        let total = reader.frames
        reader.close()
        let window = format.frames(forSeconds: SignalStatistics.windowSeconds)
        let parts: [Range<FrameCount>]
        if let given {
            parts = given
        } else {
            let partFrames = format.frames(forSeconds: partSeconds) / window * window
            let count = max(1, (total + partFrames - 1) / partFrames)
            guard count > 1 else { return try measure(file: file) }
            parts = (0..<count).map { ($0 * partFrames)..<min(total, ($0 + 1) * partFrames) }
        }
        let results = Mutex<[Int: Result<MeasuredPart, NarrationError>]>([:])
        var stored: [Int: MeasuredPart] = [:]
        if let (store, keys) = store {
            for index in parts.indices { stored[index] = store.part(keys[index]) }
        }
        let missing = parts.indices.filter { stored[$0] == nil }
        // Each core reads every n-th missing part, in order, with one reader of its own: opening
        // an MP3 costs libsndfile a scan of the file, and seeking on from where it is is cheap.
        let workers = min(Processors.available, missing.count)
        ParallelWork.forEach(workers) { worker in
            let reader = Result { () throws(NarrationError) in try SoundFileReader(path: file.path) }
            defer { try? reader.get().close() }
            for piece in stride(from: worker, to: missing.count, by: workers) {
                let index = missing[piece]
                let result = Result { () throws(NarrationError) -> MeasuredPart in
                    try measurePart(of: reader.get(), format: format, frames: parts[index], window: window)
                }
                results.withLock { $0[index] = result }
            }
        }
        let all = results.withLock { $0 }
        var measured: [MeasuredPart] = []
        for index in parts.indices {
            if let part = stored[index] { measured.append(part) } else { measured.append(try all[index]!.get()) }
        }
        if let (store, keys) = store {
            store.keepOnly(Dictionary(parts.indices.map { (keys[$0], measured[$0]) }, uniquingKeysWith: { $1 }))
        }
        var statistics = measured[0].statistics
        for part in measured.dropFirst() { statistics.append(part.statistics) }
        statistics.finish()
        let truePeak = measured.map { $0.truePeak.truePeak }.max { $0.value < $1.value } ?? .silence
        return Measurements(statistics: statistics, integratedLoudness: LoudnessMeter.integratedLoudness(of: measured.map(\.loudness)), truePeak: truePeak)
    }

    /// Measures frames `range` of the file `reader` reads, its loudness meter from three windows before.
    private static func measurePart(of reader: SoundFileReader, format: AudioFormat, frames range: Range<FrameCount>, window: FrameCount)
        throws(NarrationError) -> MeasuredPart
    {
        let start = range.lowerBound, end = range.upperBound
        let peakLead = min(start, truePeakLeadFrames)
        let loudnessLead = min(start, loudnessLeadWindows * window)
        let lead = max(peakLead, loudnessLead)
        var part = MeasuredPart(
            statistics: SignalStatistics(format: format), loudness: LoudnessMeter(format: format, truePeak: false),
            truePeak: LoudnessMeter(format: format))
        try reader.seek(to: start - lead)
        var position = start - lead
        var block = [Int32](repeating: 0, count: AudioSegment.blockFrames * format.channels)
        let channels = format.channels
        while position < end {
            let read = try block.withUnsafeMutableBufferPointer { (buffer) throws(NarrationError) in
                try reader.read(into: buffer, frames: min(AudioSegment.blockFrames, end - position))
            }
            guard read > 0 else { throw NarrationError(.fileCorrupt, "\(reader.path) ended early, at frame \(position).") }
            block.withUnsafeBufferPointer { samples in
                /// The frames of this block from stream frame `from` on.
                func from(_ frame: FrameCount) -> UnsafeBufferPointer<Int32>? {
                    let skip = max(0, frame - position)
                    guard skip < read else { return nil }
                    return UnsafeBufferPointer(rebasing: samples[(skip * channels)..<(read * channels)])
                }
                if let peak = from(start - peakLead) { part.truePeak.add(peak) }
                if let loud = from(start - loudnessLead) { part.loudness.add(loud) }
                if let own = from(start) { part.statistics.add(own) }
            }
            position += read
        }
        return part
    }
}

/// Measured parts of an exported file kept for the next check of the same stream (see
/// `ReadyExport`): a part is found by a key that names the MP3 frames its samples decode from.
final class MeasuredPartStore: Sendable {
    private let parts = Mutex<[String: Analyzer.MeasuredPart]>([:])

    func part(_ key: String) -> Analyzer.MeasuredPart? {
        parts.withLock { $0[key] }
    }

    /// Holds exactly `kept` from now on.
    func keepOnly(_ kept: [String: Analyzer.MeasuredPart]) {
        let dropped = parts.withLock { stored in
            defer { stored = kept }
            return stored
        }
        withExtendedLifetime(dropped) {}
    }

    func removeAll() { keepOnly([:]) }
}
