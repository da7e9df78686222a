import NarrationCore

/// Plain text: paragraphs separated by one or more blank lines (lines of only white space), the
/// lines of a paragraph joined by a space. Every paragraph is body text: headings are not guessed.
enum PlainText {
    /// The paragraphs of well-formed UTF-8 text; lines end in LF, CRLF or a lone CR.
    static func paragraphs(of text: String) -> [ScriptParagraph] {
        var text = text
        return text.withUTF8 { buffer in
            var collector = ParagraphCollector()
            var lineStart = 0
            var index = 0
            while index <= buffer.count {
                let atEnd = index == buffer.count
                guard atEnd || buffer[index] == 0x0A || buffer[index] == 0x0D else { index += 1; continue }
                let line = UnsafeBufferPointer(rebasing: buffer[lineStart..<index])
                if UTF8Text.isBlank(line) {
                    collector.end(as: .paragraph)
                } else {
                    collector.add(line)
                    collector.add(" ")
                }
                if !atEnd, buffer[index] == 0x0D, index + 1 < buffer.count, buffer[index + 1] == 0x0A { index += 1 }
                index += 1
                lineStart = index
            }
            collector.end(as: .paragraph)
            return collector.paragraphs
        }
    }
}
