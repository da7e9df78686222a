import Foundation
import NarrationCore
import NarrationText
import NarrationTestSupport
import Testing

/// PDF, Word and OpenDocument files damaged at random (seeded, `NARRATE_FUZZ_SEED` replays a
/// run): each is read into paragraphs or refused with a sentence naming the file, never a trap.
@Suite("Fuzzing the PDF, Word and OpenDocument readers")
struct DocumentFuzzTests {
    static let rounds = 1_500

    /// A one-page PDF with a title and two paragraphs.
    static let pdf: [UInt8] = {
        let stream = "BT /F1 18 Tf 1 0 0 1 72 740 Tm (Harbour) Tj ET\nBT /F1 11 Tf 1 0 0 1 72 700 Tm (After three years of repairs, the harbour opened.) Tj ET\n"
            + "BT /F1 11 Tf 1 0 0 1 72 660 Tm (Ferries run twice a day.) Tj ET"
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>",
            "<< /Length \(stream.utf8.count) >>\nstream\n\(stream)\nendstream",
        ]
        var out = "%PDF-1.4\n"
        var offsets: [Int] = []
        for (index, object) in objects.enumerated() {
            offsets.append(out.utf8.count)
            out += "\(index + 1) 0 obj\n\(object)\nendobj\n"
        }
        let xref = out.utf8.count
        out += "xref\n0 6\n0000000000 65535 f \n" + offsets.map { String(repeating: "0", count: 10 - String($0).count) + "\($0) 00000 n \n" }.joined()
        out += "trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        return Array(out.utf8)
    }()

    /// A zip of `entries` made with Python's zipfile (stored, so that damage reaches the XML too).
    static func zip(_ entries: [(String, String)]) throws -> [UInt8] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("narrate-fuzz-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let target = folder.appendingPathComponent("out.zip")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_STORED) as z:
                for i in range(2, len(sys.argv), 2): z.writestr(sys.argv[i], sys.argv[i + 1])
            """, target.path] + entries.flatMap { [$0.0, $0.1] }
        try process.run()
        process.waitUntilExit()
        return Array(try Data(contentsOf: target))
    }

    @Test("damaged PDF, .docx and .odt files are read or refused naming the file")
    func documents() throws {
        var random = SeededGenerator(default: 0x4F46_4649)
        let word = try Self.zip([("word/document.xml", """
            <w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>\
            <w:p><w:pPr><w:pStyle w:val="Title"/></w:pPr><w:r><w:t>Harbour</w:t></w:r></w:p>\
            <w:p><w:r><w:t>After three years of repairs, the harbour opened.</w:t></w:r></w:p></w:body></w:document>
            """)])
        let openDocument = try Self.zip([("content.xml", """
            <office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" \
            xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:text>\
            <text:h>Harbour</text:h><text:p>After <text:span>three</text:span> years.</text:p></office:text></office:body></office:document-content>
            """)])
        let samples: [(ScriptFormat, [UInt8])] = [(.pdf, Self.pdf), (.docx, word), (.odt, openDocument)]
        for (format, valid) in samples {
            #expect(try ScriptReader.read(valid, format: format, name: "article.\(format.rawValue)").first == ScriptParagraph(kind: .heading, text: "Harbour"))
        }
        var read = 0
        var refused = 0
        for round in 0..<Self.rounds {
            let (format, valid) = samples[round % samples.count]
            do {
                let paragraphs = try ScriptReader.read(random.mutate(valid), format: format, name: "article.\(format.rawValue)")
                read += 1
                #expect(paragraphs.allSatisfy { !$0.text.isEmpty && $0.text == $0.text.trimmingCharacters(in: .whitespacesAndNewlines) })
            } catch {
                refused += 1
                #expect(error.kind == .textUnreadable && error.message.hasPrefix("\"article."), "\(error.message)")
            }
        }
        print("figure: \(Self.rounds) damaged PDF, Word and OpenDocument files (seed \(random.seed)): \(read) read, \(refused) refused naming the file")
    }
}
