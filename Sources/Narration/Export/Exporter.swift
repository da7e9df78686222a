public import Foundation
public import NarrationAudio
public import NarrationCore

/// How an article is exported.
public struct ExportSettings: Sendable, Equatable {
    public var format: ExportFormat
    /// Used for MP3 only.
    public var mp3: MP3Encoding
    /// Used for Ogg Opus only: the bitrate in kbit/s (within `OpusBitrate.range`); nil for
    /// Opus's speech default for the file's channels (`OpusBitrate.speechDefault`).
    public var opusKbps: Int?
    /// Whether the file carries chapters, in formats that hold them (`ExportFormat.holdsChapters`:
    /// MP3's CTOC + CHAP frames, FLAC's and Ogg Opus's CHAPTERxxx comments).
    public var chapters: Bool
    /// What a chapter is: a paragraph, a section or a chunk.
    public var chapterStyle: ChapterStyle
    public var mastering: Mastering
    /// The first and last chunk to export (1-based, inclusive); nil: the article's first and last.
    /// Frames, chapters and transcript times then start at 0 at the first chunk exported.
    public var firstChunk: ChunkIndex?
    public var lastChunk: ChunkIndex?
    /// The profile whose rules the made file must pass before it is kept (nil: no rules). Its
    /// sample-rate rule also sets the file's rate.
    public var profile: DeliveryProfile?
    /// The language of a book's text (EPUB's `dc:language`, DAISY's, the documents' `xml:lang`),
    /// a BCP 47 tag (`Settings.language`); audio files carry none.
    public var language = "en"

    public init(
        format: ExportFormat, mp3: MP3Encoding = .constant(kbps: 128), chapters: Bool = true, chapterStyle: ChapterStyle = .paragraphs,
        mastering: Mastering = Mastering(), firstChunk: ChunkIndex? = nil, lastChunk: ChunkIndex? = nil, profile: DeliveryProfile? = nil,
        opusKbps: Int? = nil
    ) {
        self.format = format
        self.mp3 = mp3
        self.opusKbps = opusKbps
        self.chapters = chapters
        self.chapterStyle = chapterStyle
        self.mastering = mastering
        self.firstChunk = firstChunk
        self.lastChunk = lastChunk
        self.profile = profile
    }

    /// A profile's format, encoding, mastering and rules.
    public init(profile: DeliveryProfile, chapters: Bool = true) {
        self.init(
            format: profile.format, mp3: profile.mp3, chapters: chapters, mastering: profile.mastering, profile: profile,
            opusKbps: profile.opusKbps)
    }

    /// The format of the file made from an article in `article` (see `ExportFormat.fileFormat`).
    public func fileFormat(for article: AudioFormat) -> AudioFormat { format.fileFormat(for: article, profile: profile) }

    /// The Opus bitrate for a file of `channels` channels, in kbit/s.
    func opusBitrate(channels: Int) -> Int { opusKbps ?? OpusBitrate.speechDefault(channels: channels) }
}

/// What an export made.
public struct ExportResult: Sendable {
    public let file: URL
    /// Frames at the article's rate (an Opus file converted to 48 kHz holds
    /// `round(frames × 48000 / rate)`).
    public let frames: FrameCount
    public let bytes: Int
    public let plan: ExportPlan
    /// The chapters written into the file: 0 for a format that holds none (WAV, Ogg Vorbis) or
    /// without chapters, at most `VorbisComments.maximumChapters` in FLAC and Ogg Opus. Report this,
    /// never `plan.chapters.count`.
    public let chapters: Int
    /// The gain mastering applied, in dB (0 when untouched).
    public let gainDecibels: Double
    /// How many encoders made the file on as many cores: more than 1 for a long CBR MP3
    /// (`ParallelMP3Writer`), else 1.
    public let encoders: Int
    /// How far the room's noise was reduced (and what it needed); nil when it was left alone.
    public let noiseReduction: NoiseReductionStrength?
    /// The recording's noise floor (its quietest 500 ms) before mastering; nil without mastering.
    public let recordingNoiseFloor: Decibels?
    /// With a `ReadyExport`: how many MP3 segments were encoded now and how many were ready.
    public var segments: MP3SegmentReuse? = nil
}

