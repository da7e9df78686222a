import Foundation
public import NarrationAudio
public import NarrationCore

/// A restart the take check proposes to cut, where it lies in the article.
public struct TakeCut: Sendable, Equatable {
    /// The take, and where it is in the article now.
    public let chunk: ChunkID
    public let index: ChunkIndex
    /// The paragraph of the text the take reads (1 is the first), if it reads one.
    public let paragraph: Int?
    /// The cut's number in the take's check (`TakeCheck.report.cuts`).
    public let number: Int
    public let cut: ProposedCut
}

/// What accepting cuts did to a take.
public struct CutResult: Sendable {
    public let index: ChunkIndex
    /// The take without the cuts; its file is new, the old one went to the trash.
    public let chunk: Chunk
    /// How many cuts, and the frames they took out.
    public let cuts: Int
    public let framesCut: FrameCount
    public let withdrawn: WithdrawnExport?
}

/// A cut's surroundings to listen to before deciding: the take as read, and as it would be cut.
public struct CutPreview: Sendable {
    public let format: AudioFormat
    /// Interleaved samples (left-justified `Int32`): `context` seconds before the cut, the
    /// stretch it takes out, and `context` seconds after.
    public let asRead: [Int32]
    /// The same surroundings with the cut made, crossfade and all.
    public let asCut: [Int32]
}

/// Accepting and dismissing the restarts the take check found (`ProposedCut`).
///
/// Accepting is an edit like `trim`: a new file holding the take without the cuts (joined by
/// `CutJoin`'s crossfade) takes the chunk's place and the old file goes to the trash, so undo
/// brings the take back byte for byte. The take's check moves with it (`TakeCheckReport.cutting`):
/// its sentence cues, hints and remaining cuts follow the audio, so paragraph timings and
/// transcripts stay true.
extension NarrationLibrary {
    /// The article's open cuts (neither dismissed nor accepted), in the article's order.
    public func proposedCuts(of article: Article) throws(NarrationError) -> [TakeCut] {
        let checks = try catalog.takeChecks(of: article.id)
        guard !checks.isEmpty else { return [] }
        let plan = try catalog.readingPlan(of: article)
        var numbers: [ParagraphID: Int] = [:]
        for paragraph in plan.paragraphs { numbers[paragraph.id] = paragraph.number }
        return try catalog.chunks(of: article).enumerated().flatMap { position, chunk in
            (checks[chunk.id]?.openCuts ?? []).map { open in
                TakeCut(
                    chunk: chunk.id, index: ChunkIndex(position + 1), paragraph: chunk.paragraphID.flatMap { numbers[$0] }, number: open.number,
                    cut: open.cut)
            }
        }
    }

    /// Dismisses cut `number` of a take: the volunteer listened and the take is right there.
    /// `audit` is a line of the service's audit log written with it (a proof-listener's).
    /// - Returns: whether the cut was open (nothing is written when not).
    @discardableResult
    public func dismissCut(_ number: Int, ofChunk chunk: ChunkID, audit: AuditEntry? = nil) throws(NarrationError) -> Bool {
        try catalog.dismissCut(number, of: chunk, audit: audit)
    }

