/// Where each paragraph of the article's text lies in an export, from the chunks' exact lengths:
/// a span is a run of consecutive chunks that read the same paragraph (a chunk that reads none is
/// a span of its own). Chapters, the sidecar's paragraphs and transcripts all come from it, so
/// they agree to the frame.
public struct TextSpan: Sendable, Equatable {
    /// The paragraph the span reads; nil for a chunk that reads none.
    public let paragraph: Paragraph?
    /// The article's 1-based number of the span's first chunk.
    public let firstChunk: Int
    /// How many chunks the span holds.
    public let chunkCount: Int
    public let startFrame: FrameCount
    public let endFrame: FrameCount

    public init(paragraph: Paragraph?, firstChunk: Int, chunkCount: Int = 1, startFrame: FrameCount, endFrame: FrameCount) {
        self.paragraph = paragraph
        self.firstChunk = firstChunk
        self.chunkCount = chunkCount
        self.startFrame = startFrame
        self.endFrame = endFrame
    }

    /// The spans of chunks of `chunkFrames` frames that read `chunkParagraphs` (one per chunk);
    /// the first is the article's chunk `firstChunk`, and it starts at frame 0.
    public static func spans(chunkFrames: [FrameCount], chunkParagraphs: [Paragraph?], firstChunk: Int = 1) -> [TextSpan] {
        precondition(chunkFrames.count == chunkParagraphs.count, "one paragraph (or none) per chunk")
        var spans: [TextSpan] = []
        var start = 0
        for (position, frames) in chunkFrames.enumerated() {
            let paragraph = chunkParagraphs[position]
            if let last = spans.last, let paragraph, last.paragraph?.id == paragraph.id {
                spans[spans.count - 1] = TextSpan(
                    paragraph: paragraph, firstChunk: last.firstChunk, chunkCount: last.chunkCount + 1, startFrame: last.startFrame,
                    endFrame: start + frames)
            } else {
                spans.append(TextSpan(paragraph: paragraph, firstChunk: firstChunk + position, startFrame: start, endFrame: start + frames))
            }
            start += frames
        }
        return spans
    }
}

/// How an export's chapters follow the article.
public enum ChapterStyle: String, Sendable, CaseIterable, Codable {
    /// One chapter per paragraph, titled by its heading or its first words (one per chunk for an
    /// article without a text).
    case paragraphs
    /// One chapter per section: a heading and the paragraphs under it, titled by the heading;
    /// paragraphs before the first heading make a chapter titled by their first words.
    case sections
    /// One chapter per chunk, "Part 1", "Part 2", … as before articles had texts.
    case chunks

    /// The chapters of `spans` (see `TextSpan`); `chunks`, one chapter per chunk, for `.chunks`
    /// and for an article without a text.
    public func chapters(spans: [TextSpan], chunks: [Chapter]) -> [Chapter] {
        let hasText = spans.contains { $0.paragraph != nil }
        switch self {
        case .chunks:
            return chunks
        case _ where !hasText:
            return chunks
        case .paragraphs:
            return spans.map { Chapter(title: Self.title(of: $0), startFrame: $0.startFrame, endFrame: $0.endFrame) }
        case .sections:
            var chapters: [Chapter] = []
            var openSection = false  // whether the last chapter is a section a paragraph may join
            for span in spans {
                let startsSection = span.paragraph?.kind == .heading
                if let last = chapters.last, openSection, !startsSection, span.paragraph != nil {
                    chapters[chapters.count - 1] = Chapter(title: last.title, startFrame: last.startFrame, endFrame: span.endFrame)
                } else {
                    chapters.append(Chapter(title: Self.title(of: span), startFrame: span.startFrame, endFrame: span.endFrame))
                    openSection = span.paragraph != nil
                }
            }
            return chapters
        }
    }

    /// A heading's text, a paragraph's first six words, or "Part N" for a chunk that reads none.
    static func title(of span: TextSpan) -> String {
        guard let paragraph = span.paragraph else { return "Part \(span.firstChunk)" }
        return paragraph.kind == .heading ? paragraph.text : paragraph.content.firstWords(6)
    }

    /// One chapter per chunk, titled by the chunk's number in the article.
    static func chunkChapters(_ chunkFrames: [FrameCount], firstChunk: Int = 1) -> [Chapter] {
        var start = 0
        return chunkFrames.enumerated().map { position, frames in
            defer { start += frames }
            return Chapter(title: "Part \(firstChunk + position)", startFrame: start, endFrame: start + frames)
        }
    }
}
