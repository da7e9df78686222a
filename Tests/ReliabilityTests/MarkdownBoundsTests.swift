import Foundation
import NarrationCore
import NarrationTestSupport
import NarrationText
import Testing

/// Markdown built to make a reader backtrack, recurse or rescan: every shape, at about 1 MB,
/// reads in under a second (the bound the web studio and the command line promise) or is refused
/// with a sentence, never a trap or a stack overflow. The shapes are those that took Ink, the
/// library read Markdown with before, exponential time or the whole stack, and their relatives
/// for every construct the reader knows; then random mixtures of them, seeded.
@Suite("Markdown is read in bounded time and depth")
struct MarkdownBoundsTests {
    /// The processor time a reading may take: the second the web studio and the command line
    /// promise, for the release binary. The tests run a debug build, several times slower, whose
    /// slowest shapes (the line-by-line ones) measured 0.69 to 1.06 s from run to run, so it is
    /// held to 2 s: a reading that is not linear in its input still fails by far (Ink took 16.7 s
    /// on 49 bytes of brackets).
    static let bound: Duration = {
        #if DEBUG
            .seconds(2)
        #else
            .seconds(1)
        #endif
    }()

    /// About 1 MB of `unit` repeated.
    static func repeated(_ unit: String, bytes: Int = 1 << 20) -> String {
        String(repeating: unit, count: max(1, bytes / unit.utf8.count))
    }

    /// Reads `text` as Markdown and answers the paragraphs (or the refusal) and the processor
    /// time the reading thread spent on it: the reader's own cost, the same whether or not the
    /// suite's other tests load every core meanwhile (the CPU-load tests run stress-ng beside it).
    static func read(_ text: String) -> (result: Result<[ScriptParagraph], NarrationError>, elapsed: Duration) {
        var result: Result<[ScriptParagraph], NarrationError> = .success([])
        let started = ThreadCPUTime.now
        result = Result { () throws(NarrationError) in try ScriptReader.read(Array(text.utf8), format: .markdown, name: "bomb.md") }
        return (result, ThreadCPUTime.now - started)
    }

