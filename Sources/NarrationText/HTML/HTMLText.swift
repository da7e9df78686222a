import NarrationCore

/// HTML read into paragraphs, the way a volunteer would read a saved news page aloud.
///
/// - The part read: when the first `<main>` (or `role="main"`) holds several articles side by
///   side (a live blog's posts), that `main`; else the first `<article>`; else the first `<main>`;
///   else the first element with `role="main"`; else `<body>`. The search skips what is never read
///   (below), so that a teaser `<article>` in a sidebar or menu is not taken for the page's article.
///   When the part read has no `h1` and the page has one before it (a headline above the article),
///   that headline is read first.
/// - Headings: `h1`–`h6`. Paragraphs: every block element (`p`, `li`, `blockquote`, `dd`, `dt`,
///   `div`, `section`, table cells, …) ends the paragraph under way, so the text directly in a
///   `div` is a paragraph of its own. Inline elements (`a`, `em`, `strong`, `span`, …) give their
///   text; `<br>` is a space (two in a row end the paragraph); images give nothing (their alternative text is not read).
/// - Never read: `script`, `style`, `noscript`, `template`, `nav`, `aside`, `form`, `button`,
///   `input`, `select`, `textarea`, `svg`, `math`, `iframe`, `object`, `embed`, `video`, `audio`,
///   `canvas`, `dialog`, AMP's advertisement and tracking elements; an element with `hidden`, with
///   `aria-hidden="true"`, with an inline style `display: none`, or with `role` "navigation",
///   "complementary", "dialog" or "alertdialog".
/// - Figures: the whole `figure` is dropped, its caption too (`figcaption` anywhere): a caption
///   describes a picture the listener cannot see, and reading it aloud breaks the article's flow.
/// - `header` and `footer` (and `role` "banner" or "contentinfo") are read only inside the
///   `article` or `main` taken: there they hold the title, byline and notes of the article, while
///   outside they hold the site's name, menus and legal notices.
/// - The page's furniture is dropped, judged by structure, link density and words, never by a
///   site's class names: blocks mostly of links, short blocks around a form or a button or a
///   picture, advertisements, cookie notices and date lines (`BlockStatistics`); short paragraphs
///   that are share bars, comment counts, bylines, credits or "Read more" lines, sections headed
///   "Comments", "Related" or "Most read", and headings left with nothing under them
///   (`PageFurnitureText`).
/// - The byline's author and the publication day are kept as the article's (`PageMetadata`,
///   `PageFurnitureText.byline`).
enum HTMLText {
    /// The paragraphs of an HTML page, without its furniture, with the author and day it names;
    /// after libxml2 has turned its characters into UTF-8.
    ///
    /// - Throws: `textUnreadable` for a character set the document declares that libxml2 cannot
    ///   convert, or bytes that are not UTF-8 in a document that declares none (or UTF-8): libxml2
    ///   would quietly take those for Latin-1.
    static func document(of bytes: [UInt8], _ source: TextBytes.Source) throws(NarrationError) -> ScriptDocument {
        let encoding: String
        var body = bytes[...]
        if let declared = CharsetDeclaration.find(in: bytes), let name = CharsetDeclaration.libXML2Name(declared) {
            try LibXML2.canDecode(name, source.refusal(
                "\"\(source.name)\" declares the character set \"\(declared)\", which cannot be read: save it as UTF-8 and try again."))
            encoding = name
        } else {
            _ = try TextBytes.decodeUTF8(bytes, source)
            if bytes.starts(with: TextBytes.byteOrderMark) { body = bytes[3...] }
            encoding = "UTF-8"
        }
        return try read(body, encoding: encoding, judgingFurniture: true, source)
    }

    /// The paragraphs of HTML whose character set is known (`encoding` as libxml2 names it), every
    /// block read: HTML that narrate made itself (from Markdown) has no furniture to drop.
    static func paragraphs(ofUTF8OrDeclared bytes: ArraySlice<UInt8>, encoding: String, _ source: TextBytes.Source) throws(NarrationError) -> [ScriptParagraph] {
        try read(bytes, encoding: encoding, judgingFurniture: false, source).paragraphs
    }

