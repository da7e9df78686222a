public import Foundation
import NarrationAudio
public import NarrationCore

/// An audio file brought into an article as a chunk: what it was and what it became.
public struct ImportedFile: Sendable {
    /// The file imported, as given.
    public let source: URL
    /// The file's rate and channels (`bitsPerSample`: see `SoundFileReader.format`).
    public let sourceFormat: AudioFormat
    /// How the file holds its audio: "MP3", "WAV 16-bit", "Ogg Vorbis".
    public let sourceEncoding: String
    /// The frames decoded from the file, at its own rate.
    public let sourceFrames: FrameCount
    /// The chunk it became, in the article's format.
    public let chunk: Chunk
    public let index: ChunkIndex
    /// The chunk's file.
    public let file: URL
}

/// What `importAudio` did.
public struct ImportResult: Sendable {
    public let article: Article
    /// One per file, in the order given: the chunks appended.
    public let files: [ImportedFile]
    /// The article's export this import withdrew, if it had one.
    public let withdrawn: WithdrawnExport?

    /// The frames of all imported chunks.
    public var frames: FrameCount { files.reduce(0) { $0 + $1.chunk.frames } }
}

/// How far an import is: file `number` of `count`, `done` of its `total` frames decoded.
public struct ImportProgress: Sendable {
    public let number: Int
    public let count: Int
    public let source: URL
    public let done: FrameCount
    public let total: FrameCount
}

extension NarrationLibrary {
    /// Appends audio files to the end of `article`, each file one chunk, in the order given:
    /// all of them or, on any failure, none.
    ///
    /// Each file is decoded by libsndfile (WAV, FLAC, Ogg Vorbis and Opus, MP3, AIFF and more)
    /// and streamed, block by block, into the article's format: channels through
    /// `ChannelMixer` (stereo to mono as the mean of the channels, mono to stereo duplicated,
    /// more channels as their mean), the rate through `SampleRateConverter` (libsoxr), the depth
    /// through `SampleRounding` (to the nearest, held at full scale). Its chunk is written to a
    /// temporary file beside its final name, and measured (peak, RMS) from the samples written,
    /// as a recorded take is. When every file is converted, one catalog transaction appends the
    /// chunks and renames their files; the article's export is withdrawn in it. The chunks are
    /// not recovered takes, are dated now and read no paragraph of the article's text.
    ///
    /// The article is locked meanwhile, so that no take is recorded into it at the same time.
    /// Every file is opened before any is converted, so a missing or unreadable one is reported
    /// at once. On failure every temporary file is removed and the catalog is unchanged.
    /// - Throws: `articleBusy`; for a file that is missing, a folder, unreadable, empty, holds
    ///   no audio or is not audio libsndfile reads, or that fails while it is decoded, one
    ///   sentence naming it, its place among the files and the fix; `diskFull`; the catalog's errors.
    public func importAudio(
        _ sources: [URL], into article: Article, progress: (ImportProgress) -> Void = { _ in }
    ) throws(NarrationError) -> ImportResult {
        precondition(!sources.isEmpty, "an import needs files")
        let lock = try ArticleLock.acquire(for: article, at: root.lockURL(article.id), purpose: .edit)
        defer { withExtendedLifetime(lock) {} }
        try root.prepareArticle(article.id)
        FileSystem.removeAbandonedPartials(in: root.chunksURL(article.id))  // a killed import's

        for (position, source) in sources.enumerated() {
            try ImportSource(source, number: position + 1, of: sources.count).open().close()
        }
        var converted: [ConvertedFile] = []
        let root = self.root
        do throws(NarrationError) {
            for (position, source) in sources.enumerated() {
                let file = ImportSource(source, number: position + 1, of: sources.count)
                converted.append(try convert(file, into: article, progress: progress))
            }
            let moves = converted.map { ($0.partial, root.chunkURL($0.chunk.id, of: article.id)) }
            let placed = try catalog.importChunks(converted.map(\.chunk), into: article.id) {
                for (partial, final) in moves { try FileSystem.move(partial, to: final) }
            }
            FileSystem.syncDirectory(root.chunksURL(article.id))
            if placed.withdrawn != nil { OutboxSweep.run(root: root, catalog: catalog) }
            try? use(article)  // the chunks are in: an article not made current is no reason to say the import failed
            let files = zip(converted, placed.indexes).map { file, index in
                ImportedFile(
                    source: file.source, sourceFormat: file.sourceFormat, sourceEncoding: file.sourceEncoding, sourceFrames: file.sourceFrames,
                    chunk: file.chunk, index: index, file: root.chunkURL(file.chunk.id, of: article.id))
            }
            return ImportResult(article: article, files: files, withdrawn: placed.withdrawn)
        } catch {
            // The catalog holds none of them: their files go, under either name.
            for file in converted {
                FileSystem.discard(file.partial)
                FileSystem.discard(root.chunkURL(file.chunk.id, of: article.id))
            }
            // A file's refusal says so already; a full disk or the catalog's failure does not.
            guard !error.message.hasPrefix(ImportSource.nothingImported) else { throw error }
            throw NarrationError(error.kind, "\(error.message) Nothing was imported.", subject: error.subject, cause: error.cause, remedy: error.remedy)
        }
    }

