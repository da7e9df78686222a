/// A DAISY 2.02 full-text-and-audio book ("audioFullText") of one article: the navigation
/// control centre `ncc.html`, one SMIL 1.0 file and the text as an XHTML 1.0 content document,
/// beside the audio (`audio.mp3`).
///
/// Sound mapping: a DAISY 2.02 ncc holds headings only (h1…h6), so every item of the text with a
/// sound of its own is an ncc heading at its `BookItem.level`: the title `h1 class="title"`, the
/// text's headings `h2`, and each paragraph (and each "Part N" of a chunk that reads none) one
/// level below the heading it follows, labelled by its first six words, so a player steps
/// through the article by headings and by paragraphs. Each has one `par` in the SMIL whose
/// audio clip is its paragraph's stretch of the MP3 (`npt=…s`, to the millisecond: the
/// chunks' boundaries); paragraphs are not split into sentences here. A title without a sound
/// of its own (a text that does not open with a heading) links to the first par, whose item
/// then has no ncc entry of its own. A chunk that reads no paragraph is a "Part N" paragraph
/// with a par of its own, so its audio is in the book.
///
/// The ncc links to each par's `text` element (`content.smil#text-p3`), as the specification
/// allows and as daisy-player 13 needs: linked to the `par`, it lists the items but plays none.
public struct DAISYBook: Sendable {
    public static let nccFile = "ncc.html"
    public static let smilFile = "content.smil"
    public static let contentFile = "content.html"
    public static let audioFile = "audio.mp3"

    public let text: BookText
    public let tags: ExportTags
    public let generator: String

    public init(text: BookText, tags: ExportTags, generator: String = "narrate") {
        self.text = text
        self.tags = tags
        self.generator = generator
    }

    /// The book's files but the audio, in the order they are written: (name, contents).
    public var documents: [(path: String, contents: String)] {
        [(Self.contentFile, contentDocument), (Self.smilFile, smil), (Self.nccFile, ncc)]
    }

    public var identifier: String { "narrate-\(tags.articleID)" }

    /// The ncc's entries: (ncc id, level, whether the title, label, the SMIL `text` id it links to).
    public var navigation: [(id: String, level: Int, isTitle: Bool, label: String, target: String)] {
        let timed = text.timedItems
        var entries: [(id: String, level: Int, isTitle: Bool, label: String, target: String)] = []
        for item in text.items {
            if item.kind == .title && item.clip == nil {
                guard let first = timed.first else { continue }
                entries.append(("nav-\(item.id)", 1, true, item.label, "text-\(first.id)"))
            } else if item.clip != nil {
                if item.id == timed.first?.id, entries.first?.target == "text-\(item.id)" { continue }
                entries.append(("nav-\(item.id)", item.level, item.kind == .title, item.label, "text-\(item.id)"))
            }
        }
        return entries
    }

    private var creator: String { tags.publication.isEmpty ? (tags.narrator.isEmpty ? "Unknown" : tags.narrator) : tags.publication }
    private var publisher: String { tags.publication.isEmpty ? "Unknown" : tags.publication }
    private var narrator: String { tags.narrator.isEmpty ? "Unknown" : tags.narrator }

    private static let doctype = """
        <!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
        """

    private func meta(_ name: String, _ content: String) -> String {
        "<meta name=\"\(name)\" content=\"\(XMLText.escaped(content))\"/>\n"
    }

    public var ncc: String {
        let entries = navigation
        var head = meta("dc:title", tags.title) + meta("dc:creator", creator) + meta("dc:date", tags.date)
        head += meta("dc:format", "Daisy 2.02") + meta("dc:identifier", identifier) + meta("dc:language", text.language)
        head += meta("dc:publisher", publisher) + meta("ncc:charset", "utf-8") + meta("ncc:generator", generator)
        head += meta("ncc:narrator", narrator) + meta("ncc:totalTime", BookClock.daisyTime(milliseconds: text.duration))
        head += meta("ncc:files", "4") + meta("ncc:depth", String(entries.map(\.level).max() ?? 1))
        head += meta("ncc:tocItems", String(entries.count)) + meta("ncc:multimediaType", "audioFullText")
        head += meta("ncc:pageFront", "0") + meta("ncc:pageNormal", "0") + meta("ncc:pageSpecial", "0") + meta("ncc:maxPageNormal", "0")
        var body = ""
        for entry in entries {
            let title = entry.isTitle ? " class=\"title\"" : ""
            body += "<h\(entry.level)\(title) id=\"\(entry.id)\"><a href=\"\(Self.smilFile)#\(entry.target)\">\(XMLText.escaped(entry.label))</a></h\(entry.level)>\n"
        }
        return xhtml(head: head, body: body)
    }

    /// An XHTML 1.0 document of the book's language and title: the ncc and the content document.
    private func xhtml(head: String, body: String) -> String {
        let language = XMLText.escaped(text.language)
        return """
            <?xml version="1.0" encoding="utf-8"?>
            \(Self.doctype)
            <html xmlns="http://www.w3.org/1999/xhtml" xml:lang="\(language)" lang="\(language)">
            <head>
            <meta http-equiv="Content-Type" content="text/html; charset=utf-8"/>
            <title>\(XMLText.escaped(tags.title))</title>
            \(head)</head>
            <body>
            \(body)</body>
            </html>

            """
    }

    /// The SMIL: one `par` per timed item (text, then its audio clip), in a `seq` as long as the audio.
    public var smil: String {
        let total = text.duration
        var pars = ""
        for item in text.timedItems {
            let clip = item.clip!
            pars += """
                <par endsync="last" id="par-\(item.id)">
                <text src="\(Self.contentFile)#\(item.id)" id="text-\(item.id)"/>
                <audio src="\(Self.audioFile)" clip-begin="\(BookClock.npt(milliseconds: clip.begin))" clip-end="\(BookClock.npt(milliseconds: clip.end))" id="audio-\(item.id)"/>
                </par>

                """
        }
        return """
            <?xml version="1.0" encoding="utf-8"?>
            <!DOCTYPE smil PUBLIC "-//W3C//DTD SMIL 1.0//EN" "http://www.w3.org/TR/REC-smil/SMIL10.dtd">
            <smil>
            <head>
            \(meta("dc:format", "Daisy 2.02"))\(meta("dc:title", tags.title))\(meta("dc:identifier", identifier))\
            \(meta("ncc:generator", generator))\(meta("ncc:totalElapsedTime", BookClock.daisyTime(milliseconds: 0)))\
            \(meta("ncc:timeInThisSmil", BookClock.daisyTime(milliseconds: total)))<layout>
            <region id="txtView"/>
            </layout>
            </head>
            <body>
            <seq dur="\(BookClock.seconds(milliseconds: total))s">
            \(pars)</seq>
            </body>
            </smil>

            """
    }

    /// The text as an XHTML 1.0 content document: the same elements and ids as the EPUB's, whole paragraphs.
    public var contentDocument: String {
        xhtml(head: meta("dc:title", tags.title) + meta("dc:format", "Daisy 2.02"), body: text.bodyElements(sentences: false))
    }
}