/// Concatenates an article's chunks into one tagged file.
///
/// Streaming: one block of samples is in memory at a time, whatever the article's length. The
/// output appears atomically: it is written to a hidden temporary file in the destination's
/// folder, forced to disk and renamed into place; on any failure the temporary file is removed,
/// so the destination never holds a partial file.
enum Exporter {
    /// - Parameters:
    ///   - recordingClipping: the recording's clipped stretches (in the file's frames), which the
    ///     mastering's gain may have lowered below full scale in the file.
    ///   - noiseReduction: the noise gate every sample passes before the gain, if any.
    ///   - ready: the export kept nearly made, where it applies (`ReadyExport.applies`, checked by
    ///     the caller): its segments, part measures, gain and ceiling are used and renewed.
    static func export(
        _ segments: [AudioSegment], gain: SampleGain, ceiling: Decibels?, noiseReduction: NoiseReducer.Settings? = nil,
        noiseReductionStrength: NoiseReductionStrength? = nil, recordingNoiseFloor: Decibels? = nil, plan: ExportPlan,
        settings: ExportSettings, to destination: URL, recordingClipping: [Stretch] = [], ready: ReadyExport? = nil,
        progress: (FrameCount) -> Void
    ) throws(NarrationError) -> ExportResult {
        let folder = destination.deletingLastPathComponent()
        FileSystem.removeAbandonedPartials(in: folder)
        try FileSystem.clearTemporary(beside: destination)
        let temporary = FileSystem.temporaryURL(beside: destination)
        let masteringGain = gain
        var gain = gain
        var ceiling = ceiling
        do throws(NarrationError) {
            // A lossy encoder moves the loudness a little: aim off by what excerpts show it will
            // (or showed for the ready export's earlier takes).
            var shift: Double?
            if settings.mastering.loudnessTarget != nil, settings.format.isLossy {
                if let known = ready?.shift {
                    shift = known
                } else {
                    shift = try predictedLoudnessShift(
                        segments, frames: segments.reduce(0) { $0 + $1.range.count }, gain: gain, ceiling: ceiling,
                        noiseReduction: noiseReduction, plan: plan, settings: settings, beside: destination)
                }
                if let shift { gain = SampleGain(linear: gain.linear * SampleGain(decibels: -shift).linear) }
            }
            if let ready {
                gain = ready.gain(near: gain)
                if ceiling != nil, let lowered = ready.made.ceiling { ceiling = lowered }
            }
            var done = try encode(
                segments, gain: gain, ceiling: ceiling, noiseReduction: noiseReduction, plan: plan, settings: settings, to: temporary, ready: ready,
                progress: progress)
            // A file for a profile with rules is measured as check measures it; one without, only
            // for loudness, and only when there is a loudness target.
            let rules = settings.profile.map { !$0.rules.isEmpty } ?? false
            func measure() throws(NarrationError) -> Measurements {
                guard let ready, let parts = done.parts else { return try Analyzer.measureInParts(file: temporary) }
                return try Analyzer.measureInParts(file: temporary, parts: parts.ranges, store: (ready.parts, parts.keys))
            }
            var measured = rules || (ready != nil && settings.mastering.loudnessTarget != nil) ? try measure() : nil
            // A lossy encoder changes loudness a little (about 0.4 LU for some voices at 128 kbit/s):
            // measure what will be delivered, and only if it missed the target by more than 0.2 LU
            // encode once more with the difference made up (and a peak rule's miss taken off the
            // limiter's ceiling).
            // So does a conversion of rate or channels on the way into the file (a lowpass at 4 kHz
            // for 8 kHz, a stereo article mixed to mono): the file's loudness is not what was mastered.
            let fileFormat = settings.fileFormat(for: plan.format)
            let reshaped = settings.format.isLossy || fileFormat.sampleRate != plan.format.sampleRate || fileFormat.channels != plan.format.channels
            let deliveredLoudness: Double? =
                if let measured { measured.integratedLoudness } else if settings.mastering.loudnessTarget != nil && reshaped {
                    try Analyzer.integratedLoudness(of: temporary)
                } else { nil }
            if reshaped, let target = settings.mastering.loudnessTarget, let loudness = deliveredLoudness,
                abs(target.lufs(channels: fileFormat.channels) - loudness) > 0.2
            {
                FileSystem.discard(temporary)
                gain = SampleGain(linear: gain.linear * SampleGain(decibels: target.lufs(channels: fileFormat.channels) - loudness).linear)
                if let limit = ceiling, let made = measured, let excess = settings.profile?.peakExcess(of: made) {
                    ceiling = Decibels(limit.value - excess - 0.2)
                }
                done = try encode(
                    segments, gain: gain, ceiling: ceiling, noiseReduction: noiseReduction, plan: plan, settings: settings, to: temporary, ready: ready,
                    progress: progress)
                measured = rules ? try measure() : nil
            }
            if let profile = settings.profile, var measured {
                // An encoder can raise peaks past the limiter's ceiling (MP3: up to about 1 dB on
                // clipped or square-edged sound): up to twice, encode again with the ceiling
                // lowered by what the peak rule was missed by, and 0.2 dB more.
                for _ in 0..<2 {
                    guard let limit = ceiling, let excess = profile.peakExcess(of: measured) else { break }
                    FileSystem.discard(temporary)
                    ceiling = Decibels(limit.value - excess - 0.2)
                    done = try encode(
                        segments, gain: gain, ceiling: ceiling, noiseReduction: noiseReduction, plan: plan, settings: settings, to: temporary,
                        ready: ready, progress: progress)
                    measured = try measure()
                }
                try verify(measured, meets: profile, recordingClipping: recordingClipping, noiseReduction: noiseReductionStrength)
            }
            do throws(SystemError) {
                try FileSystem.replace(destination, with: temporary)
            } catch {
                throw NarrationError(
                    .fileSystem, "Cannot move the export into place at \(destination.path): \(error.reason).", subject: .file(destination.path),
                    cause: error.cause)
            }
            FileSystem.syncDirectory(folder)
            // What the encoder's shift and any second encode came to, and the ceiling the peaks
            // needed: the next export with `ready` starts from them and lands at once.
            ready?.remember(
                gain: gain, shift: masteringGain.decibels - gain.decibels, ceiling: ceiling, file: destination, measured: measured,
                segments: done.reuse)
            return ExportResult(
                file: destination, frames: done.frames, bytes: FileSystem.size(destination), plan: plan, chapters: done.chapters,
                gainDecibels: gain.isUnity ? 0 : 20 * log10(gain.linear), encoders: done.encoders,
                noiseReduction: noiseReduction == nil ? nil : noiseReductionStrength, recordingNoiseFloor: recordingNoiseFloor, segments: done.reuse)
        } catch {
            FileSystem.discard(temporary)
            if error.kind == .diskFull {
                throw NarrationError(.diskFull, "\(error.message) Nothing was written to \(destination.path); free some space and export again.")
            }
            throw error
        }
    }

