/// An EPUB 3 media overlay (SMIL 3.0): one `par` per item of the book's text with a sound of its
/// own, or one per sentence where the take check placed the sentences, each pointing at its
/// element of the content document and at its clip of the audio, so that reading apps highlight
/// the text as it is read.
public struct MediaOverlay: Sendable {
    public let text: BookText
    /// The content document's and the audio's names, relative to the overlay.
    public let document: String
    public let audio: String

    public init(text: BookText, document: String, audio: String) {
        self.text = text
        self.document = document
        self.audio = audio
    }

    /// Each par's text target (an id in the content document) and clip, in order.
    public var pars: [(target: String, clip: BookClip)] {
        text.timedItems.flatMap { item -> [(target: String, clip: BookClip)] in
            item.sentences.isEmpty ? [(item.id, item.clip!)] : item.sentences.map { ($0.id, $0.clip) }
        }
    }

    public var smil: String {
        var body = ""
        for (number, par) in pars.enumerated() {
            body += """
                <par id="par\(number + 1)"><text src="\(document)#\(par.target)"/>\
                <audio src="\(audio)" clipBegin="\(BookClock.clockValue(milliseconds: par.clip.begin))" \
                clipEnd="\(BookClock.clockValue(milliseconds: par.clip.end))"/></par>

                """
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <smil xmlns="http://www.w3.org/ns/SMIL" xmlns:epub="http://www.idpf.org/2007/ops" version="3.0">
            <body>
            \(body)</body>
            </smil>

            """
    }
}
