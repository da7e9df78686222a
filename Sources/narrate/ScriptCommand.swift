import ArgumentParser
import Foundation
import Narration
import NarrationCore
import NarrationTerminal
import NarrationText

extension Narrate {
    /// `narrate script [FILE]`: attaches the article's text, or lists its paragraphs and their state.
    struct Script: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Attach the article's text, or list its paragraphs and what is read.",
            discussion: """
                With a file, attaches it as the article's text, replacing any text it had: plain \
                text (paragraphs between blank lines), Markdown (.md: headings, lists; emphasis and \
                links become their words) or HTML (.html: an article page saved from a browser; its \
                headings, paragraphs and list items, without menus, scripts or figures), in UTF-8. \
                Takes whose paragraph is unchanged stay bound to it; takes whose paragraph left the \
                text stay in the article, bound to none.

                Without a file, lists the paragraphs: not read, or read (its chunks and their length).

                  narrate script article.html       # attach the text of the current article
                  narrate script                    # what is read, what is next
                  narrate record                    # reads the next paragraph
                """)

        @Argument(help: ArgumentHelp("The text to attach: .txt, .md or .html (other names: read by their content).", valueName: "FILE"))
        var file: String?

        @OptionGroup var target: ArticleOption
        @OptionGroup var output: JSONOption

        func run() throws {
            if let file {
                try attach(file)
            } else {
                try list()
            }
        }

        private func attach(_ file: String) throws {
            let (article, change) = try CommandRunner.withLibrary { library throws(NarrationError) in
                let text = try ScriptReader.read(fileAt: file)
                let article = try library.article(target.article)
                return (article, try library.attachText(text, to: article, file: file))
            }
            if output.json {
                Console.printJSON(TextChangeJSON(change))
                return
            }
            Console.print("Attached the text of \"\(article.title)\" (\(article.id)): \(Self.count(change.paragraphs, "paragraph")).")
            if change.keptTakes > 0 {
                Console.print("\(Self.count(change.keptTakes, "chunk")) stay bound to \(Self.count(change.unchanged, "unchanged paragraph")).")
            }
            if !change.unboundChunks.isEmpty {
                let list = change.unboundChunks.map { String($0.number) }.joined(separator: ", ")
                Console.print("\(Self.count(change.unboundChunks.count, "chunk")) read no paragraph of this text (\(list)): they are kept; re-read their paragraphs with \"narrate record --paragraph N\", then delete them.")
            }
            if let withdrawn = change.withdrawn { Console.error(WithdrawnExport.sentence(withdrawn, title: article.title)) }
            Console.print("Run \"narrate script\" to see the paragraphs, \"narrate record\" to read the next one.")
        }

        private func list() throws {
            let (article, entries, next) = try CommandRunner.withLibrary(readOnly: true) { library throws(NarrationError) in
                let article = try library.article(target.article)
                return (article, try library.paragraphEntries(of: article), try library.catalog.readingPlan(of: article).next)
            }
            if output.json {
                Console.printJSON(entries.map { ParagraphJSON($0, isNext: $0.paragraph.id == next?.id) })
                return
            }
            guard !entries.isEmpty else {
                Console.print("\"\(article.title)\" (\(article.id)) has no text. Attach one with: narrate script FILE")
                return
            }
            let read = entries.filter(\.isRead).count
            let words = entries.reduce(0) { $0 + $1.paragraph.wordCount }
            Console.print("\"\(article.title)\" (\(article.id)): \(Self.count(entries.count, "paragraph")), \(read) read, \(Self.count(words, "word")).")
            Console.print("    #  kind       words  state                          text")
            for entry in entries {
                let paragraph = entry.paragraph
                let state = entry.isRead
                    ? "read: \(Self.count(entry.chunks.count, "chunk")), \(Timecode.tenths(entry.duration))"
                    : paragraph.id == next?.id ? "not read (next)" : "not read"
                let kind = paragraph.kind == .heading ? "heading" : "paragraph"
                let line = "\(Self.pad(paragraph.number, 5))  \(kind.padding(toLength: 9, withPad: " ", startingAt: 0))  \(Self.pad(paragraph.wordCount, 5))  \(state.padding(toLength: 29, withPad: " ", startingAt: 0))  "
                Console.print(line + TerminalText.escaped(paragraph.text).clipped(to: max(20, 110 - line.count)))
            }
        }

        static func count(_ value: Int, _ noun: String) -> String { "\(value) \(noun)\(value == 1 ? "" : "s")" }

        static func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: " ", count: max(0, width - text.count)) + text
        }
    }
}

/// What `script FILE --json` prints.
struct TextChangeJSON: Encodable {
    let paragraphs: Int
    let unchanged: Int
    let keptChunks: Int
    let unboundChunks: [Int]
    /// "queued" or "delivered": the article's export the new text withdrew; nil if it had none.
    let withdrawnExport: String?

    init(_ change: TextChange) {
        paragraphs = change.paragraphs
        unchanged = change.unchanged
        keptChunks = change.keptTakes
        unboundChunks = change.unboundChunks.map(\.number)
        withdrawnExport = change.withdrawn.map { "\($0)" }
    }
}

/// One paragraph in `script --json`.
struct ParagraphJSON: Encodable {
    let number: Int
    let id: String
    let kind: String
    let text: String
    let words: Int
    /// "notRead" or "read".
    let state: String
    /// Whether a plain `record` reads it next.
    let next: Bool
    let chunks: [Int]
    let duration: Double

    init(_ entry: ParagraphEntry, isNext: Bool) {
        number = entry.paragraph.number
        id = entry.paragraph.id.rawValue
        kind = entry.paragraph.kind.rawValue
        text = entry.paragraph.text
        words = entry.paragraph.wordCount
        state = entry.isRead ? "read" : "notRead"
        next = isNext
        chunks = entry.chunks.map(\.number)
        duration = entry.duration
    }
}
