import Foundation
import NarrationCore
import Testing

/// The books' documents built from an export plan: ids, levels, clip times to the millisecond,
/// escaping, and the DAISY 2.02 and EPUB metadata, as exact strings.
@Suite("EPUB and DAISY documents from an export plan")
struct PublicationTests {
    static let tags = ExportTags(
        title: "Harbour & quay", narrator: "Ann Reader", publication: "Daily Post", date: "2026-11-24", comment: "", articleID: "a1b2")

    static func paragraph(_ number: Int, _ kind: ScriptParagraph.Kind, _ text: String) -> Paragraph {
        Paragraph(id: ParagraphID("id\(number)"), number: number, kind: kind, text: text, wordCount: WordCount.of(text))
    }

    /// Heading 1 (the title), paragraph 2 read in two chunks, a chunk of no paragraph, heading 3,
    /// list item 4 (CJK and emoji), paragraph 5 with its sentences placed by the take check.
    static let paragraphs = [
        paragraph(1, .heading, "Harbour reopens"),
        paragraph(2, .paragraph, "Boats <and> \"ferries\" are back."),
        paragraph(3, .heading, "What changes"),
        paragraph(4, .paragraph, "日本語の段落 🎧"),
        paragraph(5, .paragraph, "One two. Three four."),
    ]
    /// 44_123 frames is 1000.52 ms: the rounding shows.
    static let frames = [44_123, 44_100, 44_100, 22_050, 44_100, 88_200, 88_200]

    static func plan(sentences: Bool = true) -> ExportPlan {
        let p = paragraphs
        var plan = ExportPlan(format: .speech, chunkFrames: frames, chunkParagraphs: [p[0], p[1], p[1], nil, p[2], p[3], p[4]], tags: tags)
        if sentences { plan.sentenceCues[7] = [SentenceCue(sentence: 0, start: 0, end: 0.9), SentenceCue(sentence: 1, start: 1.1, end: 1.9)] }
        return plan
    }

    @Test("XML text escapes &, <, >, both quotes and drops C0 controls; CJK and emoji stay as they are")
    func escaping() {
        #expect(XMLText.escaped("A & B <c> \"d\" 'e'\u{1}\t日本 🎧") == "A &amp; B &lt;c&gt; &quot;d&quot; &#39;e&#39;\t日本 🎧")
    }

    @Test("clock values: EPUB's h:mm:ss.mmm, DAISY's npt=…s and hh:mm:ss.mmm", arguments: [
        (0, "0:00:00.000", "npt=0.000s", "00:00:00.000"),
        (1_001, "0:00:01.001", "npt=1.001s", "00:00:01.001"),
        (3_723_045, "1:02:03.045", "npt=3723.045s", "01:02:03.045"),
    ])
    func clocks(milliseconds: Int, epub: String, npt: String, daisy: String) {
        #expect(BookClock.clockValue(milliseconds: milliseconds) == epub)
        #expect(BookClock.npt(milliseconds: milliseconds) == npt)
        #expect(BookClock.daisyTime(milliseconds: milliseconds) == daisy)
    }