    private static func read(
        _ bytes: ArraySlice<UInt8>, encoding: String, judgingFurniture: Bool, _ source: TextBytes.Source
    ) throws(NarrationError) -> ScriptDocument {
        let bytes = DoctypeSubset.removed(from: bytes)
        guard !bytes.isEmpty else { return ScriptDocument(paragraphs: []) }
        let document = try HTMLDocument(parsing: bytes, encoding: encoding, failure: source.refusal(
            "\"\(source.name)\" could not be read as HTML: the HTML parser made no document of it."))
        return document.withRootElement { root in
            guard let root, let part = readPart(of: root) else { return ScriptDocument(paragraphs: []) }
            var walk = Walk(judgingFurniture: judgingFurniture)
            if let headline = part.headline { walk.run(from: headline, insideArticle: true) }
            walk.run(from: part.node, insideArticle: part.isArticle)
            guard judgingFurniture else { return ScriptDocument(paragraphs: walk.pieces.map(\.paragraph)) }
            var metadata = PageMetadata()
            traverse(from: root) { node in
                if let name = node.elementName { metadata.look(at: node, name: name) }
                return true
            }
            let (paragraphs, byline) = PageFurniture.withoutFurniture(walk.pieces, dropped: walk.droppedPieces, author: metadata.author)
            return ScriptDocument(
                paragraphs: paragraphs, author: metadata.author ?? byline.author,
                published: metadata.day ?? walk.firstTimeDay ?? byline.day)
        }
    }

    // MARK: - Which elements are what

    private static let neverRead: Set<String> = [
        "head", "title", "meta", "link", "script", "style", "noscript", "template", "nav", "aside", "form",
        "button", "input", "select", "textarea", "svg", "math", "iframe", "object", "embed", "video", "audio",
        "canvas", "dialog", "figure", "figcaption",
        // AMP's own elements for advertisements, trackers and consent notices.
        "amp-ad", "amp-embed", "amp-sticky-ad", "amp-analytics", "amp-pixel", "amp-consent", "amp-social-share",
    ]

    /// Elements never read that make a block around them an invitation to act (sign up, share, reply).
    private static let controls: Set<String> = ["form", "button", "input", "select", "textarea", "amp-social-share"]
    private static let pictures: Set<String> = ["img", "picture", "amp-img"]
    /// Elements never read that make a short block around them a picture, a video or a player.
    private static let media: Set<String> = ["iframe", "video", "audio", "embed", "object", "svg", "canvas"]

    /// Elements that end the paragraph under way and start a new one; any other element is inline.
    private static let blocks: Set<String> = [
        "html", "body", "article", "main", "section", "header", "footer", "div", "p", "blockquote", "pre",
        "address", "center", "details", "summary", "hgroup", "ul", "ol", "menu", "dir", "li", "dl", "dt", "dd",
        "table", "caption", "thead", "tbody", "tfoot", "tr", "td", "th", "hr", "fieldset", "legend", "option",
    ]

    /// What an element is to the reader, decided once from its name and attributes.
    private enum Role: Equatable {
        /// Never read, nor anything inside it.
        case skipped
        /// A page's header or footer: read only inside the article.
        case frame
        /// `h1`…`h6`, with its rank.
        case heading(Int)
        case block
        case lineBreak
        case inline
    }