    /// A file converted into a chunk file under its temporary name.
    private struct ConvertedFile {
        let source: URL
        let sourceFormat: AudioFormat
        let sourceEncoding: String
        let sourceFrames: FrameCount
        let chunk: Chunk
        let partial: URL
    }

    /// Streams one file into a new chunk file in the article's format, under the temporary name
    /// beside the chunk's final name (removed again if anything fails).
    private func convert(
        _ source: ImportSource, into article: Article, progress: (ImportProgress) -> Void
    ) throws(NarrationError) -> ConvertedFile {
        let reader = try source.open()
        defer { reader.close() }
        let id = ChunkID.random()
        let partial = FileSystem.temporaryURL(beside: root.chunkURL(id, of: article.id))
        let writer = try SoundFileWriter(creating: partial.path, format: article.format)
        var written = false
        defer {
            if !written {
                try? writer.close()
                FileSystem.discard(partial)
            }
        }
        let pipeline = ImportPipeline(from: reader.format, to: article.format)
        var levels = LevelAccumulator(channels: article.format.channels)
        func emit(_ samples: [Int32]) throws(NarrationError) {
            guard !samples.isEmpty else { return }
            try samples.withUnsafeBufferPointer { (block) throws(NarrationError) in
                levels.add(block)
                try writer.write(block)
            }
        }

        // A block holds 32,768 samples whatever the number of channels (libsndfile allows 1,024).
        let blockFrames = max(32, 32_768 / reader.format.channels)
        // A header may understate the length: the decoding stops at a chunk's longest all the same.
        let longest = ImportSource.longest(rate: reader.format.sampleRate)
        var block = [Int32](repeating: 0, count: blockFrames * reader.format.channels)
        var decoded: FrameCount = 0
        while true {
            let read: FrameCount
            do throws(NarrationError) {
                read = try block.withUnsafeMutableBufferPointer { (buffer) throws(NarrationError) in
                    try reader.read(into: buffer, frames: blockFrames)
                }
            } catch {
                throw source.refusal(.fileCorrupt, "could not be read to its end (\(source.reason(error.message))); check that it plays, or copy or export it again")
            }
            if read == 0 { break }
            decoded += read
            guard decoded <= longest else { throw source.tooLong(rate: reader.format.sampleRate) }
            try block.withUnsafeBufferPointer { (buffer) throws(NarrationError) in
                try pipeline.convert(UnsafeBufferPointer(rebasing: buffer[0..<(read * reader.format.channels)]), emit: emit)
            }
            progress(ImportProgress(number: source.number, count: source.count, source: source.url, done: decoded, total: max(reader.frames, decoded)))
        }
        try pipeline.finish(emit: emit)
        guard decoded > 0, levels.frames > 0 else { throw source.emptyAudio }
        try writer.close()
        written = true
        let chunk = Chunk(
            id: id, articleID: article.id, frames: levels.frames, format: article.format, peak: levels.peak, rms: levels.rms,
            overruns: 0, recovered: false, recordedAt: Date(), paragraphID: nil)
        return ConvertedFile(
            source: source.url, sourceFormat: reader.format, sourceEncoding: reader.encoding.description, sourceFrames: decoded,
            chunk: chunk, partial: partial)
    }
}

/// One file named for import, with its place among them, and the sentences that refuse it.
private struct ImportSource {
    let url: URL
    let number: Int
    let count: Int

    init(_ url: URL, number: Int, of count: Int) {
        self.url = url
        self.number = number
        self.count = count
    }

    /// Opens the file for decoding.
    /// - Throws: a refusal naming the file when it is missing, a folder, unreadable, empty
    ///   (0 bytes or 0 frames) or not audio libsndfile reads.
    func open() throws(NarrationError) -> SoundFileReader {
        let status: FileStatus
        do throws(SystemError) {
            status = try FileSystem.status(of: url.path)
        } catch {
            throw error.isMissing
                ? refusal(.fileSystem, "does not exist; check its name and folder")
                : refusal(.fileSystem, "cannot be opened (\(error.reason)); check its permissions")
        }
        guard status.kind != .folder else { throw refusal(.fileSystem, "is a folder; name the audio files in it") }
        guard status.size > 0 else { throw refusal(.fileCorrupt, "is empty (0 bytes); copy or export it again") }
        do throws(SystemError) {
            _ = try OpenFile(url.path, .read)
        } catch {
            throw refusal(.fileSystem, "cannot be opened (\(error.reason)); check its permissions")
        }
        let outside: OutsideAudioFile
        do throws(OutsideAudioFile.Problem) {
            outside = try OutsideAudioFile(url)
        } catch {
            throw refusal(.fileCorrupt, error.what)
        }
        let reader: SoundFileReader
        do throws(NarrationError) {
            reader = try SoundFileReader(path: url.path)
        } catch {
            throw refusal(.fileCorrupt, "is not audio narrate can read (\(reason(error.message))); give a WAV, FLAC, Ogg Vorbis or Opus, MP3 or AIFF file")
        }
        if let problem = outside.lengthProblem(rate: reader.format.sampleRate) {
            reader.close()
            throw refusal(.fileCorrupt, problem.what)
        }
        guard reader.frames > 0 else {
            reader.close()
            throw emptyAudio
        }
        guard Self.importableRates.contains(reader.format.sampleRate) else {
            reader.close()
            throw refusal(
                .fileCorrupt,
                "claims a sample rate of \(reader.format.sampleRate) Hz, which no recording has; narrate imports \(Self.importableRates.lowerBound) to \(Self.importableRates.upperBound) Hz: the file is damaged, or convert it first")
        }
        // libsndfile gives the largest count it has when it does not know the length (a stream).
        if reader.frames != Int(Int64.max), reader.frames > Self.longest(rate: reader.format.sampleRate) {
            reader.close()
            throw tooLong(rate: reader.format.sampleRate, frames: reader.frames)
        }
        return reader
    }