    @Test("items: the opening heading is the title, headings h2, paragraphs one level below, a part for a chunk of no paragraph; clips on chunk boundaries")
    func items() throws {
        let text = try #require(BookText(plan: Self.plan(), language: "ja"))
        #expect(text.items.map(\.id) == ["p1", "p2", "part4", "p3", "p4", "p5"])
        #expect(text.items.map(\.kind) == [.title, .paragraph, .part, .heading, .paragraph, .paragraph])
        #expect(text.items.map(\.level) == [1, 2, 2, 2, 3, 3])
        // Span ends at 44.1 kHz: 44_123, 132_323, 154_373, 198_473, 286_673, 374_873 frames.
        #expect(text.items.map { $0.clip?.begin } == [0, 1_001, 3_001, 3_501, 4_501, 6_501])
        #expect(text.items.map { $0.clip?.end } == [1_001, 3_001, 3_501, 4_501, 6_501, 8_501])
        #expect(text.duration == 8_501)
        #expect(text.items[5].sentences.map(\.id) == ["p5s1", "p5s2"])
        #expect(text.items[5].sentences.map(\.clip) == [BookClip(begin: 6_501, end: 7_501), BookClip(begin: 7_501, end: 8_501)])
        #expect(text.paragraphCount == 5 && text.depth == 3)
        #expect(text.bodyElements(sentences: true) == """
            <h1 class="title" id="p1">Harbour reopens</h1>
            <p id="p2">Boats &lt;and&gt; &quot;ferries&quot; are back.</p>
            <p class="part" id="part4">Part 4</p>
            <h2 id="p3">What changes</h2>
            <p id="p4">日本語の段落 🎧</p>
            <p id="p5"><span id="p5s1">One two.</span> <span id="p5s2">Three four.</span></p>

            """)
        #expect(BookText(plan: ExportPlan(format: .speech, chunkFrames: [100], tags: Self.tags), language: "en") == nil)
    }

    @Test("the media overlay has a par per item, per sentence where placed, with exact clip values")
    func overlay() throws {
        let overlay = MediaOverlay(text: try #require(BookText(plan: Self.plan(), language: "en")), document: "text.xhtml", audio: "audio.mp3")
        let lines = overlay.smil.split(separator: "\n").filter { $0.hasPrefix("<par ") }
        #expect(lines.count == 7)
        #expect(lines[0] == #"<par id="par1"><text src="text.xhtml#p1"/><audio src="audio.mp3" clipBegin="0:00:00.000" clipEnd="0:00:01.001"/></par>"#)
        #expect(lines[6] == #"<par id="par7"><text src="text.xhtml#p5s2"/><audio src="audio.mp3" clipBegin="0:00:07.501" clipEnd="0:00:08.501"/></par>"#)
        let unsplit = MediaOverlay(text: try #require(BookText(plan: Self.plan(sentences: false), language: "en")), document: "t", audio: "a")
        #expect(unsplit.pars.map(\.target) == ["p1", "p2", "part4", "p3", "p4", "p5"])
    }

    @Test("the DAISY ncc: required metadata, headings at each item's level, links to the SMIL's pars; SMIL clips in npt")
    func daisy() throws {
        let book = DAISYBook(text: try #require(BookText(plan: Self.plan(), language: "ja")), tags: Self.tags)
        let ncc = book.ncc
        for meta in [
            #"<meta name="dc:title" content="Harbour &amp; quay"/>"#, #"<meta name="dc:creator" content="Daily Post"/>"#,
            #"<meta name="dc:format" content="Daisy 2.02"/>"#, #"<meta name="dc:identifier" content="narrate-a1b2"/>"#,
            #"<meta name="dc:language" content="ja"/>"#, #"<meta name="ncc:narrator" content="Ann Reader"/>"#,
            #"<meta name="ncc:totalTime" content="00:00:08.501"/>"#, #"<meta name="ncc:depth" content="3"/>"#,
            #"<meta name="ncc:tocItems" content="6"/>"#, #"<meta name="ncc:files" content="4"/>"#,
            #"<meta name="ncc:multimediaType" content="audioFullText"/>"#, #"<meta name="ncc:maxPageNormal" content="0"/>"#,
        ] {
            #expect(ncc.contains(meta), "\(meta)")
        }
        let headings = ncc.split(separator: "\n").filter { $0.hasPrefix("<h") && !$0.hasPrefix("<head") && !$0.hasPrefix("<html") }
        #expect(headings == [
            #"<h1 class="title" id="nav-p1"><a href="content.smil#text-p1">Harbour reopens</a></h1>"#,
            #"<h2 id="nav-p2"><a href="content.smil#text-p2">Boats &lt;and&gt; &quot;ferries&quot; are back.</a></h2>"#,
            #"<h2 id="nav-part4"><a href="content.smil#text-part4">Part 4</a></h2>"#,
            #"<h2 id="nav-p3"><a href="content.smil#text-p3">What changes</a></h2>"#,
            #"<h3 id="nav-p4"><a href="content.smil#text-p4">日本語の段落 🎧</a></h3>"#,
            #"<h3 id="nav-p5"><a href="content.smil#text-p5">One two. Three four.</a></h3>"#,
        ])
        #expect(book.smil.contains(#"<audio src="audio.mp3" clip-begin="npt=6.501s" clip-end="npt=8.501s" id="audio-p5"/>"#))
        #expect(book.smil.contains(#"<meta name="ncc:timeInThisSmil" content="00:00:08.501"/>"#))
        #expect(book.smil.contains(#"<seq dur="8.501s">"#))
        #expect(book.contentDocument.contains(#"<p id="p5">One two. Three four.</p>"#))
    }

    @Test("a text that does not open with a heading: the article's title links to the first par, which has no entry of its own")
    func titleWithoutHeading() throws {
        let body = Self.paragraph(1, .paragraph, "First words of the body.")
        let plan = ExportPlan(format: .speech, chunkFrames: [44_100, 44_100], chunkParagraphs: [body, nil], tags: Self.tags)
        let text = try #require(BookText(plan: plan, language: "en"))
        #expect(text.items.map(\.id) == ["title", "p1", "part2"])
        #expect(text.items[0].clip == nil && text.items[0].text == "Harbour & quay")
        let navigation = DAISYBook(text: text, tags: Self.tags).navigation
        #expect(navigation.map(\.id) == ["nav-title", "nav-part2"])
        #expect(navigation.map(\.target) == ["text-p1", "text-part2"])
        #expect(navigation.map(\.level) == [1, 2])
    }

    @Test("the EPUB package: language, media:duration of the book and its overlay, narrator, manifest and spine")
    func package() throws {
        let package = EPUBPackage(text: try #require(BookText(plan: Self.plan(), language: "ja")), tags: Self.tags, modified: "2026-11-24T10:00:00Z")
        let opf = package.packageDocument
        #expect(opf.contains("<dc:language>ja</dc:language>"))
        #expect(opf.contains(##"<meta property="media:duration" refines="#overlay">0:00:08.501</meta>"##))
        #expect(opf.contains(#"<meta property="media:duration">0:00:08.501</meta>"#))
        #expect(opf.contains(#"<meta property="media:narrator">Ann Reader</meta>"#))
        #expect(opf.contains(#"<item id="text" href="text.xhtml" media-type="application/xhtml+xml" media-overlay="overlay"/>"#))
        #expect(opf.contains("<dc:title>Harbour &amp; quay</dc:title>"))
        #expect(package.documents.map(\.path) == [
            "META-INF/container.xml", "EPUB/package.opf", "EPUB/nav.xhtml", "EPUB/text.xhtml", "EPUB/text.smil", "EPUB/style.css",
        ])
        #expect(package.navigationDocument.contains(#"<li><a href="text.xhtml#p3">What changes</a></li>"#))
    }
}
