/// The container an article is exported to.
public enum ExportFormat: String, Sendable, CaseIterable, Codable {
    case mp3, wav, flac
    /// Ogg Vorbis.
    case ogg
    /// Ogg Opus.
    case opus

    public var fileExtension: String { rawValue }

    /// The format's name as volunteers know it.
    public var name: String {
        switch self {
        case .mp3: "MP3"
        case .wav: "WAV"
        case .flac: "FLAC"
        case .ogg: "Ogg Vorbis"
        case .opus: "Ogg Opus"
        }
    }

    /// The Content-Type an upload of this format carries (RFC 7845 gives Ogg Opus `audio/ogg`).
    public var mimeType: String {
        switch self {
        case .mp3: "audio/mpeg"
        case .wav: "audio/wav"
        case .flac: "audio/flac"
        case .ogg, .opus: "audio/ogg"
        }
    }

    /// Whether the encoder drops information (its loudness is measured again after encoding).
    public var isLossy: Bool { self == .mp3 || self == .ogg || self == .opus }

    /// Whether narrate writes chapters into files of this format: MP3 (ID3 CHAP frames), FLAC and
    /// Ogg Opus (CHAPTERxxx Vorbis comments). WAV and Ogg Vorbis files carry none.
    public var holdsChapters: Bool { self == .mp3 || self == .flac || self == .opus }

    /// The rates an Ogg Opus stream takes; libsndfile refuses any other.
    public static let opusSampleRates = [8_000, 12_000, 16_000, 24_000, 48_000]

    /// The sample rate a file of this format holds for an article recorded at `rate`: the same,
    /// except Opus, whose files narrate makes at 48 kHz whatever the article's rate (Opus's own
    /// rate, which every Opus decoder gives back by default; the conversion is libsoxr's, see
    /// `OpusWriter`).
    public func fileSampleRate(forArticleRate rate: Int) -> Int {
        self == .opus ? 48_000 : rate
    }

    /// The format of a file of this format made from an article in `article` under `profile`:
    /// the profile's sample-rate rule (Opus: always 48 kHz), its channels rule (a stereo article
    /// mixed to mono, see `ChannelMixer`) and its bit-depth rule (rounded, see `SampleRounding`);
    /// the article's own where it sets none.
    public func fileFormat(for article: AudioFormat, profile: DeliveryProfile?) -> AudioFormat {
        var file = article
        let rules = profile?.rules ?? []
        file.sampleRate = self == .opus ? fileSampleRate(forArticleRate: article.sampleRate)
            : rules.lazy.compactMap(\.requiredSampleRate).first ?? article.sampleRate
        if let channels = rules.lazy.compactMap(\.requiredChannels).first { file.channels = channels }
        if let bits = rules.lazy.compactMap(\.requiredBitsPerSample).first { file.bitsPerSample = bits }
        return file
    }
}

/// How an MP3 is encoded: constant or variable bitrate.
public enum MP3Encoding: Sendable, Equatable {
    /// Constant bitrate in kbit/s.
    case constant(kbps: Int)
    /// LAME's VBR quality, 0 (best) to 9.
    case variable(quality: Int)

    public static let standardBitrates = [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]

    /// Refuses settings that LAME cannot make gapless, saying why.
    public func validate(for format: AudioFormat) throws(NarrationError) {
        switch self {
        case .constant(let kbps):
            guard Self.standardBitrates.contains(kbps) else {
                throw .usage("\(kbps) kbit/s is not an MP3 bitrate. Use one of \(Self.standardBitrates.map(String.init).joined(separator: ", ")).")
            }
            let minimum = format.channels == 1 ? 56 : 96
            guard format.sampleRate < 32_000 || kbps >= minimum else {
                throw .usage(
                    "\(kbps) kbit/s is too low for \(format.sampleRate) Hz \(format.channels == 1 ? "mono" : "stereo"): LAME would resample it and drop the information gapless players need. Use at least \(minimum) kbit/s.")
            }
        case .variable(let quality):
            guard (0...9).contains(quality) else { throw .usage("VBR quality \(quality) is out of range; use 0 (best) to 9.") }
        }
    }
}

/// The text that goes into a delivered file's tags.
public struct ExportTags: Sendable, Equatable {
    public var title: String
    public var narrator: String
    public var publication: String
    /// "yyyy-MM-dd"
    public var date: String
    public var comment: String
    public var articleID: String
    public var genre = "Speech"

    public init(title: String, narrator: String, publication: String, date: String, comment: String, articleID: String) {
        self.title = title
        self.narrator = narrator
        self.publication = publication
        self.date = date
        self.comment = comment
        self.articleID = articleID
    }
}

/// One chapter of the delivered file: a chunk, with exact start and end.
public struct Chapter: Sendable, Equatable {
    public let title: String
    public let startFrame: FrameCount
    public let endFrame: FrameCount

    /// Milliseconds from the start, rounded, as ID3 CHAP frames store them.
    public func startMilliseconds(rate: Int) -> UInt32 { Self.milliseconds(startFrame, rate) }
    public func endMilliseconds(rate: Int) -> UInt32 { Self.milliseconds(endFrame, rate) }

    static func milliseconds(_ frames: FrameCount, _ rate: Int) -> UInt32 {
        UInt32(clamping: Timecode.milliseconds(frames: frames, rate: rate))
    }
}

