/// A stretch of a book's audio, in whole milliseconds from its start.
public struct BookClip: Sendable, Equatable {
    public let begin: Int
    public let end: Int

    public init(begin: Int, end: Int) {
        self.begin = begin
        self.end = end
    }

    /// The clip of frames `start..<end` at `rate`, rounded as chapters and transcripts round them.
    public init(frames start: FrameCount, _ end: FrameCount, rate: Int) {
        self.init(begin: Timecode.milliseconds(frames: start, rate: rate), end: Timecode.milliseconds(frames: end, rate: rate))
    }
}

/// One piece of a book's text in reading order, with the audio that reads it.
public struct BookItem: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The book's title, `h1 class="title"`.
        case title
        /// A heading of the text, `h2` (the reader keeps no levels: "#" and "##" are both headings).
        case heading
        /// A paragraph or list item, `p`.
        case paragraph
        /// A chunk that reads no paragraph: `p class="part"` holding "Part N", so that its audio
        /// has a place in the book (a par of its own) like any other.
        case part
    }

    /// A sentence of a paragraph, with the stretch the take check placed it in.
    public struct Sentence: Sendable, Equatable {
        public let id: String
        public let text: String
        public let clip: BookClip
    }

    /// Unique in the book: "p3" for paragraph 3 of the text, "p3-2" for a second stretch that
    /// reads it, "part5" for chunk 5 reading none, "title" for a title without a heading.
    public let id: String
    public let kind: Kind
    public let text: String
    /// What a navigation list shows: a heading's or title's text, a paragraph's first six words, "Part N".
    public let label: String
    /// nil only for a title the text does not open with (it has no sound of its own).
    public let clip: BookClip?
    /// Empty, or two or more sentences that cover `clip` exactly, in order.
    public let sentences: [Sentence]
    /// The navigation level: 1 the title, 2 a heading, and a paragraph or part one below the
    /// heading (or title) it follows.
    public let level: Int
}

/// The article's text as a book: the items in reading order, each with its stretch of the audio,
/// and the text as an XHTML document.
///
/// Title: when the first chunk reads a heading, that heading is the book's title
/// (`h1 class="title"`) and its audio is the title's; otherwise the title is the article's
/// title, before the text, without a sound of its own. Headings after it are `h2`; paragraphs
/// and list items are `p`; a chunk that reads no paragraph is a `p class="part"` "Part N".
/// Times come from the article's `ExportPlan` (its own rate, never a converted plan's), so every
/// clip begins and ends where chunks do, to the millisecond; a paragraph read in one chunk whose
/// take check placed every sentence is split into sentences (`Transcript`'s sentence cues).
public struct BookText: Sendable, Equatable {
    public let title: String
    /// A BCP 47 tag: the documents' `xml:lang`, the package's `dc:language`.
    public let language: String
    public let items: [BookItem]
    /// The audio's whole length in milliseconds.
    public let duration: Int

    public init(title: String, language: String, items: [BookItem], duration: Int) {
        self.title = title
        self.language = language
        self.items = items
        self.duration = duration
    }