    /// The element's role, and whether it has `role="main"`.
    private static func role(of node: HTMLNode, name: String) -> (role: Role, isMain: Bool) {
        if neverRead.contains(name) { return (.skipped, false) }
        var skipped = false
        var frame = name == "header" || name == "footer"
        var isMain = false
        if node.hasAttributes {
            node.forEachAttribute { attribute, value in
                switch attribute {
                case "hidden": skipped = true
                case "aria-hidden": skipped = skipped || value.trimmed.lowercased() == "true"
                case "style": skipped = skipped || value.lowercased().filter({ !$0.isWhitespace }).contains("display:none")
                case "role":
                    switch value.trimmed.lowercased() {
                    case "navigation", "complementary", "dialog", "alertdialog": skipped = true
                    case "banner", "contentinfo": frame = true
                    case "main": isMain = true
                    default: break
                    }
                default: break
                }
            }
        }
        if skipped { return (.skipped, false) }
        if frame { return (.frame, isMain) }
        if name == "br" { return (.lineBreak, isMain) }
        if name.count == 2, name.first == "h", let rank = name.last?.wholeNumberValue, (1...6).contains(rank) { return (.heading(rank), isMain) }
        return (blocks.contains(name) ? .block : .inline, isMain)
    }

    // MARK: - The part of the page read

    /// The element read and whether it is the article (not the body); and the page's headline
    /// when it stands before the part read and the part has no `h1` of its own.
    private static func readPart(of root: HTMLNode) -> (node: HTMLNode, isArticle: Bool, headline: HTMLNode?)? {
        var main: HTMLNode?
        var roleMain: HTMLNode?
        var body: HTMLNode?
        var article: HTMLNode?
        var firstTitle: HTMLNode?
        traverse(from: root) { node in
            guard let name = node.elementName else { return false }
            let (role, isMain) = role(of: node, name: name)
            if role == .skipped || role == .frame { return false }
            switch name {
            case "article": if article == nil { article = node }
            case "main": if main == nil { main = node }
            case "body": if body == nil { body = node }
            case "h1": if firstTitle == nil { firstTitle = node }
            default: break
            }
            if roleMain == nil, isMain { roleMain = node }
            return true
        }
        let main1 = main ?? roleMain
        let part: (node: HTMLNode, isArticle: Bool)
        let articles = main1.map(articles(in:)) ?? []
        let sizes = articles.map { $0.textContent?.unicodeScalars.reduce(0) { $0 + ($1.properties.isWhitespace ? 0 : 1) } ?? 0 }
        if let main1, articles.count > 1 {
            // One article holding most of the text is the page's, the others teasers or comments;
            // articles of like sizes are a live blog's posts, read together.
            if let largest = sizes.indices.max(by: { sizes[$0] < sizes[$1] }), sizes[largest] * 2 > sizes.reduce(0, +) {
                part = (articles[largest], true)
            } else {
                part = (main1, true)
            }
        } else if let article {
            part = (article, true)
        } else if let main1 {
            part = (main1, true)
        } else {
            part = (body ?? root, false)
        }
        guard let firstTitle, !isInside(firstTitle, part.node), !contains(part.node, "h1"), precedes(firstTitle, part.node) else {
            return (part.node, part.isArticle, nil)
        }
        return (part.node, part.isArticle, firstTitle)
    }

    /// The articles read in `main` that are not inside another article.
    private static func articles(in main: HTMLNode) -> [HTMLNode] {
        var articles: [HTMLNode] = []
        traverse(from: main) { node in
            guard let name = node.elementName else { return false }
            if role(of: node, name: name).role == .skipped { return false }
            if name == "article", node != main { articles.append(node); return false }
            return true
        }
        return articles
    }

    private static func isInside(_ node: HTMLNode, _ ancestor: HTMLNode) -> Bool {
        var current: HTMLNode? = node
        while let visited = current {
            if visited == ancestor { return true }
            current = visited.parent
        }
        return false
    }

    private static func contains(_ root: HTMLNode, _ element: String) -> Bool {
        var found = false
        traverse(from: root) { node in
            guard let name = node.elementName else { return false }
            if name == element { found = true; return nil }
            return role(of: node, name: name).role != .skipped
        }
        return found
    }

