import Foundation
import NarrationCore
import NarrationText
import Testing

/// PDFs written at test time (a minimal PDF 1.4 writer: Helvetica text placed line by line, as a
/// word processor lays out a page) and read back through poppler into exact paragraphs.
@Suite("PDF files")
struct PDFTests {
    /// A line placed on a page: its text, left edge and baseline from the page's bottom, font size.
    struct Placed {
        let text: String
        let x: Int
        let y: Int
        var size = 11
    }

    /// A PDF of `pages`, each a list of placed lines, on A4 paper.
    /// `encrypted`: with the standard security handler's dictionary, whose password is not empty.
    static func pdf(_ pages: [[Placed]], encrypted: Bool = false) -> [UInt8] {
        var objects: [String] = []
        let pageIDs = pages.indices.map { 4 + $0 * 2 }
        objects.append("<< /Type /Catalog /Pages 2 0 R >>")
        objects.append("<< /Type /Pages /Kids [\(pageIDs.map { "\($0) 0 R" }.joined(separator: " "))] /Count \(pages.count) >>")
        objects.append("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
        for page in pages {
            let stream = page.map { line in
                let escaped = line.text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "(", with: "\\(").replacingOccurrences(of: ")", with: "\\)")
                return "BT /F1 \(line.size) Tf 1 0 0 1 \(line.x) \(line.y) Tm (\(escaped)) Tj ET"
            }.joined(separator: "\n")
            objects.append("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents \(objects.count + 2) 0 R >>")
            objects.append("<< /Length \(stream.utf8.count) >>\nstream\n\(stream)\nendstream")
        }
        var out = "%PDF-1.4\n"
        var offsets: [Int] = []
        for (index, object) in objects.enumerated() {
            offsets.append(out.utf8.count)
            out += "\(index + 1) 0 obj\n\(object)\nendobj\n"
        }
        let xref = out.utf8.count
        out += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets { out += String(repeating: "0", count: 10 - String(offset).count) + "\(offset) 00000 n \n" }
        let hex = String(repeating: "5A", count: 32)
        let encryption = encrypted ? " /Encrypt << /Filter /Standard /V 1 /R 2 /O <\(hex)> /U <\(hex)> /P -4 >> /ID [<\(hex)> <\(hex)>]" : ""
        out += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R\(encryption) >>\nstartxref\n\(xref)\n%%EOF\n"
        return Array(out.utf8)
    }

    /// Two pages of a council report: a running header and page numbers, a title, a hyphenated
    /// word, a paragraph gap, an indented paragraph without a gap, one that runs on to the next
    /// page mid-sentence, a section heading, and a short last line that ends a sentence.
    static let report: [[Placed]] = [
        [
            Placed(text: "Valley Council - Flood report 2026", x: 72, y: 800, size: 9),
            Placed(text: "Flood defences for the lower valley", x: 72, y: 740, size: 18),
            Placed(text: "The council met on Tuesday to discuss the flood defences for the", x: 72, y: 700),
            Placed(text: "lower valley, and after a long debate agreed to give the plan further consider-", x: 72, y: 686),
            Placed(text: "ation at its next meeting.", x: 72, y: 672),
            Placed(text: "Residents who spoke at the meeting asked for the embankment to be raised", x: 72, y: 644),
            Placed(text: "before the winter.", x: 72, y: 630),
            Placed(text: "The engineers said that the work would take six months and that the", x: 90, y: 616),
            Placed(text: "cost would be shared between the council and the water board, who have", x: 72, y: 602),
            Placed(text: "1", x: 290, y: 40, size: 9),
        ],
        [
            Placed(text: "Valley Council - Flood report 2026", x: 72, y: 800, size: 9),
            Placed(text: "already set aside two million pounds for the first stage.", x: 72, y: 760),
            Placed(text: "Next steps", x: 72, y: 720, size: 15),
            Placed(text: "A public meeting will be held at the school hall in March.", x: 72, y: 690),
            Placed(text: "2", x: 290, y: 40, size: 9),
        ],
    ]

    @Test("lines joined into paragraphs by the layout; headings by their size; page numbers and running headers gone")
    func report() throws {
        let folder = try TextFolder()
        let path = try folder.write("report.pdf", bytes: Self.pdf(Self.report))
        #expect(try ScriptReader.read(fileAt: path) == [
            heading("Flood defences for the lower valley"),
            paragraph("The council met on Tuesday to discuss the flood defences for the lower valley, and after a long debate agreed to give the plan further consideration at its next meeting."),
            paragraph("Residents who spoke at the meeting asked for the embankment to be raised before the winter."),
            paragraph("The engineers said that the work would take six months and that the cost would be shared between the council and the water board, who have already set aside two million pounds for the first stage."),
            heading("Next steps"),
            paragraph("A public meeting will be held at the school hall in March."),
        ])
    }

    @Test("an encrypted PDF and a damaged one are refused with a sentence naming the file; one without text has none to read")
    func refusals() throws {
        let folder = try TextFolder()
        func refusal(_ path: String) -> String? {
            thrown { () throws(NarrationError) in try ScriptReader.read(fileAt: path) }?.message
        }
        let locked = try folder.write("locked.pdf", bytes: Self.pdf(Self.report, encrypted: true))
        #expect(refusal(locked) == "\"locked.pdf\" is protected with a password: save it without one and try again.")
        let cut = try folder.write("cut.pdf", bytes: Array("%PDF-1.4\n1 0 obj\n<< /Type /Catalog".utf8))
        #expect(refusal(cut)?.hasPrefix("\"cut.pdf\" cannot be read as a PDF (") == true)
        #expect(refusal(cut)?.hasSuffix("): save it again as PDF or as text and try again.") == true)
        let blank = try folder.write("blank.pdf", bytes: Self.pdf([[]]))
        #expect(refusal(blank) == "\"blank.pdf\" has no text to read.")
    }
}
