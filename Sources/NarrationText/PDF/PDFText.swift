import NarrationCore

/// A PDF's lines joined into the paragraphs and headings a volunteer reads, by their layout:
///
/// - Dropped: lines that are only a page number ("3", "Page 3", "3 of 8", "- 3 -"), and running
///   headers and footers: a page's first or last line that, digits aside, is the first or last
///   line of at least half the pages (two at least).
/// - Headings: lines in a font at least 15% larger than the body's (the commonest size); lines of
///   one heading in a row are one heading.
/// - A new paragraph starts after a gap larger than 1.4 times the usual line spacing, at a line
///   indented from the page's left margin, after a line that ends a sentence well short of the
///   right margin, and after a page ends on a finished sentence. Otherwise lines are joined with
///   a space, or without one where a word was hyphenated at the line's end.
enum PDFText {
    /// The paragraphs of a PDF.
    /// - Throws: `textUnreadable` naming the file when it is encrypted or poppler cannot read it.
    static func paragraphs(of bytes: [UInt8], _ source: TextBytes.Source) throws(NarrationError) -> [ScriptParagraph] {
        let pages: [[PDFDocument.Line]]
        do {
            pages = try PDFDocument.pages(of: bytes)
        } catch {
            switch error {
            case .encrypted: throw source.refusal("\"\(source.name)\" is protected with a password: save it without one and try again.")
            case .damaged(let reason):
                let trimmed = reason.hasSuffix(".") ? String(reason.dropLast()) : reason
                throw source.refusal("\"\(source.name)\" cannot be read as a PDF (\(trimmed)): save it again as PDF or as text and try again.")
            }
        }
        return paragraphs(ofPages: pages)
    }

    /// Whether the bytes start as a PDF does: "%PDF-" within the first 1024 bytes.
    static func looksLikePDF(_ bytes: [UInt8]) -> Bool {
        TextBytes.firstIndex(of: Array("%pdf-".utf8), in: Array(bytes.prefix(1024)), from: 0, ignoringASCIICase: true) != nil
    }

    /// The paragraphs of pages of lines (pure: the layout rules above).
    static func paragraphs(ofPages pages: [[PDFDocument.Line]]) -> [ScriptParagraph] {
        let pages = withoutRunningLines(pages)
        let lines = pages.joined()
        guard !lines.isEmpty else { return [] }
        let bodySize = commonest(lines.map { ($0.fontSize * 2).rounded() / 2 }) ?? 12
        var steps: [Double] = []
        var rights: [Double] = []
        for page in pages {
            for (previous, line) in zip(page, page.dropFirst()) where line.top > previous.top { steps.append(line.top - previous.top) }
            rights.append(contentsOf: page.map(\.right))
        }
        let step = median(steps) ?? bodySize * 1.2
        let rightMargin = rights.max() ?? 0

        var collector = ParagraphCollector()
        var pending = ""
        var pendingIsHeading = false
        func finish() {
            collector.add(pending)
            collector.end(as: pendingIsHeading ? .heading : .paragraph)
            pending = ""
        }
        for page in pages {
            let leftMargin = page.map(\.left).min() ?? 0
            var previous: PDFDocument.Line?
            for line in page {
                let isHeading = line.fontSize >= bodySize * 1.15
                var starts = pending.isEmpty || isHeading != pendingIsHeading
                if let previous {
                    let gap = line.top - previous.top
                    if gap > step * 1.4 || gap < 0 { starts = true }
                    if !isHeading, line.left > leftMargin + line.fontSize * 0.8 { starts = true }
                    if !isHeading, endsSentence(previous.text), previous.right < rightMargin - (rightMargin - leftMargin) * 0.15 { starts = true }
                } else if endsSentence(pending) {
                    starts = true  // a new page after a finished sentence
                }
                if starts, !pending.isEmpty { finish() }
                pendingIsHeading = isHeading
                pending = joined(pending, line.text)
                previous = line
            }
        }
        if !pending.isEmpty { finish() }
        return collector.paragraphs
    }

    /// `text` and the next line: without the hyphen of a word broken at the line's end, else a space between.
    private static func joined(_ text: String, _ line: String) -> String {
        guard !text.isEmpty else { return line }
        let scalars = Array(text.unicodeScalars)
        if scalars.count >= 2, scalars[scalars.count - 1] == "-", scalars[scalars.count - 2].properties.isAlphabetic,
           line.unicodeScalars.first?.properties.isLowercase == true {
            return String(text.dropLast()) + line
        }
        return text + " " + line
    }

    private static func endsSentence(_ text: String) -> Bool {
        guard let last = text.last else { return false }
        return ".!?:\"”’)".contains(last)
    }

    /// Pages without page numbers and running headers and footers.
    private static func withoutRunningLines(_ pages: [[PDFDocument.Line]]) -> [[PDFDocument.Line]] {
        func shape(_ line: PDFDocument.Line) -> String {
            String(line.text.lowercased().map { $0.isNumber ? "#" : $0 })
        }
        var counts: [String: Int] = [:]
        for page in pages {
            for key in Set([page.first, page.last].compactMap { $0 }.map(shape)) { counts[key, default: 0] += 1 }
        }
        let running = pages.count >= 2 ? Set(counts.filter { $0.value >= 2 && $0.value * 2 >= pages.count }.keys) : []
        return pages.map { page in
            page.enumerated().filter { index, line in
                if isPageNumber(line.text) { return false }
                let isEdge = index == 0 || index == page.count - 1
                return !(isEdge && running.contains(shape(line)))
            }.map(\.element)
        }
    }

    /// "3", "- 3 -", "Page 3", "page 3 of 8", "3 of 8", "3/8".
    private static func isPageNumber(_ text: String) -> Bool {
        let words = text.lowercased().split(whereSeparator: { $0.isWhitespace || $0 == "-" || $0 == "–" || $0 == "/" })
        let rest = words.first == "page" ? words.dropFirst() : words[...]
        guard !rest.isEmpty, rest.count <= 3 else { return false }
        return rest.allSatisfy { $0 == "of" || $0.allSatisfy(\.isNumber) } && rest.contains { $0.allSatisfy(\.isNumber) }
    }

    private static func commonest(_ values: [Double]) -> Double? {
        var counts: [Double: Int] = [:]
        for value in values { counts[value, default: 0] += 1 }
        return counts.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key
    }

    private static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        return values.sorted()[values.count / 2]
    }
}
