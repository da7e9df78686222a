import ArgumentParser
import Foundation
import Narration
import NarrationCore

extension Narrate {
    /// `narrate history`: the edits undo can take back.
    struct History: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the edits of the article, newest first: what narrate undo would take back next.",
            discussion: """
                Each line is one edit: its number, when it was made, its kind and what it did. \
                Edits already taken back are marked "undone"; the first one not marked is what \
                undo takes back next. Without --article: the current article, and articles deleted. \
                Edits are numbered across all articles, so one article's list skips the numbers \
                of other articles' edits (--all shows them).

                  narrate history
                  narrate history --all --limit 50    # every article's edits
                """)

        @OptionGroup var target: ArticleOption

        @Flag(help: "List the edits of every article.")
        var all = false

        @Option(parsing: .unconditional, help: ArgumentHelp("Show at most this many edits (default 20).", valueName: "N"))
        var limit: Int = 20

        @OptionGroup var output: JSONOption

        func validate() throws {
            guard limit >= 1 else {
                throw ValidationError("--limit \(limit) lists nothing: give 1 or more.")
            }
            if all, target.article != nil { throw ValidationError("--all lists every article's edits; leave out --article, or --all.") }
        }

        func run() throws {
            let (edits, titles) = try CommandRunner.withLibrary(readOnly: true) { library throws(NarrationError) in
                let edits: [Edit]
                if all {
                    edits = try library.records.history(of: nil, limit: limit)
                } else if let id = target.article {
                    edits = try library.records.history(of: try library.article(id).id, limit: limit)
                } else {
                    edits = try library.records.historyAroundCurrent(limit: limit)
                }
                let titles = try library.records.titles(of: Set(edits.map(\.article)))
                return (edits, titles)
            }
            if output.json {
                Console.printJSON(edits.map { EditJSON($0, title: titles[$0.article]) })
                return
            }
            guard !edits.isEmpty else {
                Console.print("No edits yet: recording, deleting, re-recording, moving and trimming chunks are listed here, and narrate undo takes them back.")
                return
            }
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.dateFormat = "yyyy-MM-dd HH:mm"
            let width = max(1, edits.map { String($0.number).count }.max() ?? 1)
            var next = edits.first { $0.undoneAt == nil && $0.kind.canUndo }?.number
            if edits.first(where: { $0.undoneAt == nil })?.kind.canUndo == false { next = nil }
            for edit in edits {
                let marker = edit.undoneAt != nil ? "  (undone)" : edit.number == next ? "  ← undo takes this back next" : ""
                let article = all || edit.kind == .deleteArticle ? "  [\(titles[edit.article].map { "\"\($0)\"" } ?? edit.article.rawValue)]" : ""
                Console.print("\(Console.rightAligned(edit.number, width))  \(formatter.string(from: edit.madeAt))  \(edit.kind.label.padding(toLength: 14, withPad: " ", startingAt: 0))\(edit.summary)\(article)\(marker)")
            }
            // Numbers are the library's, shared by every article: say why one article's skip some.
            let numbers = edits.map(\.number)
            if !all, zip(numbers, numbers.dropFirst()).contains(where: { $0 - $1 > 1 }) {
                Console.print("Numbers missing above are edits of other articles: edits are numbered across the library (narrate history --all lists every one).")
            }
        }
    }
}

/// One edit in `history --json` and `undo --json`.
struct EditJSON: Encodable {
    let number: Int
    let article: String
    let title: String?
    let kind: String
    let summary: String
    let madeAt: Date
    let undoneAt: Date?

    init(_ edit: Edit, title: String? = nil) {
        number = edit.number
        article = edit.article.rawValue
        self.title = title
        kind = edit.kind.rawValue
        summary = edit.summary
        madeAt = edit.madeAt
        undoneAt = edit.undoneAt
    }
}