    /// Throws, naming each rule it fails, what was measured and why, if the made file (measured
    /// as `check` does) does not meet `profile`: a file that would fail its own profile's check
    /// is never moved into place or queued.
    /// - Throws: `profileNotMet`.
    private static func verify(
        _ measured: Measurements, meets profile: DeliveryProfile, recordingClipping: [Stretch], noiseReduction: NoiseReductionStrength?
    ) throws(NarrationError) {
        var measured = measured
        // Clipping the mastering lowered below full scale is still clipping.
        if measured.clipping.isEmpty { measured.clipping = recordingClipping }
        if let shortfall = profile.shortfall(of: measured, noiseReduction: noiseReduction) {
            throw NarrationError(.profileNotMet, shortfall)
        }
    }

    /// The file for `settings.format` at `path`, and the chapters it will hold.
    ///
    /// The file is made in `settings.fileFormat(for:)`: a profile that needs another rate (and
    /// Opus, always 48 kHz) gets the samples converted on the way in by libsoxr, after a stereo
    /// article is mixed to mono for a profile that wants mono, and rounded to the profile's bit
    /// depth last. A file at another rate is made from the converted plan (its chapters' frames at
    /// that rate, the same times); Opus's chapters are written in milliseconds from the article's
    /// own frames.
    static func makeSink(at path: URL, plan: ExportPlan, settings: ExportSettings) throws(NarrationError) -> (any AudioSink, chapters: Int) {
        let source = plan.format
        let file = settings.fileFormat(for: source)
        let filePlan = file.sampleRate == source.sampleRate ? plan : plan.converted(toSampleRate: file.sampleRate)
        var sink: any AudioSink
        let chapters: Int
        switch settings.format {
        case .mp3:
            sink = try MP3Writer(
                creating: path.path, format: file, encoding: settings.mp3, tag: ID3Tag(plan: filePlan, chapters: settings.chapters))
            chapters = settings.chapters ? plan.chapters.count : 0
        case .flac:
            let comments = VorbisComments(plan: filePlan, chapters: settings.chapters)
            sink = try FLACWriter(creating: path.path, format: file, comments: comments, expectedFrames: filePlan.totalFrames)
            chapters = comments.chapterCount
        case .wav, .ogg:
            sink = try SoundFileWriter(creating: path.path, format: file, container: settings.format, tags: plan.tags)
            chapters = 0
        case .opus:
            let comments = VorbisComments(plan: plan, chapters: settings.chapters)
            sink = try OpusWriter(creating: path.path, format: file, comments: comments, kbps: settings.opusBitrate(channels: file.channels))
            chapters = comments.chapterCount
        }
        if file.bitsPerSample < source.bitsPerSample { sink = RoundingSink(bitsPerSample: file.bitsPerSample, into: sink) }
        if file.sampleRate != source.sampleRate {
            sink = ResamplingSink(from: source.sampleRate, to: file.sampleRate, channels: file.channels, into: sink)
        }
        if file.channels != source.channels { sink = ChannelMixingSink(ChannelMixer(from: source.channels, to: file.channels), into: sink) }
        return (sink, chapters)
    }

