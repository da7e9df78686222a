import NarrationCore
import NarrationText
import Testing

@Suite("Long articles")
struct LargeTextTests {
    static let count = 2000

    static func sentence(_ number: Int) -> String {
        "Paragraph \(number) tells of the river, the rain and the people who live by the water."
    }

    @Test("2000 paragraphs of plain text come out as 2000, in well under a second")
    func plain() throws {
        let folder = try TextFolder()
        let text = (1...Self.count).map { Self.sentence($0) }.joined(separator: "\n\n")
        let path = try folder.write("long.txt", text)
        var paragraphs: [ScriptParagraph] = []
        let elapsed = try ContinuousClock().measure { paragraphs = try ScriptReader.read(fileAt: path) }
        #expect(paragraphs.count == Self.count)
        #expect(paragraphs.last == paragraph(Self.sentence(Self.count)))
        #expect(elapsed < .seconds(1))
    }

    @Test("2000 paragraphs of HTML come out as 2000, in well under a second")
    func html() throws {
        let folder = try TextFolder()
        let body = (1...Self.count).map { "<p>\(Self.sentence($0)) <a href=\"#\">More</a></p>" }.joined(separator: "\n")
        let path = try folder.write("long.html", "<html><body><article>\(body)</article></body></html>")
        var paragraphs: [ScriptParagraph] = []
        let elapsed = try ContinuousClock().measure { paragraphs = try ScriptReader.read(fileAt: path) }
        #expect(paragraphs.count == Self.count)
        #expect(paragraphs.first == paragraph(Self.sentence(1) + " More"))
        #expect(elapsed < .seconds(1))
    }

    @Test("2000 Markdown paragraphs and list items come out as 2000")
    func markdown() throws {
        let folder = try TextFolder()
        let text = (1...Self.count / 2).map { "\(Self.sentence($0))\n\n- item \($0)" }.joined(separator: "\n\n")
        let path = try folder.write("long.md", text)
        var paragraphs: [ScriptParagraph] = []
        let elapsed = try ContinuousClock().measure { paragraphs = try ScriptReader.read(fileAt: path) }
        #expect(paragraphs.count == Self.count)
        #expect(elapsed < .seconds(2))
    }

    @Test("markup nested as deep as libxml2 allows (256 levels) is read")
    func deepNesting() throws {
        let depth = 120
        let html = String(repeating: "<div><span>", count: depth) + "deep" + String(repeating: "</span></div>", count: depth)
        let paragraphs = try ScriptReader.read(Array(html.utf8), format: .html, name: "deep.html")
        #expect(paragraphs == [paragraph("deep")])
    }
}
