import Foundation
import NarrationAudio
public import NarrationCore
import Synchronization

/// Each chunk's measure, taken once: right after its take (`record`'s after-take process, the
/// studio's take check thread) or, for a chunk made before measures were kept or by an edit,
/// the first time an export or check needs it, on every core; then kept in the catalog.
extension NarrationLibrary {
    /// The measures of `entries`' chunks, measuring and keeping those the catalog lacks.
    /// - Throws: `fileCorrupt` naming a chunk file that cannot be read; the catalog's errors.
    func measures(of entries: [ChunkEntry], format: AudioFormat) throws(NarrationError) -> [ChunkMeasure] {
        var known = try catalog.measures(of: entries.map(\.chunk))
        let missing = entries.filter { known[$0.chunk.id] == nil }
        for (entry, measure) in zip(missing, try Self.measure(missing.map(\.file), format: format)) {
            known[entry.chunk.id] = measure
            // A catalog that cannot be written (a read-only data root) measures again next time.
            _ = try? catalog.storeMeasure(measure, for: entry.chunk.id)
        }
        return entries.map { known[$0.chunk.id]! }
    }

    /// Measures the chunks of the article that have no measure yet (after a take).
    public func measureChunks(of article: Article) throws(NarrationError) {
        _ = try measures(of: try chunkEntries(of: article).filter { !$0.fileMissing && $0.problem == nil }, format: article.format)
    }

    /// Measures `files`, as many at once as there are cores.
    static func measure(_ files: [URL], format: AudioFormat) throws(NarrationError) -> [ChunkMeasure] {
        guard !files.isEmpty else { return [] }
        let results = Mutex<[Int: Result<ChunkMeasure, NarrationError>]>([:])
        ParallelWork.forEach(files.count) { index in
            let result = Result { () throws(NarrationError) -> ChunkMeasure in
                let measurer = ChunkMeasurer(format: format)
                let reader = try SoundFileReader(path: files[index].path)
                defer { reader.close() }
                let channels = format.channels
                var block = [Int32](repeating: 0, count: AudioSegment.blockFrames * channels)
                while true {
                    let read = try block.withUnsafeMutableBufferPointer { (buffer) throws(NarrationError) in
                        try reader.read(into: buffer, frames: AudioSegment.blockFrames)
                    }
                    guard read > 0 else { break }
                    block.withUnsafeBufferPointer { measurer.add(UnsafeBufferPointer(rebasing: $0[0..<(read * channels)])) }
                }
                return measurer.finish()
            }
            results.withLock { $0[index] = result }
        }
        let all = results.withLock { $0 }
        var measures: [ChunkMeasure] = []
        for index in 0..<files.count { measures.append(try all[index]!.get()) }
        return measures
    }
}