    /// What `encode` made.
    struct Encoded {
        let frames: FrameCount
        let chapters: Int
        let encoders: Int
        var reuse: MP3SegmentReuse? = nil
        /// With a ready export: the parts of the file to measure (one per MP3 segment, on the
        /// 100 ms grid) and their keys.
        var parts: (ranges: [Range<FrameCount>], keys: [String])? = nil
    }

    /// Streams the segments through the noise gate (if any), gain and limiter into a new file at
    /// `path`. A long CBR MP3 is encoded on every core the process may use (`ParallelMP3Writer`);
    /// with `ready`, in one MP3 segment per chunk, reusing those it holds.
    private static func encode(
        _ segments: [AudioSegment], gain: SampleGain, ceiling: Decibels?, noiseReduction: NoiseReducer.Settings?, plan: ExportPlan,
        settings: ExportSettings, to path: URL, ready: ReadyExport? = nil, progress: (FrameCount) -> Void
    ) throws(NarrationError) -> Encoded {
        if let ready {
            return try encodeReusing(
                ready, segments, gain: gain, ceiling: ceiling, noiseReduction: noiseReduction, plan: plan, settings: settings, to: path,
                progress: progress)
        }
        // In parallel only when the samples go into the file as they are (no rate, channel or depth
        // conversion on the way, which only `makeSink` makes).
        if settings.format == .mp3, settings.fileFormat(for: plan.format) == plan.format {
            let frames = segments.reduce(0) { $0 + $1.range.count }
            let encoders = ParallelMP3Writer.segments(for: frames, format: plan.format, encoding: settings.mp3, cores: Processors.available)
            if encoders > 1 {
                try ParallelMP3Writer.write(
                    creating: path.path, format: plan.format, encoding: settings.mp3, tag: ID3Tag(plan: plan, chapters: settings.chapters),
                    frames: frames, segments: encoders, helpers: ParallelWork.mp3EncoderThreads,
                    produce: producer(segments, frames: frames, gain: gain, ceiling: ceiling, noiseReduction: noiseReduction, format: plan.format),
                    progress: progress)
                return Encoded(frames: frames, chapters: settings.chapters ? plan.chapters.count : 0, encoders: encoders)
            }
        }
        let (sink, chapters) = try makeSink(at: path, plan: plan, settings: settings)
        var done: FrameCount = 0
        do throws(NarrationError) {
            var limiter = PeakLimiter(gain: gain, ceiling: ceiling ?? Decibels(0), format: plan.format)
            func write(_ samples: [Int32]) throws(NarrationError) {
                try samples.withUnsafeBufferPointer { (buffer) throws(NarrationError) in try sink.write(buffer) }
                done += samples.count / plan.format.channels
                progress(done)
            }
            /// After the gate: through the limiter, or straight into the file when nothing is to be limited.
            func limit(_ block: UnsafeBufferPointer<Int32>) throws(NarrationError) {
                if gain.isUnity && ceiling == nil {
                    try sink.write(block)
                    done += block.count / plan.format.channels
                    progress(done)
                } else {
                    try write(limiter.process(block))
                }
            }
            let reducer = noiseReduction.map { NoiseReducer($0, format: plan.format) }
            try streamThroughGate(segments, reducer: reducer, format: plan.format, limit)
            if !(gain.isUnity && ceiling == nil) { try write(limiter.flush()) }
            try sink.close()
        } catch {
            try? sink.close()
            throw error
        }
        return Encoded(frames: done, chapters: chapters, encoders: 1)
    }
}

