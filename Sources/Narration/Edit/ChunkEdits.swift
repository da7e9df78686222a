import Foundation
import NarrationAudio
public import NarrationCore

/// What `trim` did to a chunk.
public struct TrimResult: Sendable {
    public let index: ChunkIndex
    /// The new chunk; its file is new, the old one went to the trash.
    public let chunk: Chunk
    /// Frames cut at the start and at the end.
    public let cutAtStart: FrameCount
    public let cutAtEnd: FrameCount
    /// The article's noise floor the cut was measured against (`TrimBounds.automatic` only).
    public let noiseFloor: Decibels?
    public let withdrawn: WithdrawnExport?
}

/// How `trim` chooses what to keep.
public enum TrimBounds: Sendable {
    /// Keep from `start` to `end` into the chunk (nil: its own start or end).
    case times(start: AudioTime?, end: AudioTime?)
    /// Cut the silence at the edges, keeping `EdgeTrim.margin`, against the article's noise floor.
    case automatic
}

extension NarrationLibrary {
    /// Moves chunk `index` to `destination`, as one edit in the article's history.
    /// - Throws: `chunkIndexOutOfRange`, `articleBusy`.
    public func moveChunk(at index: ChunkIndex, to destination: ChunkIndex, of article: Article) throws(NarrationError) -> WithdrawnExport? {
        let lock = try ArticleLock.acquire(for: article, at: root.lockURL(article.id), purpose: .edit)
        defer { withExtendedLifetime(lock) {} }
        let withdrawn = try catalog.moveChunk(at: index, to: destination, of: article.id)
        if withdrawn != nil { OutboxSweep.run(root: root, catalog: catalog) }
        return withdrawn
    }

