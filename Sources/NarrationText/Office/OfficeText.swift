import NarrationCore

/// Word (`.docx`, Office Open XML) and OpenDocument (`.odt`) files read into paragraphs and
/// headings, from their XML through libxml2 (`XMLReader`): the text a volunteer reads, without
/// deleted revisions, field codes, comments or footnotes.
///
/// - Word: `word/document.xml`; each `w:p` is a paragraph, a heading when its style is `Title`
///   or `Heading1`…`Heading9` (or it has an outline level); text in `w:t`, `w:tab` and `w:br`
///   as spaces; tables' cells read in order.
/// - OpenDocument: `content.xml`; `text:h` headings and `text:p` paragraphs, in lists and
///   tables too; `text:s`, `text:tab` and `text:line-break` as spaces.
enum OfficeText {
    /// The paragraphs of a `.docx` file.
    /// - Throws: `textUnreadable` naming the file: encrypted (a password), not a zip, without its
    ///   document, or damaged.
    static func word(_ bytes: [UInt8], _ source: TextBytes.Source) throws(NarrationError) -> [ScriptParagraph] {
        let document = try parse("word/document.xml", of: bytes, kind: "Word document", source)
        return document.withRootNode { root in
            var collector = ParagraphCollector()
            guard let root else { return [] }
            HTMLText.traverse(from: root) { node in
                switch node.elementName {
                case "p":
                    var isHeading = false
                    HTMLText.traverse(from: node) { inner in
                        switch inner.elementName {
                        case nil: return false
                        case "pStyle":
                            inner.forEachAttribute { name, value in
                                let style = value.lowercased()
                                if name == "val", style == "title" || style.hasPrefix("heading") { isHeading = true }
                            }
                            return false
                        case "outlineLvl": isHeading = true; return false
                        case "t": if let text = inner.textContent { collector.add(text) }; return false
                        case "tab", "br", "cr": collector.add(" "); return false
                        case "del", "instrText", "rPr", "commentReference", "footnoteReference": return false
                        default: return true
                        }
                    }
                    collector.end(as: isHeading ? .heading : .paragraph)
                    return false
                case "del", "instrText": return false
                default: return node.elementName != nil
                }
            }
            return collector.paragraphs
        }
    }

    /// The paragraphs of an `.odt` file.
    /// - Throws: as `word`.
    static func openDocument(_ bytes: [UInt8], _ source: TextBytes.Source) throws(NarrationError) -> [ScriptParagraph] {
        if let manifest = try? OfficeArchive.entry("META-INF/manifest.xml", in: bytes),
           String(decoding: manifest, as: UTF8.self).contains("encryption-data") {
            throw source.refusal("\"\(source.name)\" is protected with a password: save it without one and try again.")
        }
        let document = try parse("content.xml", of: bytes, kind: "OpenDocument text", source)
        return document.withRootNode { root in
            var collector = ParagraphCollector()
            guard let root else { return [] }
            HTMLText.traverse(from: root) { node in
                switch node.elementName {
                case "h", "p":
                    HTMLText.traverse(from: node) { inner in
                        switch inner.elementName {
                        case nil: if let text = inner.text { collector.add(text) }; return false
                        case "s", "tab", "line-break": collector.add(" "); return false
                        case "note", "annotation": return false
                        default: return true
                        }
                    }
                    collector.end(as: node.elementName == "h" ? .heading : .paragraph)
                    return false
                case "note", "annotation", "tracked-changes": return false
                default: return node.elementName != nil
                }
            }
            return collector.paragraphs
        }
    }

    /// The XML document at `path` in the zip `bytes`, parsed strictly.
    private static func parse(_ path: String, of bytes: [UInt8], kind: String, _ source: TextBytes.Source) throws(NarrationError) -> XMLDocumentOwner {
        // An encrypted Office file is not a zip but an OLE compound file holding the encrypted package.
        if bytes.starts(with: [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) {
            throw source.refusal("\"\(source.name)\" is protected with a password (or is an old .doc file): save it as a \(kind) without a password and try again.")
        }
        let xml: [UInt8]
        do {
            xml = try OfficeArchive.entry(path, in: bytes)
        } catch {
            switch error {
            case .notZip: throw source.refusal("\"\(source.name)\" is not \(kind == "Word document" ? "a" : "an") \(kind): it is not a zip archive. Save it again from the word processor and try again.")
            case .missing: throw source.refusal("\"\(source.name)\" is not \(kind == "Word document" ? "a" : "an") \(kind): it has no \(path).")
            case .tooLarge: throw source.refusal("\"\(source.name)\" holds a \(path) larger than \(OfficeArchive.largestEntry >> 20) MiB: it is not an article narrate can read.")
            case .damaged: throw source.refusal("\"\(source.name)\" is damaged: its \(path) cannot be unpacked. Save it again from the word processor and try again.")
            }
        }
        do {
            return try XMLDocumentOwner(parsing: xml)
        } catch {
            throw source.refusal("\"\(source.name)\" is damaged: its \(path) cannot be read because \(error.reason).")
        }
    }
}