extension Exporter {
    /// Streams the segments (or the frames `window` of them joined) through the noise gate, if
    /// any, to `body`: the gate's held-back frames come out at the end.
    static func streamThroughGate(
        _ segments: [AudioSegment], window: Range<FrameCount>? = nil, reducer: NoiseReducer?, format: AudioFormat,
        _ body: (UnsafeBufferPointer<Int32>) throws(NarrationError) -> Void
    ) throws(NarrationError) {
        try AudioSegment.stream(segments, window: window, format: format) { (block) throws(NarrationError) in
            if let reducer {
                try reducer.process(block).withUnsafeBufferPointer { (gated) throws(NarrationError) in try body(gated) }
            } else {
                try body(block)
            }
        }
        if let reducer {
            try reducer.flush().withUnsafeBufferPointer { (gated) throws(NarrationError) in try body(gated) }
        }
    }

    /// Frames a limiter started this long before a stretch has forgotten where it started: its
    /// gain recovers by e^(−1/(release × rate)) a frame, so after 50 release times (80 ms) any
    /// difference is below a 16-bit sample's rounding, and two limiters fed the same frames
    /// give the same output from there on.
    static let limiterSettlingSeconds = 4.0

    /// Frames a noise gate started this long before the limiter's start (at a multiple of its hop
    /// from the stream's start, so that it analyses the same windows) gives exactly what a gate
    /// started at the stream's start gives: a window's gains depend on the examined windows
    /// around it, the attack's reach and the release's chain, which ends at the reduction after
    /// 1 + 100 ms / hop windows; about 20 windows, 0.25 s at 44.1 kHz. A second is plenty.
    static let gateSettlingSeconds = 1.0