    /// Trims chunk `index`: a new file holding only the frames kept takes its place and the old
    /// file goes to the trash (undo brings it back).
    /// - Returns: nil when nothing would be cut (no edit is made).
    /// - Throws: a usage error for bounds outside the chunk or keeping nothing, or a chunk with
    ///   no sound above the noise floor (`TrimBounds.automatic`); the file's errors; `articleBusy`.
    public func trim(chunkAt index: ChunkIndex, of article: Article, _ bounds: TrimBounds) throws(NarrationError) -> TrimResult? {
        let lock = try ArticleLock.acquire(for: article, at: root.lockURL(article.id), purpose: .edit)
        defer { withExtendedLifetime(lock) {} }
        let entries = try chunkEntries(of: article)
        try ChunkOrder(entries.map(\.chunk.id)).validate(index)
        let entry = entries[index.position]
        try entry.requireUsable()
        let chunk = entry.chunk
        let format = article.format
        var floor: Decibels?
        let kept: Range<FrameCount>
        switch bounds {
        case .times(let start, let end):
            let first = start?.frames(at: format) ?? 0
            let last = end?.frames(at: format) ?? chunk.frames
            let length = Timecode.precise(chunk.duration)
            guard first <= chunk.frames, last <= chunk.frames else {
                throw NarrationError(.usage, "Chunk \(index.number) is \(length) long.", remedy: .trimWithinChunk)
            }
            guard first < last else {
                throw NarrationError(
                    .usage,
                    naming: "\(.trimStart) \(Timecode.precise(format.seconds(first))) is not before \(.trimEnd) \(Timecode.precise(format.seconds(last))): that keeps nothing of chunk \(index.number).",
                    remedy: .deleteChunkInstead(index))
            }
            kept = first..<last
        case .automatic:
            let noiseFloor = try entries.noiseFloor()
            floor = noiseFloor
            var edges = EdgeTrim(format: format)
            try AudioSegment.stream([AudioSegment(file: entry.file, range: 0..<chunk.frames)], format: format) { edges.add($0) }
            guard let range = edges.keptFrames(noiseFloor: noiseFloor) else {
                throw NarrationError(
                    .usage, "Chunk \(index.number) holds no sound above the article's noise floor (\(noiseFloor.formatted) dBFS), so nothing was trimmed.",
                    remedy: .deleteChunkInstead(index))
            }
            kept = range
        }
        guard kept != 0..<chunk.frames else { return nil }
        let trimmedID = ChunkID.random()
        let partial = root.partialURL(trimmedID, of: article.id)
        let levels: LevelAccumulator
        do {
            levels = try AudioSegment(file: entry.file, range: kept).copy(to: partial, format: format)
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
        let trimmed = Chunk(
            id: trimmedID, articleID: article.id, frames: levels.frames, format: format, peak: levels.peak, rms: levels.rms,
            overruns: chunk.overruns, recovered: chunk.recovered, recordedAt: chunk.recordedAt, paragraphID: chunk.paragraphID)
        let cutStart = kept.lowerBound
        let cutEnd = chunk.frames - kept.upperBound
        let root = self.root
        let summary: @Sendable (ChunkIndex) -> String = { index in
            "Trimmed chunk \(index.number): cut \(Timecode.precise(format.seconds(cutStart))) at the start and \(Timecode.precise(format.seconds(cutEnd))) at the end (\(Timecode.precise(trimmed.duration)) left)."
        }
        let placed: (index: ChunkIndex, withdrawn: WithdrawnExport?)
        do {
            placed = try catalog.substituteChunk(chunk.id, with: trimmed, kind: .trim, summary: summary) {
                try FileSystem.move(partial, to: root.chunkURL(trimmedID, of: article.id))
                try FileSystem.move(root.chunkURL(chunk.id, of: article.id), to: root.trashedChunkURL(chunk.id, of: article.id))
            }
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
        FileSystem.syncDirectory(root.chunksURL(article.id))
        if placed.withdrawn != nil { OutboxSweep.run(root: root, catalog: catalog) }
        return TrimResult(
            index: placed.index, chunk: trimmed, cutAtStart: cutStart, cutAtEnd: cutEnd, noiseFloor: floor, withdrawn: placed.withdrawn)
    }
}

extension [NarrationLibrary.ChunkEntry] {
    /// The article's noise floor: the quietest 500 ms of any of these chunks whose file is
    /// usable, as `check` measures it; silence when none has 500 ms.
    func noiseFloor() throws(NarrationError) -> Decibels {
        var quietest: Decibels?
        for entry in self where entry.problem == nil {
            var statistics = SignalStatistics(format: entry.chunk.format)
            try AudioSegment.stream([AudioSegment(file: entry.file, range: 0..<entry.chunk.frames)], format: entry.chunk.format) { statistics.add($0) }
            statistics.finish()
            guard !statistics.windowPowers.isEmpty else { continue }
            let floor = statistics.noiseFloor
            if quietest.map({ floor.value < $0.value }) ?? true { quietest = floor }
        }
        return quietest ?? .silence
    }
}

extension NarrationLibrary.ChunkEntry {
    /// Throws when the chunk's file cannot be edited or punched into, saying what is wrong with
    /// it and that nothing was changed.
    /// - Throws: `chunkFileMissing`, with the remedy to record the chunk again or delete it.
    func requireUsable() throws(NarrationError) {
        guard let problem else { return }
        let what = switch problem {
        case .missing: "is missing"
        case .truncated: "is shorter than the catalog says"
        case .otherFormat: "is not in the article's format"
        case .unreadable(let reason): "cannot be read (\(reason))"
        }
        throw NarrationError(
            .chunkFileMissing, "The file of chunk \(index.number) (\(file.path)) \(what). Nothing was changed.",
            subject: .file(file.path), remedy: .replaceOrDeleteChunk(index, then: .nothing))
    }
}

extension AudioSegment {
    /// Copies the segment into a new WAV file at `destination`, measuring its levels.
    func copy(to destination: URL, format: AudioFormat) throws(NarrationError) -> LevelAccumulator {
        let writer = try SoundFileWriter(creating: destination.path, format: format)
        var levels = LevelAccumulator(channels: format.channels)
        try AudioSegment.stream([self], format: format) { (block) throws(NarrationError) in
            levels.add(block)
            try writer.write(block)
        }
        try writer.close()
        return levels
    }
}