    /// The book of `plan`; nil when the plan reads no paragraph (the article has no text).
    public init?(plan: ExportPlan, language: String) {
        guard plan.spans.contains(where: { $0.paragraph != nil }) else { return nil }
        let rate = plan.format.sampleRate
        var items: [BookItem] = []
        var used: [String: Int] = [:]
        func unique(_ base: String) -> String {
            used[base, default: 0] += 1
            return used[base]! == 1 ? base : "\(base)-\(used[base]!)"
        }
        var underHeading = false
        for (position, span) in plan.spans.enumerated() {
            let clip = BookClip(frames: span.startFrame, span.endFrame, rate: rate)
            guard let paragraph = span.paragraph else {
                let id = unique("part\(span.firstChunk)")
                if position == 0 { items.append(Self.titleItem(plan.tags.title)) }
                items.append(BookItem(id: id, kind: .part, text: "Part \(span.firstChunk)", label: "Part \(span.firstChunk)", clip: clip, sentences: [], level: underHeading ? 3 : 2))
                continue
            }
            let id = unique("p\(paragraph.number)")
            switch paragraph.kind {
            case .heading where position == 0:
                items.append(BookItem(id: id, kind: .title, text: paragraph.text, label: paragraph.text, clip: clip, sentences: [], level: 1))
            case .heading:
                items.append(BookItem(id: id, kind: .heading, text: paragraph.text, label: paragraph.text, clip: clip, sentences: [], level: 2))
                underHeading = true
            case .paragraph:
                if position == 0 { items.append(Self.titleItem(plan.tags.title)) }
                let sentences = Self.sentences(of: span, id: id, plan: plan)
                items.append(BookItem(
                    id: id, kind: .paragraph, text: paragraph.text, label: paragraph.content.firstWords(6), clip: clip, sentences: sentences,
                    level: underHeading ? 3 : 2))
            }
        }
        self.init(title: plan.tags.title, language: language, items: items, duration: Timecode.milliseconds(frames: plan.totalFrames, rate: rate))
    }

    private static func titleItem(_ title: String) -> BookItem {
        BookItem(id: "title", kind: .title, text: title, label: title, clip: nil, sentences: [], level: 1)
    }

    /// The span's sentences where the take check placed each (see `Transcript`); else none.
    private static func sentences(of span: TextSpan, id: String, plan: ExportPlan) -> [BookItem.Sentence] {
        let cues = Transcript(spans: [span], sampleRate: plan.format.sampleRate, sentenceCues: plan.sentenceCues).cues
        guard cues.count > 1 else { return [] }
        return cues.enumerated().map { number, cue in
            BookItem.Sentence(id: "\(id)s\(number + 1)", text: cue.text, clip: BookClip(frames: cue.startFrame, cue.endFrame, rate: plan.format.sampleRate))
        }
    }

    /// How many items read a paragraph of the text (headings included).
    public var paragraphCount: Int { items.filter { $0.kind != .part && $0.clip != nil }.count }

    /// The items with a sound of their own, in order.
    public var timedItems: [BookItem] { items.filter { $0.clip != nil } }

    /// The deepest navigation level used.
    public var depth: Int { items.map(\.level).max() ?? 1 }

    /// The body's elements: `h1 class="title"`, `h2`, `p` (sentences as `span`s when
    /// `sentences`), each with its item's id.
    public func bodyElements(sentences: Bool) -> String {
        var body = ""
        for item in items {
            let text: String
            if sentences, !item.sentences.isEmpty {
                text = item.sentences.map { "<span id=\"\($0.id)\">\(XMLText.escaped($0.text))</span>" }.joined(separator: " ")
            } else {
                text = XMLText.escaped(item.text)
            }
            switch item.kind {
            case .title: body += "<h1 class=\"title\" id=\"\(item.id)\">\(text)</h1>\n"
            case .heading: body += "<h2 id=\"\(item.id)\">\(text)</h2>\n"
            case .paragraph: body += "<p id=\"\(item.id)\">\(text)</p>\n"
            case .part: body += "<p class=\"part\" id=\"\(item.id)\">\(text)</p>\n"
            }
        }
        return body
    }

    /// The EPUB 3 content document (XHTML5, UTF-8), sentences as spans, styled by `stylesheet`.
    public func epubDocument(stylesheet: String) -> String {
        let language = XMLText.escaped(language)
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE html>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="\(language)" lang="\(language)">
            <head>
            <meta charset="utf-8"/>
            <title>\(XMLText.escaped(title))</title>
            <link rel="stylesheet" type="text/css" href="\(stylesheet)"/>
            </head>
            <body>
            <section epub:type="bodymatter">
            \(bodyElements(sentences: true))</section>
            </body>
            </html>

            """
    }
}