/// What an export writes: the chunks' lengths in order, the paragraphs they read, and the
/// chapters made from them (see `ChapterStyle`).
public struct ExportPlan: Sendable, Equatable {
    public private(set) var format: AudioFormat
    /// Each chunk's stretch of the file, in order: "Part 1", "Part 2", …
    public private(set) var chunks: [Chapter]
    /// Where each paragraph read lies (see `TextSpan`).
    public private(set) var spans: [TextSpan]
    public private(set) var chapters: [Chapter]
    public let tags: ExportTags

    /// The article's number of the first chunk exported: 1, or N for chunks N…M. Chunks keep
    /// their article's numbers ("Part 3"); frames and times start at 0 at this chunk.
    public let firstChunk: Int

    /// - Parameter chunkParagraphs: the paragraph each chunk reads; nil (or all nil) for an
    ///   article without a text, whose chapters are then one per chunk.
    /// - Parameter firstChunk: the article's number of the first chunk in `chunkFrames`.
    public init(
        format: AudioFormat, chunkFrames: [FrameCount], chunkParagraphs: [Paragraph?]? = nil, chapterStyle: ChapterStyle = .paragraphs,
        tags: ExportTags, firstChunk: Int = 1
    ) {
        precondition(firstChunk >= 1, "chunks are numbered from 1")
        self.format = format
        self.tags = tags
        self.firstChunk = firstChunk
        chunks = ChapterStyle.chunkChapters(chunkFrames, firstChunk: firstChunk)
        spans = TextSpan.spans(
            chunkFrames: chunkFrames, chunkParagraphs: chunkParagraphs ?? chunkFrames.map { _ in nil }, firstChunk: firstChunk)
        chapters = chapterStyle.chapters(spans: spans, chunks: chunks)
    }

    public var totalFrames: FrameCount { chunks.last?.endFrame ?? 0 }

    /// The same plan for a file made at `rate` (a profile that needs another rate): every
    /// chunk's, span's and chapter's frames are `round(frames × rate / format.sampleRate)`, as the
    /// converter makes them, so every time in the file stays what it is in the article. The
    /// transcript and sidecar keep the article's plan: their times are seconds.
    public func converted(toSampleRate rate: Int) -> ExportPlan {
        let old = format.sampleRate
        func scaled(_ frame: FrameCount) -> FrameCount { Int((Double(frame) * Double(rate) / Double(old)).rounded()) }
        func scaled(_ chapter: Chapter) -> Chapter {
            Chapter(title: chapter.title, startFrame: scaled(chapter.startFrame), endFrame: scaled(chapter.endFrame))
        }
        var converted = self
        converted.format.sampleRate = rate
        converted.chunks = chunks.map(scaled)
        converted.chapters = chapters.map(scaled)
        converted.spans = spans.map {
            TextSpan(paragraph: $0.paragraph, firstChunk: $0.firstChunk, chunkCount: $0.chunkCount, startFrame: scaled($0.startFrame), endFrame: scaled($0.endFrame))
        }
        converted.sentenceCues = [:]  // in seconds already; the file's tags hold none
        return converted
    }

    /// Where the take check placed each sentence, by the chunk's number in the article, for chunks the export kept
    /// as they were recorded (no edge trimmed, no room tone added), so that the take's times
    /// are the file's.
    public var sentenceCues: [Int: [SentenceCue]] = [:]

    /// The transcript of the paragraphs read; nil for an article without a text.
    public var transcript: Transcript? {
        spans.contains { $0.paragraph != nil } ? Transcript(spans: spans, sampleRate: format.sampleRate, sentenceCues: sentenceCues) : nil
    }

    /// The whole length in milliseconds (ID3 TLEN).
    public var milliseconds: UInt32 { Chapter.milliseconds(totalFrames, format.sampleRate) }
}

/// File names made from titles: safe on every file system, readable, and never empty.
public enum SafeFileName {
    /// `title` with path separators, quotes and control characters replaced, whitespace
    /// collapsed, and at most `limit` UTF-8 bytes (cut at a character boundary).
    public static func make(_ title: String, limit: Int = 120) -> String {
        let forbidden: Set<Character> = ["/", "\\", ":", "*", "?", "\"", "'", "<", ">", "|"]
        var cleaned = ""
        var lastWasSpace = false
        for character in title {
            let isControl = character.unicodeScalars.allSatisfy { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format }
            let replacement: Character = forbidden.contains(character) || isControl ? "-" : character.isWhitespace ? " " : character
            if replacement == " " {
                if !lastWasSpace && !cleaned.isEmpty { cleaned.append(" ") }
                lastWasSpace = true
            } else {
                cleaned.append(replacement)
                lastWasSpace = false
            }
        }
        var result = cleaned.trimmingSpacesAndDots()
        while result.utf8.count > limit { result.removeLast() }
        result = result.trimmingSpacesAndDots()
        return result.isEmpty ? "article" : result
    }

    /// Whether `name` is one component of a path that stays where it is put: not empty, not
    /// `.` or `..`, no `/`, no control character, at most 255 bytes. Names read back from the
    /// catalog are checked with it before they reach a path.
    public static func isSafeComponent(_ name: Substring) -> Bool {
        !name.isEmpty && name != "." && name != ".." && name.utf8.count <= 255
            && !name.unicodeScalars.contains { $0 == "/" || $0.properties.generalCategory == .control }
    }

    /// Whether `path` is relative and made of safe components only (see `isSafeComponent`).
    public static func isSafeRelativePath(_ path: String) -> Bool {
        !path.hasPrefix("/") && path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy(isSafeComponent)
    }
}

extension String {
    fileprivate func trimmingSpacesAndDots() -> String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "." || first == "-" { text.removeFirst() }
        while let last = text.last, last == " " || last == "." { text.removeLast() }
        return String(text)
    }
}
