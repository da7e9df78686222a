import NarrationCore

/// HTML read into paragraphs, the way a volunteer would read a saved news page aloud.
///
/// - The part read: the first `<article>`; else the first `<main>`; else the first element with
///   `role="main"`; else `<body>`. The search skips what is never read (below), so that a teaser
///   `<article>` in a sidebar or menu is not taken for the page's article.
/// - Headings: `h1`–`h6`. Paragraphs: every block element (`p`, `li`, `blockquote`, `dd`, `dt`,
///   `div`, `section`, table cells, …) ends the paragraph under way, so the text directly in a
///   `div` is a paragraph of its own. Inline elements (`a`, `em`, `strong`, `span`, …) give their
///   text; `<br>` is a space; images give nothing (their alternative text is not read).
/// - Never read: `script`, `style`, `noscript`, `template`, `nav`, `aside`, `form`, `button`,
///   `input`, `select`, `textarea`, `svg`, `math`, `iframe`, `object`, `embed`, `video`, `audio`,
///   `canvas`, `dialog`; an element with `hidden`, with `aria-hidden="true"`, with an inline style
///   `display: none`, or with `role` "navigation" or "complementary".
/// - Figures: the whole `figure` is dropped, its caption too (`figcaption` anywhere): a caption
///   describes a picture the listener cannot see, and reading it aloud breaks the article's flow.
/// - `header` and `footer` (and `role` "banner" or "contentinfo") are read only inside the
///   `article` or `main` taken: there they hold the title, byline and notes of the article, while
///   outside they hold the site's name, menus and legal notices.
enum HTMLText {
    /// The paragraphs of an HTML document, after libxml2 has turned its characters into UTF-8.
    ///
    /// - Throws: `textUnreadable` for a character set the document declares that libxml2 cannot
    ///   convert, or bytes that are not UTF-8 in a document that declares none (or UTF-8): libxml2
    ///   would quietly take those for Latin-1.
    static func paragraphs(of bytes: [UInt8], _ source: TextBytes.Source) throws(NarrationError) -> [ScriptParagraph] {
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
        return try paragraphs(ofUTF8OrDeclared: body, encoding: encoding, source)
    }

    /// The paragraphs of HTML whose character set is known: `encoding` as libxml2 names it.
    static func paragraphs(ofUTF8OrDeclared bytes: ArraySlice<UInt8>, encoding: String, _ source: TextBytes.Source) throws(NarrationError) -> [ScriptParagraph] {
        guard !bytes.isEmpty else { return [] }
        let document = try HTMLDocument(parsing: bytes, encoding: encoding, failure: source.refusal(
            "\"\(source.name)\" could not be read as HTML: the HTML parser made no document of it."))
        return document.withRootElement { root in
            guard let root, let start = readPart(of: root) else { return [] }
            var walk = Walk()
            walk.run(from: start.node, insideArticle: start.isArticle)
            return walk.collector.paragraphs
        }
    }

    // MARK: - Which elements are what

    private static let neverRead: Set<String> = [
        "head", "title", "meta", "link", "script", "style", "noscript", "template", "nav", "aside", "form",
        "button", "input", "select", "textarea", "svg", "math", "iframe", "object", "embed", "video", "audio",
        "canvas", "dialog", "figure", "figcaption",
    ]

    private static let headings: Set<String> = ["h1", "h2", "h3", "h4", "h5", "h6"]

    /// Elements that end the paragraph under way and start a new one; any other element is inline.
    private static let blocks: Set<String> = [
        "html", "body", "article", "main", "section", "header", "footer", "div", "p", "blockquote", "pre",
        "address", "center", "details", "summary", "hgroup", "ul", "ol", "menu", "dir", "li", "dl", "dt", "dd",
        "table", "caption", "thead", "tbody", "tfoot", "tr", "td", "th", "hr", "fieldset", "legend", "option",
    ]

    /// What an element is to the reader, decided once from its name and attributes.
    private enum Role {
        /// Never read, nor anything inside it.
        case skipped
        /// A page's header or footer: read only inside the article.
        case frame
        case heading
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
                    case "navigation", "complementary": skipped = true
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
        if headings.contains(name) { return (.heading, isMain) }
        return (blocks.contains(name) ? .block : .inline, isMain)
    }

    // MARK: - The part of the page read

    /// The element read: the first article, else main, else role="main", else the body (or the root).
    private static func readPart(of root: HTMLNode) -> (node: HTMLNode, isArticle: Bool)? {
        var main: HTMLNode?
        var roleMain: HTMLNode?
        var body: HTMLNode?
        var found: HTMLNode?
        traverse(from: root) { node in
            guard let name = node.elementName else { return false }
            let (role, isMain) = role(of: node, name: name)
            if role == .skipped || role == .frame { return false }
            switch name {
            case "article": found = node; return nil
            case "main": if main == nil { main = node }
            case "body": if body == nil { body = node }
            default: break
            }
            if roleMain == nil, isMain { roleMain = node }
            return true
        }
        if let found { return (found, true) }
        if let main = main ?? roleMain { return (main, true) }
        return (body ?? root, false)
    }

    /// Visits `root` and its descendants in document order; `visit` answers true to go into a
    /// node's children, false to skip them, nil to stop. Iterative, so no nesting is too deep.
    private static func traverse(from root: HTMLNode, _ visit: (HTMLNode) -> Bool?) {
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

    /// One pass over the part read, collecting paragraphs.
    private struct Walk {
        var collector = ParagraphCollector()
        /// The roles of the elements entered and not yet left, innermost last.
        private var open: [Role] = []
        private var headingDepth = 0
        private var kind: ScriptParagraph.Kind { headingDepth > 0 ? .heading : .paragraph }

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

        /// Takes in a node; answers whether its children are to be read (and `leave` called after them).
        private mutating func enter(_ node: HTMLNode, insideArticle: Bool) -> Bool {
            guard let name = node.elementName else {
                if let text = node.text { collector.add(text) }
                return false
            }
            let role = HTMLText.role(of: node, name: name).role
            switch role {
            case .skipped: return false
            case .frame: if !insideArticle { return false }; collector.end(as: kind)
            case .lineBreak: collector.add(" ")
            case .heading: collector.end(as: kind); headingDepth += 1
            case .block: collector.end(as: kind)
            case .inline: break
            }
            open.append(role)
            return true
        }

        /// Done with the innermost element entered.
        private mutating func leave() {
            switch open.removeLast() {
            case .heading: collector.end(as: kind); headingDepth -= 1
            case .block, .frame: collector.end(as: kind)
            case .skipped, .lineBreak, .inline: break
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
