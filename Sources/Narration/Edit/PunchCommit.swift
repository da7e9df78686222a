import Foundation
import NarrationAudio
import NarrationCore

/// Puts a punch-and-roll take into its chunk: a new file made of the chunk's frames up to the
/// punch, the crossfade and the take (see `PunchJoin`) takes the chunk's place in one catalog
/// transaction, recorded in the history as a punch. The chunk's old file and the raw take both
/// go to the article's trash, so undo brings the chunk back as it was and nothing recorded is
/// ever thrown away.
enum PunchCommit {
    /// - Parameters:
    ///   - take: the take as recorded (its file at `source`).
    ///   - original: the chunk punched into; `frame` where the take begins in it.
    /// - Returns: the joined chunk's index, the chunk replaced, the export withdrawn, the joined chunk.
    /// - Throws: `chunkIndexOutOfRange` when the chunk was deleted meanwhile, the files' errors.
    static func commit(
        _ take: Chunk, over original: ChunkID, at frame: FrameCount, from source: URL, root: DataRoot, catalog: Catalog,
        crossfadeSeconds: Double = PunchJoin.defaultCrossfadeSeconds
    ) throws(NarrationError) -> (index: ChunkIndex, replaced: [ChunkID], withdrawn: WithdrawnExport?, chunk: Chunk) {
        let article = take.articleID
        let format = take.format
        guard let old = try catalog.chunk(original, format: format) else {
            throw NarrationError(.chunkIndexOutOfRange, "The chunk punched into was deleted meanwhile.")
        }
        let punchFrame = min(frame, old.frames)
        let overlap = PunchJoin.overlap(
            crossfade: format.frames(forSeconds: crossfadeSeconds), punchFrame: punchFrame, chunkFrames: old.frames, takeFrames: take.frames)
        let joinedID = ChunkID.random()
        let partial = root.partialURL(joinedID, of: article)
        let levels: LevelAccumulator
        do {
            levels = try join(
                root.chunkURL(original, of: article), upTo: punchFrame, overlap: overlap, take: take, from: source, into: partial)
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
        let joined = Chunk(
            id: joinedID, articleID: article, frames: levels.frames, format: format, peak: levels.peak, rms: levels.rms,
            overruns: old.overruns + take.overruns, recovered: false, recordedAt: old.recordedAt, paragraphID: old.paragraphID)
        let at = Timecode.precise(format.seconds(punchFrame))
        let added = Timecode.precise(take.duration)
        let crossfade = Int((format.seconds(overlap) * 1000).rounded())
        let placed: (index: ChunkIndex, withdrawn: WithdrawnExport?)
        do {
            placed = try catalog.substituteChunk(
                original, with: joined, kind: .punch, finishingTake: take.id,
                summary: { "Punched in chunk \($0.number) at \(at): \(added) recorded over its end, \(crossfade) ms crossfade." }
            ) {
                try FileSystem.move(partial, to: root.chunkURL(joinedID, of: article))
                try FileSystem.move(root.chunkURL(original, of: article), to: root.trashedChunkURL(original, of: article))
                try FileSystem.move(source, to: root.trashedChunkURL(take.id, of: article))
            }
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
        FileSystem.syncDirectory(root.chunksURL(article))
        return (placed.index, [original], placed.withdrawn, joined)
    }

    /// Writes `chunk`'s frames before `punchFrame`, the crossfade of its next `overlap` frames
    /// with the take's first, and the rest of the take into a new file; returns its levels.
    private static func join(
        _ chunk: URL, upTo punchFrame: FrameCount, overlap: FrameCount, take: Chunk, from takeFile: URL, into destination: URL
    ) throws(NarrationError) -> LevelAccumulator {
        let format = take.format
        let writer = try SoundFileWriter(creating: destination.path, format: format)
        var levels = LevelAccumulator(channels: format.channels)
        func write(_ block: UnsafeBufferPointer<Int32>) throws(NarrationError) {
            levels.add(block)
            try writer.write(block)
        }
        func samples(_ segment: AudioSegment) throws(NarrationError) -> [Int32] {
            var samples: [Int32] = []
            try AudioSegment.stream([segment], format: format) { samples += $0 }
            return samples
        }
        try AudioSegment.stream([AudioSegment(file: chunk, range: 0..<punchFrame)], format: format, write)
        let old = try samples(AudioSegment(file: chunk, range: punchFrame..<(punchFrame + overlap)))
        let new = try samples(AudioSegment(file: takeFile, range: 0..<overlap))
        let mixed = old.withUnsafeBufferPointer { old in
            new.withUnsafeBufferPointer { new in PunchJoin.crossfade(old: old, new: new, channels: format.channels, bitsPerSample: format.bitsPerSample) }
        }
        try mixed.withUnsafeBufferPointer { (block) throws(NarrationError) in try write(block) }
        try AudioSegment.stream([AudioSegment(file: takeFile, range: overlap..<take.frames)], format: format, write)
        try writer.close()
        return levels
    }
}