    /// The sample rates a file may have: from 4 kHz (below any speech recording's) to 384 kHz
    /// (the highest studio rate). Anything else is a damaged or forged header, and a ratio far
    /// beyond these would make the rate converter's work and output absurd.
    static let importableRates = 4_000...384_000

    /// The most frames a file at `rate` may hold: a chunk's longest, `AudioTime.maximumSeconds`.
    static func longest(rate: Int) -> FrameCount {
        FrameCount(AudioTime.maximumSeconds) * rate
    }

    /// A file longer than a chunk can be; `frames`, when the header says how long it is.
    func tooLong(rate: Int, frames: FrameCount? = nil) -> NarrationError {
        let length = frames.map { " (\(Timecode.clock(Double($0 / rate))) at \(rate) Hz)" } ?? ""
        return refusal(.usage, "is longer than a chunk can be\(length): a chunk holds at most 24 hours; split the file into parts and import them")
    }

    var emptyAudio: NarrationError {
        refusal(.fileCorrupt, "holds no audio (0 frames); copy or export it again")
    }

    static let nothingImported = "Nothing was imported:"

    /// "Nothing was imported: /path/file.txt (file 3 of 4) is not audio …."
    func refusal(_ kind: NarrationError.Kind, _ what: String) -> NarrationError {
        let which = count == 1 ? url.path : "\(url.path) (file \(number) of \(count))"
        return NarrationError(kind, "\(Self.nothingImported) \(which) \(what).", subject: .file(url.path))
    }

    /// libsndfile's words without the reader's framing, to go in parentheses:
    /// "Cannot read PATH: Error : flac decoder lost sync." → "flac decoder lost sync".
    func reason(_ message: String) -> String {
        var reason = Substring(message)
        for prefix in ["Cannot read \(url.path): ", "System error : ", "Error : "] where reason.hasPrefix(prefix) {
            reason = reason.dropFirst(prefix.count)
        }
        while reason.hasSuffix(".") { reason = reason.dropLast() }
        return String(reason)
    }
}

/// The conversion of one file's samples into an article's format, block by block: channels
/// down (or kept), the rate, channels up, the depth. Channels are reduced before the rate
/// converter and added after it, so that it filters as few channels as it can. Whatever the
/// ratio of the rates, what it hands on comes in blocks of at most
/// `SampleRateConverter.outputBlockFrames` frames (or the input block's size, when the rate stays).
private final class ImportPipeline {
    private let down: ChannelMixer
    private let converter: SampleRateConverter?
    private let up: ChannelMixer
    private let rounding: SampleRounding

    init(from source: AudioFormat, to target: AudioFormat) {
        let inner = source.channels == 2 && target.channels == 2 ? 2 : 1
        down = ChannelMixer(from: source.channels, to: inner)
        up = ChannelMixer(from: inner, to: target.channels)
        converter = source.sampleRate == target.sampleRate ? nil : SampleRateConverter(from: source.sampleRate, to: target.sampleRate, channels: inner)
        rounding = SampleRounding(bitsPerSample: target.bitsPerSample)
    }

    /// Converts `input`, handing the frames ready to `emit` (the rate converter holds some back).
    func convert(_ input: UnsafeBufferPointer<Int32>, emit: ([Int32]) throws(NarrationError) -> Void) throws(NarrationError) {
        let mixed = down.isIdentity ? Array(input) : down.mix(input)
        guard let converter else { return try emit(shaped(mixed[...])) }
        try mixed.withUnsafeBufferPointer { (buffer) throws(NarrationError) in
            try converter.convert(buffer) { (block) throws(NarrationError) in try emit(shaped(block)) }
        }
    }

    /// Hands what the rate converter still holds, converted, to `emit`.
    func finish(emit: ([Int32]) throws(NarrationError) -> Void) throws(NarrationError) {
        try converter?.finish { (block) throws(NarrationError) in try emit(shaped(block)) }
    }

    private func shaped(_ samples: ArraySlice<Int32>) -> [Int32] {
        var output = up.isIdentity ? Array(samples) : samples.withUnsafeBufferPointer { up.mix($0) }
        rounding.apply(to: &output)
        return output
    }
}
