/// A transcript of an export: one cue per paragraph read, at its exact start and end (from the
/// chunks' frame counts), written as WebVTT or SubRip.
public struct Transcript: Sendable, Equatable {
    /// The two formats players read.
    public enum Format: String, Sendable, CaseIterable, Codable {
        case vtt, srt

        public var fileExtension: String { rawValue }
        public var mimeType: String { self == .vtt ? "text/vtt" : "application/x-subrip" }
        /// The type a podcast feed's `podcast:transcript` names (the Podcasting 2.0 list says
        /// `application/srt` for SubRip).
        public var feedType: String { self == .vtt ? "text/vtt" : "application/srt" }
    }

    /// One cue: a stretch of the audio and the words read in it.
    public struct Cue: Sendable, Equatable {
        public let startFrame: FrameCount
        public let endFrame: FrameCount
        public let text: String

        public init(startFrame: FrameCount, endFrame: FrameCount, text: String) {
            self.startFrame = startFrame
            self.endFrame = endFrame
            self.text = text
        }
    }

    public let sampleRate: Int
    public let cues: [Cue]

    public init(sampleRate: Int, cues: [Cue]) {
        self.sampleRate = sampleRate
        self.cues = cues
    }

    /// A cue per span that reads a paragraph; chunks that read none have no words to show.
    ///
    /// A paragraph read in one chunk whose take check heard where each sentence after the first
    /// begins (`sentenceCues`, by the chunk's 1-based number, in seconds from the start of the
    /// chunk) gets a cue per sentence instead. They still cover the paragraph exactly: the first
    /// starts where the paragraph starts, the last ends where it ends, and each boundary between
    /// two sentences lies midway through the pause between them (or 0.1 s before the next
    /// sentence when the end of the one before was not placed).
    public init(spans: [TextSpan], sampleRate: Int, sentenceCues: [Int: [SentenceCue]] = [:]) {
        var cues: [Cue] = []
        for span in spans {
            guard let paragraph = span.paragraph else { continue }
            if span.chunkCount == 1, let placed = sentenceCues[span.firstChunk],
               let sentences = Self.sentenceCues(paragraph, placed, span: span, sampleRate: sampleRate) {
                cues += sentences
            } else {
                cues.append(Cue(startFrame: span.startFrame, endFrame: span.endFrame, text: paragraph.text))
            }
        }
        self.init(sampleRate: sampleRate, cues: cues)
    }

    /// The paragraph's sentences as cues, or nil unless the start of every sentence after the
    /// first was placed and the boundaries fall in order inside the span.
    private static func sentenceCues(_ paragraph: Paragraph, _ placed: [SentenceCue], span: TextSpan, sampleRate: Int) -> [Cue]? {
        let sentences = paragraph.content.sentences
        guard sentences.count > 1 else { return nil }
        let bySentence = Dictionary(placed.map { ($0.sentence, $0) }, uniquingKeysWith: { first, _ in first })
        var boundaries = [span.startFrame]
        for index in 1..<sentences.count {
            guard let next = bySentence[index] else { return nil }
            let seconds = bySentence[index - 1].map { ($0.end + next.start) / 2 } ?? next.start - 0.1
            let boundary = span.startFrame + Int((seconds * Double(sampleRate)).rounded())
            guard boundary > boundaries[boundaries.count - 1], boundary < span.endFrame else { return nil }
            boundaries.append(boundary)
        }
        boundaries.append(span.endFrame)
        return sentences.indices.map { Cue(startFrame: boundaries[$0], endFrame: boundaries[$0 + 1], text: sentences[$0].text) }
    }

    /// The transcript in `format`, as UTF-8 text.
    public func text(_ format: Format) -> String {
        switch format {
        case .vtt: webVTT
        case .srt: subRip
        }
    }

    /// WebVTT: a header, then numbered cues with `HH:MM:SS.mmm` times. "&", "<" and ">" are
    /// escaped as the format requires, so a cue's words never read as markup or an arrow; control
    /// characters and bidirectional controls are left out (`ControlCharacters.removed(from:)`).
    public var webVTT: String {
        var text = "WEBVTT\n"
        for (number, cue) in cues.enumerated() {
            let words = ControlCharacters.removed(from: cue.text)
                .replacingAll("&", with: "&amp;").replacingAll("<", with: "&lt;").replacingAll(">", with: "&gt;")
            text += "\n\(number + 1)\n\(Self.time(cue.startFrame, sampleRate, ".")) --> \(Self.time(cue.endFrame, sampleRate, "."))\n\(words)\n"
        }
        return text
    }

    /// SubRip: numbered cues with `HH:MM:SS,mmm` times. A line of its own that would read as a
    /// cue number or time cannot occur: each cue's words are one line, without control
    /// characters or bidirectional controls (`ControlCharacters.removed(from:)`).
    public var subRip: String {
        var text = ""
        for (number, cue) in cues.enumerated() {
            if number > 0 { text += "\n" }
            let words = ControlCharacters.removed(from: cue.text)
            text += "\(number + 1)\n\(Self.time(cue.startFrame, sampleRate, ",")) --> \(Self.time(cue.endFrame, sampleRate, ","))\n\(words)\n"
        }
        return text
    }

    /// `HH:MM:SS.mmm` of `frames`, to the nearest millisecond.
    static func time(_ frames: FrameCount, _ rate: Int, _ separator: String) -> String {
        Timecode.precise(milliseconds: Timecode.milliseconds(frames: frames, rate: rate), separator: separator)
    }
}

extension String {
    fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