    /// Makes any stretch of the joined segments through noise gate, gain and limiter, for a
    /// parallel encode: each stretch gets a gate and a limiter of its own, the limiter started
    /// `limiterSettlingSeconds` before it and the gate `gateSettlingSeconds` before that, and run
    /// a second past its end so that their look-aheads see what a single pass would.
    static func producer(
        _ segments: [AudioSegment], frames total: FrameCount, gain: SampleGain, ceiling: Decibels?, noiseReduction: NoiseReducer.Settings? = nil,
        format: AudioFormat
    ) -> SampleProducer {
        { range, write in
            let limits = !gain.isUnity || ceiling != nil
            guard limits || noiseReduction != nil else {
                try AudioSegment.stream(segments, window: range, format: format, write)
                return
            }
            let channels = format.channels
            let limiterStart = limits ? max(0, range.lowerBound - format.frames(forSeconds: limiterSettlingSeconds)) : range.lowerBound
            let reducer = noiseReduction.map { NoiseReducer($0, format: format) }
            var start = limiterStart
            if let reducer {
                let early = max(0, limiterStart - format.frames(forSeconds: gateSettlingSeconds))
                start = early / reducer.hop * reducer.hop
            }
            var limiter = PeakLimiter(gain: gain, ceiling: ceiling ?? Decibels(0), format: format)
            /// Hands on the frames of `samples` (the stream's from `position` on) that lie in `range`.
            var position = limiterStart
            func pass(_ samples: UnsafeBufferPointer<Int32>) throws(NarrationError) {
                let frames = samples.count / channels
                let from = max(range.lowerBound, position), to = min(range.upperBound, position + frames)
                position += frames
                guard from < to else { return }
                try write(UnsafeBufferPointer(rebasing: samples[((from - position + frames) * channels)..<((to - position + frames) * channels)]))
            }
            /// The gate's output (the stream's from `gated` on): from the limiter's start, limited.
            var gated = start
            func limit(_ samples: UnsafeBufferPointer<Int32>) throws(NarrationError) {
                let frames = samples.count / channels
                let skip = min(frames, max(0, limiterStart - gated))
                gated += frames
                guard skip < frames else { return }
                let kept = UnsafeBufferPointer(rebasing: samples[(skip * channels)...])
                if limits {
                    try limiter.process(kept).withUnsafeBufferPointer { (limited) throws(NarrationError) in try pass(limited) }
                } else {
                    try pass(kept)
                }
            }
            try streamThroughGate(
                segments, window: start..<min(total, range.upperBound + format.frames(forSeconds: 1)), reducer: reducer, format: format, limit)
            if limits {
                try limiter.flush().withUnsafeBufferPointer { (output) throws(NarrationError) in try pass(output) }
            }
        }
    }
}

extension NarrationLibrary {
    /// Exports the article's chunks, in order, to `destination`.
    /// - Parameter progress: called with the frames done so far, from this thread.
    /// With `settings.firstChunk`/`lastChunk`, only those chunks: the file, its chapters, tags and
    /// transcript are those of chunks N…M, with times from 0 at chunk N.
    /// - Throws: `emptyArticle`; `usage` for chunks the article does not have or a first chunk
    ///   after the last; `chunkFileMissing`/`fileCorrupt` naming the chunk; `articleBusy`
    ///   while the article is being recorded; `usage` for a bitrate LAME cannot make gapless;
    ///   `fileSystem`/`diskFull` for the destination (which is then left untouched).
    @discardableResult
    public func export(
        _ article: Article, to destination: URL, settings: ExportSettings, ready: ReadyExport? = nil,
        progress: (FrameCount, FrameCount) -> Void = { _, _ in }
    ) throws(NarrationError) -> ExportResult {
        let lock = try ArticleLock.acquire(for: article, at: root.lockURL(article.id), purpose: .export)
        defer { withExtendedLifetime(lock) {} }
        return try exportLocked(
            article, entries: try chunkEntries(of: article), to: destination, settings: settings, ready: ready, progress: progress)
    }

