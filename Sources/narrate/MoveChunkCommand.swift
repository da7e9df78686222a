import ArgumentParser
import Narration
import NarrationCore

extension Narrate {
    /// `narrate move-chunk N --to M`.
    struct MoveChunk: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "move-chunk",
            abstract: "Move chunk N so that it becomes chunk M; the chunks between shift by one.",
            discussion: """
                  narrate move-chunk 5 --to 2     # 5 becomes 2; 2–4 become 3–5
                  narrate undo                    # puts it back
                """)

        @Argument(help: "The chunk to move, as \"narrate chunks\" shows it (1 is the first).")
        var index: Int

        @Option(parsing: .unconditional, help: ArgumentHelp("Where it goes: the index it will have.", valueName: "M"))
        var to: Int

        @OptionGroup var target: ArticleOption
        @OptionGroup var output: JSONOption

        func run() throws {
            let (article, withdrawn, count) = try CommandRunner.withLibrary { library throws(NarrationError) in
                let article = try library.article(target.article)
                let withdrawn = try library.moveChunk(at: ChunkIndex(index), to: ChunkIndex(to), of: article)
                return (article, withdrawn, try library.catalog.order(of: article.id).count)
            }
            if output.json {
                Console.printJSON(MovedJSON(moved: index, to: to, chunks: count, withdrawnExport: withdrawn.map { "\($0)" }))
                return
            }
            Console.print(index == to ? "Chunk \(index) stays where it is." : "Moved chunk \(index) of \"\(article.title)\" to \(to).")
            if let withdrawn { Console.error(WithdrawnExport.sentence(withdrawn, title: article.title)) }
        }
    }
}

/// What `move-chunk --json` prints.
private struct MovedJSON: Encodable {
    let moved: Int
    let to: Int
    let chunks: Int
    let withdrawnExport: String?
}
