import Foundation
import NarrationCore
import NarrationText
import Testing

/// Saved news pages of many layouts (`Tests/Fixtures/news`), each beside the paragraphs a volunteer
/// should read from it (`NN-name.expected.txt`: one paragraph a line, headings marked "# ", the
/// byline's author and the publication day as "@author" and "@date" lines).
@Suite("Saved news pages")
struct NewsPageTests {
    /// A page and what it should give.
    struct Page {
        let name: String
        let path: String
        let expected: [ScriptParagraph]
        let author: String?
        let date: String?
    }

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/news")

    static func pages() throws -> [Page] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".html") }.sorted()
        return try names.map { name in
            let sidecar = folder.appendingPathComponent(name.replacingOccurrences(of: ".html", with: ".expected.txt"))
            var expected: [ScriptParagraph] = []
            var author: String?
            var date: String?
            for line in try String(contentsOf: sidecar, encoding: .utf8).split(separator: "\n") {
                if line.hasPrefix("@author ") { author = String(line.dropFirst(8)) }
                else if line.hasPrefix("@date ") { date = String(line.dropFirst(6)) }
                else if line.hasPrefix("# ") { expected.append(heading(String(line.dropFirst(2)))) }
                else { expected.append(paragraph(String(line))) }
            }
            return Page(name: name, path: folder.appendingPathComponent(name).path, expected: expected, author: author, date: date)
        }
    }

    @Test("every paragraph of 20 and more saved news pages kept, no menu, share bar, advertisement, comment or byline left in")
    func newsPages() throws {
        let pages = try Self.pages()
        #expect(pages.count >= 20)
        var table = ["page                              kept  clutter  author / date"]
        var keptTotal = 0
        var expectedTotal = 0
        var clutterTotal = 0
        for page in pages {
            let document = try ScriptReader.readDocument(fileAt: page.path)
            let kept = page.expected.filter(document.paragraphs.contains).count
            let clutter = document.paragraphs.filter { !page.expected.contains($0) }
            keptTotal += kept
            expectedTotal += page.expected.count
            clutterTotal += clutter.count
            let byline = "\(document.author ?? "-") / \(document.published ?? "-")"
            table.append(page.name.padding(toLength: 34, withPad: " ", startingAt: 0)
                + "\(kept)/\(page.expected.count)".padding(toLength: 6, withPad: " ", startingAt: 0)
                + "\(clutter.count)".padding(toLength: 9, withPad: " ", startingAt: 0) + byline)
            for paragraph in clutter { table.append("    clutter: \(paragraph.kind == .heading ? "# " : "")\(paragraph.text)") }
            for paragraph in page.expected where !document.paragraphs.contains(paragraph) { table.append("    missing: \(paragraph.text)") }
            #expect(document.paragraphs == page.expected, "\(page.name)")
            #expect(document.author == page.author, "\(page.name)")
            #expect(document.published == page.date, "\(page.name)")
        }
        table.append("all \(pages.count) pages: \(keptTotal) of \(expectedTotal) paragraphs kept, \(clutterTotal) clutter paragraphs left in")
        print(table.joined(separator: "\n"))
    }

    @Test("a page of 6,000 blocks, a third of them link lists and share bars, is judged in well under a second")
    func largePage() throws {
        let folder = try TextFolder()
        var page = "<html><body><article><h1>Long</h1>"
        for index in 0..<2_000 {
            page += "<div><p>Paragraph \(index) of the article, long enough to be read as text.</p>"
            page += "<ul><li><a href=\"/\(index)\">Related story \(index)</a></li></ul><div><a href=\"#\">Share</a> <a href=\"#\">Email</a></div></div>"
        }
        page += "</article></body></html>"
        let path = try folder.write("long.html", page)
        var paragraphs: [ScriptParagraph] = []
        // The reading thread's processor time: the reader's own cost, whatever else runs meanwhile.
        let started = Self.threadCPUTime()
        paragraphs = try ScriptReader.read(fileAt: path)
        let elapsed = Self.threadCPUTime() - started
        #expect(paragraphs.count == 2_001)
        #expect(paragraphs.last == paragraph("Paragraph 1999 of the article, long enough to be read as text."))
        #expect(elapsed < .seconds(1), "\(elapsed)")
    }

    /// The calling thread's processor time (`CLOCK_THREAD_CPUTIME_ID`).
    static func threadCPUTime() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
}