    /// `export` for a caller that already holds the article's lock and has read its chunks (queue).
    func exportLocked(
        _ article: Article, entries: [ChunkEntry], to destination: URL, settings: ExportSettings, ready: ReadyExport? = nil,
        progress: (FrameCount, FrameCount) -> Void
    ) throws(NarrationError) -> ExportResult {
        if settings.format == .mp3 {
            try settings.mp3.validate(for: settings.fileFormat(for: article.format))
        }
        if settings.format == .opus, let kbps = settings.opusKbps {
            try OpusBitrate.validate(kbps)
        }
        guard !entries.isEmpty else {
            throw .emptyArticle(article, nothingTo: "export")
        }
        let entries = try Self.chunks(settings.firstChunk, through: settings.lastChunk, of: entries, in: article)
        for entry in entries {
            try verifyFile(of: entry, format: article.format, then: .exportAgain)
        }
        try checkDestination(destination)
        let measures = settings.mastering.isIdentity ? [] : try measures(of: entries, format: article.format)
        // A ready export is used only where it applies (CBR MP3 at an MPEG-1 rate, no conversion).
        let ready = ready.flatMap { ReadyExport.applies(to: settings, format: article.format) ? $0 : nil }
        let limiterKnown = ready != nil
        let mastered = try Mastering.prepare(
            entries, measures: measures, format: article.format, mastering: settings.mastering, noiseFloorLimit: settings.profile?.noiseFloorLimit,
            limiterKnown: limiterKnown)
        let paragraphs = Dictionary(uniqueKeysWithValues: try catalog.paragraphs(of: article.id).map { ($0.id, $0) })
        var plan = ExportPlan(
            format: article.format, chunkFrames: mastered.chapterFrames,
            chunkParagraphs: entries.map { $0.chunk.paragraphID.flatMap { paragraphs[$0] } }, chapterStyle: settings.chapterStyle,
            tags: tags(for: article, entries: entries), firstChunk: entries[0].index.number)
        if !paragraphs.isEmpty {
            let checks = try catalog.takeChecks(of: article.id)
            for (position, entry) in entries.enumerated() where mastered.chapterFrames[position] == entry.chunk.frames {
                if let cues = checks[entry.chunk.id]?.report.sentenceCues, !cues.isEmpty { plan.sentenceCues[entry.index.number] = cues }
            }
        }
        return try Exporter.export(
            mastered.segments, gain: mastered.gain, ceiling: settings.mastering.peakCeiling, noiseReduction: mastered.noiseReduction,
            noiseReductionStrength: mastered.noiseReductionStrength, recordingNoiseFloor: mastered.noiseFloor, plan: plan, settings: settings,
            to: destination, recordingClipping: mastered.clipping, ready: ready
        ) { done in
            progress(done, plan.totalFrames)
        }
    }

    /// Chunks `first`…`last` of `entries` (all of them when both are nil).
    /// - Throws: `usage` naming a chunk the article does not have, with its chunk count, or a
    ///   first chunk after the last.
    static func chunks(
        _ first: ChunkIndex?, through last: ChunkIndex?, of entries: [ChunkEntry], in article: Article
    ) throws(NarrationError) -> [ChunkEntry] {
        let count = entries.count
        for index in [first, last].compactMap({ $0 }) where !(1...count).contains(index.number) {
            let has = count == 1 ? "1 chunk" : "\(count) chunks (1–\(count))"
            throw NarrationError(
                .usage, "There is no chunk \(index.number): \"\(article.title)\" has \(has).", subject: .chunk(index), remedy: .listChunks)
        }
        let from = first ?? ChunkIndex(1)
        let to = last ?? ChunkIndex(count)
        guard from <= to else {
            throw .usage("Chunk \(from), the first to export, comes after chunk \(to), the last; give the first chunk first.")
        }
        return Array(entries[from.position...to.position])
    }

    func tags(for article: Article, entries: [ChunkEntry]) -> ExportTags {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        let recorded = entries.map(\.chunk.recordedAt).min() ?? article.createdAt
        let comment = article.narrator.isEmpty ? "Narrated with narrate." : "Narrated by \(article.narrator)."
        return ExportTags(
            title: article.title, narrator: article.narrator, publication: article.publication,
            date: article.date ?? formatter.string(from: recorded), comment: comment, articleID: article.id.rawValue)
    }

    private func checkDestination(_ destination: URL) throws(NarrationError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: destination.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw .usage("\(destination.path) is a folder; give the file to write, e.g. \(destination.appendingPathComponent("article.mp3").path).")
        }
        let folder = destination.deletingLastPathComponent()
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw NarrationError(.fileSystem, "The folder \(folder.path) does not exist; create it or export somewhere else.")
        }
        do throws(SystemError) {
            try FileSystem.checkWritable(folder.path)
        } catch {
            throw NarrationError(
                .fileSystem, "Cannot write to \(folder.path) (\(error.reason)); export somewhere else.", subject: .file(folder.path), cause: error.cause)
        }
    }
}