    /// Cuts the open cuts `numbers` (all of them when nil) out of a take, as one edit. `audit`
    /// is a line of the service's audit log written in the edit's transaction (a proof-listener's).
    /// - Returns: nil when the take has none of those cuts open (no edit is made).
    /// - Throws: `chunkIndexOutOfRange` when the take left the article; `catalogCorrupt` when
    ///   a cut lies outside the take; the file's errors; `articleBusy`.
    public func acceptCuts(
        _ numbers: Set<Int>? = nil, ofChunk id: ChunkID, of article: Article, audit: AuditEntry? = nil
    ) throws(NarrationError) -> CutResult? {
        let lock = try ArticleLock.acquire(for: article, at: root.lockURL(article.id), purpose: .edit)
        defer { withExtendedLifetime(lock) {} }
        let entries = try chunkEntries(of: article)
        guard let entry = entries.first(where: { $0.chunk.id == id }) else {
            throw NarrationError(.chunkIndexOutOfRange, "The take was deleted or replaced meanwhile; nothing was cut.")
        }
        try entry.requireUsable()
        guard let check = try catalog.takeChecks(of: article.id)[id] else { return nil }
        let chosen = check.openCuts.filter { numbers?.contains($0.number) ?? true }
        guard !chosen.isEmpty else { return nil }
        let chunk = entry.chunk
        let ranges = try Self.validated(chosen.map(\.cut.frames), within: chunk.frames, chunk: entry.index)
        let format = article.format
        let pieces = CutJoin.pieces(cutting: ranges, from: chunk.frames, crossfade: format.frames(forSeconds: CutJoin.defaultCrossfadeSeconds))
        let cutID = ChunkID.random()
        let partial = root.partialURL(cutID, of: article.id)
        let levels: LevelAccumulator
        do {
            let writer = try SoundFileWriter(creating: partial.path, format: format)
            var accumulator = LevelAccumulator(channels: format.channels)
            try Self.render(pieces, of: entry.file, format: format) { (block) throws(NarrationError) in
                accumulator.add(block)
                try writer.write(block)
            }
            try writer.close()
            levels = accumulator
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
        let cut = Chunk(
            id: cutID, articleID: article.id, frames: levels.frames, format: format, peak: levels.peak, rms: levels.rms,
            overruns: chunk.overruns, recovered: chunk.recovered, recordedAt: chunk.recordedAt, paragraphID: chunk.paragraphID)
        let framesCut = chunk.frames - levels.frames
        let count = ranges.count
        let summary: @Sendable (ChunkIndex) -> String = { index in
            let what = count == 1 ? "1 restart" : "\(count) restarts"
            return "Cut \(what) from chunk \(index.number): \(Timecode.precise(format.seconds(framesCut))) taken out (\(Timecode.precise(cut.duration)) left)."
        }
        let root = self.root
        let placed: (index: ChunkIndex, withdrawn: WithdrawnExport?)
        do {
            placed = try catalog.substituteChunk(chunk.id, with: cut, kind: .cut, audit: audit, summary: summary) {
                try FileSystem.move(partial, to: root.chunkURL(cutID, of: article.id))
                try FileSystem.move(root.chunkURL(chunk.id, of: article.id), to: root.trashedChunkURL(chunk.id, of: article.id))
            }
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
        FileSystem.syncDirectory(root.chunksURL(article.id))
        // The check moves with the audio: later cuts first, so earlier positions stay as found.
        var report = check.report
        report.cuts = []  // the cuts left are moved below, with their dismissals
        let chosenNumbers = Set(chosen.map(\.number))
        var others = check.report.cuts.enumerated().filter { !chosenNumbers.contains($0.offset) }
            .map { (cut: Optional($0.element), dismissed: check.dismissedCuts.contains($0.offset)) }
        for range in ranges.reversed() {
            report = report.cutting(range, sampleRate: format.sampleRate)
            others = others.map { ($0.cut?.shifted(byRemoving: range, sampleRate: format.sampleRate), $0.dismissed) }
        }
        others = others.filter { $0.cut != nil }
        report.cuts = others.compactMap(\.cut)
        let dismissed = Set(others.indices.filter { others[$0].dismissed })
        try catalog.keepTakeCheck(report, for: cutID, dismissed: check.dismissed, dismissedCuts: dismissed)
        if placed.withdrawn != nil { OutboxSweep.run(root: root, catalog: catalog) }
        return CutResult(index: placed.index, chunk: cut, cuts: count, framesCut: framesCut, withdrawn: placed.withdrawn)
    }

    /// Accepts every open cut of the article, one edit per take.
    /// - Returns: what each take's edit did, in the article's order.
    public func acceptAllCuts(of article: Article) throws(NarrationError) -> [CutResult] {
        var results: [CutResult] = []
        var seen: Set<ChunkID> = []
        for proposed in try proposedCuts(of: article) where seen.insert(proposed.chunk).inserted {
            if let result = try acceptCuts(nil, ofChunk: proposed.chunk, of: article) { results.append(result) }
        }
        return results
    }

    /// The surroundings of cut `number` of a take, `context` seconds either side, as read and
    /// as cut.
    /// - Throws: a usage error when the take has no such cut open; the file's errors.
    public func cutPreview(_ number: Int, ofChunk id: ChunkID, of article: Article, context: Double = 2.5) throws(NarrationError) -> CutPreview {
        let entries = try chunkEntries(of: article)
        guard let entry = entries.first(where: { $0.chunk.id == id }) else {
            throw NarrationError(.chunkIndexOutOfRange, "The take was deleted or replaced meanwhile.")
        }
        try entry.requireUsable()
        guard let open = try catalog.takeChecks(of: article.id)[id]?.openCuts.first(where: { $0.number == number }) else {
            throw NarrationError(.usage, "Chunk \(entry.index.number) has no cut \(number + 1) left to listen to: it was accepted or dismissed.")
        }
        let format = article.format
        let range = try Self.validated([open.cut.frames], within: entry.chunk.frames, chunk: entry.index)[0]
        let around = format.frames(forSeconds: max(0, min(context, 30)))
        let from = max(0, range.lowerBound - around)
        let to = min(entry.chunk.frames, range.upperBound + around)
        var asRead: [Int32] = []
        try AudioSegment.stream([AudioSegment(file: entry.file, range: from..<to)], format: format) { asRead += $0 }
        var asCut: [Int32] = []
        let pieces = CutJoin.pieces(cutting: [range], from: entry.chunk.frames, crossfade: format.frames(forSeconds: CutJoin.defaultCrossfadeSeconds))
            .compactMap { piece -> CutJoin.Piece? in
                guard case .copy(let frames) = piece else { return piece }
                let clamped = max(frames.lowerBound, from)..<min(frames.upperBound, to)
                return clamped.isEmpty ? nil : .copy(clamped)
            }
        try Self.render(pieces, of: entry.file, format: format) { asCut += $0 }
        return CutPreview(format: format, asRead: asRead, asCut: asCut)
    }

    /// `ranges` sorted, each within the take and apart from the next.
    private static func validated(_ ranges: [Range<Int>], within frames: FrameCount, chunk: ChunkIndex) throws(NarrationError) -> [Range<Int>] {
        let sorted = ranges.sorted { $0.lowerBound < $1.lowerBound }
        var end = 0
        for range in sorted {
            guard range.lowerBound >= end, range.upperBound <= frames, !range.isEmpty else {
                throw NarrationError(
                    .catalogCorrupt, "The take check of chunk \(chunk.number) proposes a cut outside the take or across another; nothing was cut.")
            }
            end = range.upperBound
        }
        return sorted
    }

    /// Streams the joined take `pieces` make of `file`.
    private static func render(
        _ pieces: [CutJoin.Piece], of file: URL, format: AudioFormat, _ body: (UnsafeBufferPointer<Int32>) throws(NarrationError) -> Void
    ) throws(NarrationError) {
        for piece in pieces {
            switch piece {
            case .copy(let frames):
                try AudioSegment.stream([AudioSegment(file: file, range: frames)], format: format, body)
            case .crossfade(let out, let into):
                var old: [Int32] = []
                var new: [Int32] = []
                try AudioSegment.stream([AudioSegment(file: file, range: out)], format: format) { old += $0 }
                try AudioSegment.stream([AudioSegment(file: file, range: into)], format: format) { new += $0 }
                let mixed = old.withUnsafeBufferPointer { old in
                    new.withUnsafeBufferPointer { new in PunchJoin.crossfade(old: old, new: new, channels: format.channels, bitsPerSample: format.bitsPerSample) }
                }
                try mixed.withUnsafeBufferPointer { (block) throws(NarrationError) in try body(block) }
            }
        }
    }
}

extension CutPreview {
    /// Plays the surroundings as read, or as cut, through the playback device `name`, and waits
    /// until they are heard. `shouldStop` is asked between blocks: playing then stops at once.
    /// - Throws: the device's errors.
    public func play(asCut: Bool, device name: String, shouldStop: () -> Bool = { false }) throws(NarrationError) {
        try play(asCut: asCut, on: try PlaybackDevice(name: name, format: format), shouldStop: shouldStop)
    }

    /// Plays the surroundings as read, or as cut, through `device` (opened in `format`) a
    /// period at a time, waits until they are heard, and closes it. `shouldStop` is asked
    /// between periods: playing then stops at once.
    /// - Throws: the device's errors.
    public func play(asCut: Bool, on device: any PlaybackOutput, shouldStop: () -> Bool = { false }) throws(NarrationError) {
        defer { try? device.close() }
        let samples = asCut ? self.asCut : asRead
        let block = max(1, device.periodFrames) * format.channels
        var start = 0
        try samples.withUnsafeBufferPointer { (all) throws(NarrationError) in
            while start < all.count {
                if shouldStop() {
                    device.stopNow()
                    return
                }
                let end = min(all.count, start + block)
                try device.write(UnsafeBufferPointer(rebasing: all[start..<end]))
                start = end
            }
            try device.drain()
        }
    }
}

extension CutPreview {
    /// The surroundings as a WAV file in memory (PCM at the article's rate, channels and bit
    /// depth), for a page to play.
    public func wav(asCut: Bool) -> [UInt8] {
        let samples = asCut ? self.asCut : asRead
        let bytesPerSample = max(1, format.bitsPerSample / 8)
        let dataBytes = samples.count * bytesPerSample
        var bytes: [UInt8] = []
        bytes.reserveCapacity(44 + dataBytes)
        func append(_ text: String) { bytes += Array(text.utf8) }
        func append32(_ value: Int) { for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) } }
        func append16(_ value: Int) { for shift in [0, 8] { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) } }
        append("RIFF")
        append32(36 + dataBytes)
        append("WAVEfmt ")
        append32(16)
        append16(1)
        append16(format.channels)
        append32(format.sampleRate)
        append32(format.sampleRate * format.channels * bytesPerSample)
        append16(format.channels * bytesPerSample)
        append16(bytesPerSample * 8)
        append("data")
        append32(dataBytes)
        let dropped = 32 - bytesPerSample * 8
        for sample in samples {
            let value = Int(sample) >> dropped
            for byte in 0..<bytesPerSample { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * byte))) }
        }
        return bytes
    }
}
