/// The documents of an EPUB 3 book with a media overlay, apart from the audio: the OCF
/// container, the package document, the navigation document, the text, its overlay and a
/// style sheet that shows the sentence being read.
///
/// Paths inside the book: `mimetype`, `META-INF/container.xml`, and under `EPUB/`:
/// `package.opf`, `nav.xhtml`, `text.xhtml`, `text.smil`, `style.css` and `audio.mp3`.
public struct EPUBPackage: Sendable {
    /// The `mimetype` entry's contents (it must be the first entry, stored uncompressed).
    public static let mimetype = "application/epub+zip"
    public static let audioPath = "EPUB/audio.mp3"

    public let text: BookText
    public let tags: ExportTags
    /// `dcterms:modified`, `CCYY-MM-DDThh:mm:ssZ`.
    public let modified: String

    public init(text: BookText, tags: ExportTags, modified: String) {
        self.text = text
        self.tags = tags
        self.modified = modified
    }

    /// The unique identifier: the article's id in a URN.
    public var identifier: String { "urn:narrate:article:\(tags.articleID)" }

    public var overlay: MediaOverlay { MediaOverlay(text: text, document: "text.xhtml", audio: "audio.mp3") }

    /// Every entry but `mimetype` and the audio, in the order they are written: (path, contents).
    public var documents: [(path: String, contents: String)] {
        [
            ("META-INF/container.xml", containerXML),
            ("EPUB/package.opf", packageDocument),
            ("EPUB/nav.xhtml", navigationDocument),
            ("EPUB/text.xhtml", text.epubDocument(stylesheet: "style.css")),
            ("EPUB/text.smil", overlay.smil),
            ("EPUB/style.css", styleSheet),
        ]
    }

    public var containerXML: String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
        <rootfiles>
        <rootfile full-path="EPUB/package.opf" media-type="application/oebps-package+xml"/>
        </rootfiles>
        </container>

        """
    }

    /// The package document: Dublin Core metadata, the overlay's and the book's
    /// `media:duration`, the narrator, the active class, the manifest and a spine of the text.
    public var packageDocument: String {
        let duration = BookClock.clockValue(milliseconds: text.duration)
        var metadata = """
            <dc:identifier id="book-id">\(XMLText.escaped(identifier))</dc:identifier>
            <dc:title>\(XMLText.escaped(tags.title))</dc:title>
            <dc:language>\(XMLText.escaped(text.language))</dc:language>

            """
        if !tags.publication.isEmpty {
            metadata += "<dc:creator>\(XMLText.escaped(tags.publication))</dc:creator>\n"
            metadata += "<dc:publisher>\(XMLText.escaped(tags.publication))</dc:publisher>\n"
        }
        metadata += "<dc:date>\(XMLText.escaped(tags.date))</dc:date>\n"
        metadata += "<meta property=\"dcterms:modified\">\(XMLText.escaped(modified))</meta>\n"
        metadata += "<meta property=\"media:duration\" refines=\"#overlay\">\(duration)</meta>\n"
        metadata += "<meta property=\"media:duration\">\(duration)</meta>\n"
        if !tags.narrator.isEmpty { metadata += "<meta property=\"media:narrator\">\(XMLText.escaped(tags.narrator))</meta>\n" }
        metadata += "<meta property=\"media:active-class\">-epub-media-overlay-active</meta>\n"
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="book-id" xml:lang="\(XMLText.escaped(text.language))">
            <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
            \(metadata)</metadata>
            <manifest>
            <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
            <item id="text" href="text.xhtml" media-type="application/xhtml+xml" media-overlay="overlay"/>
            <item id="overlay" href="text.smil" media-type="application/smil+xml"/>
            <item id="audio" href="audio.mp3" media-type="audio/mpeg"/>
            <item id="style" href="style.css" media-type="text/css"/>
            </manifest>
            <spine>
            <itemref idref="text"/>
            </spine>
            </package>

            """
    }

    /// The table of contents: the title and every heading, linked to its element.
    public var navigationDocument: String {
        let language = XMLText.escaped(text.language)
        let entries = text.items.filter { $0.kind == .title || $0.kind == .heading }
            .map { "<li><a href=\"text.xhtml#\($0.id)\">\(XMLText.escaped($0.label))</a></li>\n" }.joined()
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE html>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="\(language)" lang="\(language)">
            <head>
            <meta charset="utf-8"/>
            <title>\(XMLText.escaped(text.title))</title>
            </head>
            <body>
            <nav epub:type="toc" id="toc">
            <h1>\(XMLText.escaped(text.title))</h1>
            <ol>
            \(entries)</ol>
            </nav>
            </body>
            </html>

            """
    }

    /// The class reading apps put on the element being read (`media:active-class`).
    public var styleSheet: String {
        """
        .-epub-media-overlay-active { background-color: #ffeb3b; color: #000000; }
        p.part { font-style: italic; }

        """
    }
}