    /// Whether `node` comes before `other` in document order (neither inside the other).
    private static func precedes(_ node: HTMLNode, _ other: HTMLNode) -> Bool {
        guard let root = other.root else { return false }
        var answer = false
        traverse(from: root) { visited in
            if visited == node { answer = true; return nil }
            if visited == other { return nil }
            return true
        }
        return answer
    }

    /// Visits `root` and its descendants in document order; `visit` answers true to go into a
    /// node's children, false to skip them, nil to stop. Iterative, so no nesting is too deep.
    static func traverse(from root: HTMLNode, _ visit: (HTMLNode) -> Bool?) {
        var node = root
        while true {
            guard let descend = visit(node) else { return }
            if descend, let child = node.firstChild { node = child; continue }
            while node != root, node.nextSibling == nil { node = node.parent ?? root }
            guard node != root, let next = node.nextSibling else { return }
            node = next
        }
    }

    // MARK: - Reading the text

    /// One pass over the part read, collecting paragraphs and judging each block when it ends.
    private struct Walk {
        let judgingFurniture: Bool
        /// The paragraphs read, each with its heading rank (nil for body text).
        private(set) var pieces: [PageFurniture.Piece] = []
        /// The paragraphs of blocks dropped as furniture, where a byline may be.
        private(set) var droppedPieces: [PageFurniture.Piece] = []
        /// The day of the first `<time datetime>` met, dropped or not.
        private(set) var firstTimeDay: String?
        private var collector = ParagraphCollector()
        /// The elements entered and not yet left, innermost last: role, name, what they hold, and
        /// the index of their first paragraph.
        private var open: [(role: Role, name: String, statistics: BlockStatistics, firstPiece: Int)] = []
        private var headingRanks: [Int] = []
        private var linkDepth = 0
        private var timeDepth = 0
        /// Characters of the paragraph under way, and of them those inside links.
        private var paragraphCharacters = 0
        private var paragraphLinkCharacters = 0
        /// The index of the first piece of body text of some length: where the article began.
        private var bodyBegan: Int?
        /// Whether a `<br>` came last, with nothing but white space since: a second one ends the paragraph.
        private var afterLineBreak = false

        init(judgingFurniture: Bool) { self.judgingFurniture = judgingFurniture }

        mutating func run(from start: HTMLNode, insideArticle: Bool) {
            var node = start
            var goingDown = true
            while true {
                if goingDown, enter(node, insideArticle: insideArticle) {
                    if let child = node.firstChild { node = child; continue }
                    leave()
                }
                if node == start { return }
                if let next = node.nextSibling {
                    node = next
                    goingDown = true
                } else {
                    node = node.parent ?? start
                    leave()
                    goingDown = false
                }
            }
        }

        /// Ends the paragraph under way and moves it (if any) to the pieces, with its heading
        /// rank; a paragraph of body text mostly in links (a lone "Back to news") is dropped.
        private mutating func endParagraph() {
            collector.end(as: headingRanks.isEmpty ? .paragraph : .heading)
            let linked = judgingFurniture && headingRanks.isEmpty && paragraphLinkCharacters * 2 > paragraphCharacters
            paragraphCharacters = 0
            paragraphLinkCharacters = 0
            guard !collector.paragraphs.isEmpty else { return }
            for paragraph in collector.paragraphs {
                let piece = PageFurniture.Piece(paragraph: paragraph, rank: headingRanks.first, afterBody: bodyBegan != nil)
                if !open.isEmpty, open[open.count - 1].statistics.firstParagraph == nil {
                    open[open.count - 1].statistics.firstParagraph = paragraph.text
                }
                if linked { droppedPieces.append(piece); continue }
                pieces.append(piece)
                if piece.rank == nil, bodyBegan == nil, PageFurnitureText.words(paragraph.text).count >= 12 { bodyBegan = pieces.count - 1 }
            }
            collector = ParagraphCollector()
        }