    /// Pathological shapes, each with what its first paragraph must read ("" when it has no text
    /// to read, nil when any text will do).
    static let shapes: [(name: String, text: String, first: String?)] = [
        ("[ ×N x ] ×N (Ink: 16.7 s at N=24, stack overflow at 10,000)",
         String(repeating: "[", count: 500_000) + "x" + String(repeating: "]", count: 500_000),
         String(repeating: "[", count: 500_000) + "x" + String(repeating: "]", count: 500_000)),
        ("![ ×N x ] ×N", repeated("!["), repeated("![")),
        ("[ ×N then ](url) ×N", String(repeating: "[", count: 300_000) + repeated("](u)", bytes: 700_000),
         String(repeating: "[", count: 300_000 - 175_000)),
        ("]( ×N, an open destination", repeated("[a]("), repeated("[a](")),
        ("[a](b \" ×N, an open title", repeated("[a](b \""), repeated("[a](b \"")),
        ("[a](b( ×N, parentheses nesting", "[a](" + repeated("b("), "[a](" + repeated("b(")),
        ("[](x then ]() ×N, a destination scanned past many links", "[](x" + repeated("]()"), "[](x" + repeated("]()")),
        ("[a][ ×N, open reference labels", repeated("[a]["), repeated("[a][")),
        ("* ×N, a rule", repeated("*"), ""),
        ("_ ×N, a rule", repeated("_"), ""),
        ("* ×N after a word", "a" + repeated("*"), "a" + repeated("*")),
        ("*a _b ×N, openers never closed", repeated("*a _b "), repeated("*a _b ").trimmingCharacters(in: .whitespaces)),
        ("**a* ×N, runs of different lengths", repeated("**a* "), repeated("**a* ").replacingOccurrences(of: "*", with: "").trimmingCharacters(in: .whitespaces)),
        ("~~ ×N", repeated("~~a "), repeated("~~a ").trimmingCharacters(in: .whitespaces)),
        ("> ×N on one line", repeated(">") + " deep", "deep"),
        ("> ×N lines, each one deeper", (1...1000).map { String(repeating: "> ", count: $0) + "q" }.joined(separator: "\n"), "q"),
        ("nested list items, each one deeper", (0..<1400).map { String(repeating: " ", count: $0) + "- i" }.joined(separator: "\n"), "i"),
        ("- ×N on one line", repeated("- ") + "x", "x"),
        ("backtick runs of growing length", (1...1400).map { String(repeating: "`", count: $0) }.joined(separator: " "),
         (1...1400).map { String(repeating: "`", count: $0) }.joined(separator: " ")),
        ("` ×N, a code fence", repeated("`"), ""),
        ("` ×N after a word", "a" + repeated("`"), "a" + repeated("`")),
        ("`a ``b ×N, code spans of two lengths interleaved", repeated("`a ``b "), nil),
        ("< ×N", repeated("<"), repeated("<")),
        ("<a ×N, tags never closed", repeated("<a "), repeated("<a ").trimmingCharacters(in: .whitespaces)),
        ("<!-- ×N, a comment never closed", repeated("<!-- "), ""),
        ("<!-- ×N after a word, comments never closed", "a " + repeated("<!-- "), ("a " + repeated("<!-- ")).trimmingCharacters(in: .whitespaces)),
        ("<http: ×N, autolinks never closed", repeated("<http:x "), repeated("<http:x ").trimmingCharacters(in: .whitespaces)),
        ("& and &# ×N", repeated("&#&a"), repeated("&#&a")),
        ("\\ ×N", repeated("\\"), String(repeating: "\\", count: (1 << 20) / 2)),
        ("# ×N", repeated("#"), repeated("#")),
        ("a table row of 100,000 cells", repeated("|a", bytes: 200_000) + "\n" + repeated("|-", bytes: 200_000), "a"),
        ("| ×N", repeated("|"), ""),
        ("an unclosed code fence", "```\n" + repeated("code\n"), repeated("code\n").trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "\n", with: " ")),
        ("``` ×N lines, fences opening and closing", repeated("```\nx\n"), "x"),
        ("<script> never closed", "<script>\n" + repeated("x\n"), ""),
        ("--- front matter never closed", "---\n" + repeated("a: b\n"), nil),
        ("=== and --- underlines ×N", repeated("t\n===\n"), "t"),
        ("a line of 1 MB", repeated("word "), repeated("word ").trimmingCharacters(in: .whitespaces)),
        ("1 MB of newlines and one word", repeated("\n") + "end", "end"),
    ]

    @Test("every pathological shape of about 1 MB reads in under a second", arguments: 0..<shapes.count)
    func shape(_ index: Int) {
        let shape = Self.shapes[index]
        let (result, elapsed) = Self.read(shape.text)
        print("figure: Markdown '\(shape.name)', \(shape.text.utf8.count) bytes: \(elapsed)")
        #expect(elapsed < Self.bound, "\(shape.name): \(elapsed)")
        switch result {
        case .success(let paragraphs):
            #expect(!paragraphs.isEmpty)
            if let first = shape.first { #expect(paragraphs.first?.text == first, "\(shape.name): \(paragraphs.first?.text.prefix(80) ?? "nothing")") }
        case .failure(let error):
            #expect(shape.first == "", "\(shape.name): refused: \(error.message)")
            #expect(error.message == "\"bomb.md\" has no text to read.")
        }
    }

    /// The constructs mixed at random.
    static let pieces = [
        "[", "]", "![", "](", "(", ")", "<", ">", "*", "**", "_", "__", "~~", "`", "``", "```", "\\", "&", "&amp;", "&#", ";",
        "\"", "'", "|", "#", "- ", "1. ", "> ", "\n", "\n\n", "  ", "<!--", "-->", "<a href=\"x\">", "</a>", "<https://x.org/",
        "===", "---", "word", "words of a sentence", "é", "港", "🎙",
    ]

    @Test("random mixtures of every construct, up to 1 MB, read in under a second each and never trap")
    func mixtures() {
        var random = SeededGenerator(default: 0x4D44_4D44)
        var refused = 0
        var slowest = Duration.zero
        for round in 0..<24 {
            // Sizes from 1 KB to 1 MB; each text favours a few pieces, as a real bomb repeats one.
            let size = 1 << Int.random(in: 10...20, using: &random)
            let favourites = (0..<3).map { _ in Self.pieces.randomElement(using: &random)! }
            var text = ""
            while text.utf8.count < size {
                text += Int.random(in: 0..<4, using: &random) == 0 ? Self.pieces.randomElement(using: &random)! : favourites.randomElement(using: &random)!
            }
            let (result, elapsed) = Self.read(text)
            slowest = max(slowest, elapsed)
            #expect(elapsed < Self.bound, "round \(round) (seed \(random.seed)), \(text.utf8.count) bytes of \(favourites): \(elapsed)")
            if case .failure(let error) = result {
                refused += 1
                #expect(error.message == "\"bomb.md\" has no text to read.", "round \(round): \(error.message)")
            }
        }
        print("figure: 24 random Markdown mixtures of 1 KB to 1 MB (seed \(random.seed)): slowest \(slowest), \(refused) with no text to read")
    }

    @Test("damaged Markdown articles are read or refused with a sentence, never a trap")
    func damaged() {
        var random = SeededGenerator(default: 0x4D44_4441)
        let valid = Array("""
            ---
            title: front matter
            ---
            Title
            =====

            Some *emphasis*, **strong**, `code`, a [link](https://x.org "t"), a [ref][r] and ![an image](i.png).

            > A quote
            > > nested, with <span>html</span> &eacute; and <https://x.org>

            - item
              - nested
            1. first

            | a | b |
            |---|---|
            | 1 | 2 |

            ```
            code *not* emphasis
            ```
            <!-- a comment -->
            [r]: https://x.org
            """.utf8)
        var read = 0
        for _ in 0..<5_000 {
            let bytes = random.mutate(valid)
            do {
                let paragraphs = try ScriptReader.read(bytes, format: .markdown, name: "damaged.md")
                read += 1
                #expect(paragraphs.allSatisfy { !$0.text.isEmpty && $0.text == $0.text.trimmingCharacters(in: .whitespaces) })
            } catch {
                #expect(error.message.hasPrefix("\"damaged.md\" "), "\(error.message)")
            }
        }
        print("figure: 5000 damaged Markdown articles (seed \(random.seed)): \(read) read, \(5_000 - read) refused with a sentence")
    }

    @Test("Markdown over 16 MB is refused with a sentence before it is read")
    func tooBig() {
        let text = Self.repeated("a line of text\n", bytes: (16 << 20) + 100)
        let (result, elapsed) = Self.read(text)
        guard case .failure(let error) = result else {
            Issue.record("read 16 MB of Markdown")
            return
        }
        #expect(error == NarrationError(
            .textUnreadable,
            "\"bomb.md\" is 16.0 MB of Markdown, more than the 16 MB narrate reads as one article: split it into articles and try again."))
        #expect(elapsed < Self.bound)
    }
}