        /// Takes in a node; answers whether its children are to be read (and `leave` called after them).
        private mutating func enter(_ node: HTMLNode, insideArticle: Bool) -> Bool {
            guard let name = node.elementName else {
                if let text = node.text {
                    collector.add(text)
                    if text.contains(where: { !$0.isWhitespace }) { afterLineBreak = false }
                    count(text)
                }
                return false
            }
            let role = HTMLText.role(of: node, name: name).role
            switch role {
            case .skipped:
                if !open.isEmpty {
                    if controls.contains(name) { open[open.count - 1].statistics.hasControls = true }
                    if media.contains(name) { open[open.count - 1].statistics.hasPicture = true }
                }
                return false
            case .frame: if !insideArticle { return false }; endParagraph()
            case .lineBreak:
                // Pages laid out before CSS part their paragraphs with two line breaks.
                if afterLineBreak { endParagraph() } else { collector.add(" ") }
                afterLineBreak.toggle()
            case .heading(let rank):
                endParagraph()
                headingRanks.append(rank)
            case .block: endParagraph()
            case .inline:
                // Inline elements side by side with no space between them (a name's span, then a
                // date's) are shown apart by the page's style sheet: their words stay apart here.
                if node.previousSibling?.elementName != nil || name == "time" { collector.add(" ") }
            }
            if role != .lineBreak && role != .inline { afterLineBreak = false }
            var statistics = BlockStatistics()
            if name == "a" {
                linkDepth += 1
                if headingRanks.isEmpty { statistics.links = 1 }
                if judgingFurniture, let text = node.textContent, PageFurnitureText.isCallToAct(text) { statistics.hasControls = true }
            }
            if name == "time" {
                timeDepth += 1
                if firstTimeDay == nil, node.hasAttributes {
                    var datetime: String?
                    node.forEachAttribute { attribute, value in if attribute == "datetime" { datetime = value } }
                    firstTimeDay = datetime.flatMap(PageMetadata.day(of:))
                }
            }
            if pictures.contains(name) { statistics.hasPicture = true }
            if name == "h1" { statistics.hasTitle = true }
            open.append((role, name, statistics, pieces.count))
            return true
        }

        /// Counts the characters of a text node into the innermost element's statistics.
        private mutating func count(_ text: String) {
            guard judgingFurniture, !open.isEmpty else { return }
            let characters = text.unicodeScalars.reduce(0) { $0 + ($1.properties.isWhitespace ? 0 : 1) }
            guard characters > 0 else { return }
            let last = open.count - 1
            open[last].statistics.characters += characters
            paragraphCharacters += characters
            if !headingRanks.isEmpty { open[last].statistics.headingCharacters += characters }
            else if linkDepth > 0 {
                open[last].statistics.linkCharacters += characters
                paragraphLinkCharacters += characters
            }
            if timeDepth > 0 { open[last].statistics.timeCharacters += characters }
        }

        /// Done with the innermost element entered: a block is judged, and dropped when it is
        /// the page's furniture. What it held counts towards its parent either way, so that a
        /// box of link lists is judged by its links even after each list has gone.
        private mutating func leave() {
            let role = open[open.count - 1].role
            switch role {
            case .heading: endParagraph()
            case .block, .frame: endParagraph()
            case .skipped, .lineBreak, .inline: break
            }
            let (_, name, statistics, firstPiece) = open.removeLast()
            if case .heading = role { headingRanks.removeLast() }
            if name == "a" { linkDepth -= 1 }
            if name == "time" {
                timeDepth -= 1
                collector.add(" ")
            }
            guard judgingFurniture, !open.isEmpty else { return }
            open[open.count - 1].statistics.absorb(statistics)
            if role == .block || role == .frame, firstPiece < pieces.count,
               statistics.isFurniture(paragraphs: { pieces[firstPiece...].map(\.paragraph.text) }) {
                droppedPieces.append(contentsOf: pieces[firstPiece...])
                pieces.removeSubrange(firstPiece...)
                if let began = bodyBegan, began >= firstPiece { bodyBegan = nil }
            }
        }
    }
}

extension String {
    fileprivate var trimmed: String {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return String(text)
    }
}
