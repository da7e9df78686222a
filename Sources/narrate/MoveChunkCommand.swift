import ArgumentParser
import Narration
import NarrationCore

extension Narrate {
    /// `narrate move-chunk N --to M`.
    struct MoveChunk: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "move-chunk",
            abstract: "Move chunk N so that it becomes chunk M, or put it on paragraph P of the text.",
            discussion: """
                --to M moves the chunk in the article's order; the chunks between shift by one.

                  narrate move-chunk 5 --to 2     # 5 becomes 2; 2–4 become 3–5
                  narrate undo                    # puts it back

                --to-paragraph P moves the take to another paragraph: the chunk reads paragraph P \
                from now on, and goes after P's other chunks (or, if P has none, where P's first \
                reading would go), since chunks follow the text's order. Use it when the take check \
                says a take "sounds like paragraph P", or when a take was recorded for the wrong \
                paragraph. Its check is made again against P. It is a move like --to, so it is \
                spelled the same way, and narrate undo puts it back.

                  narrate move-chunk 4 --to-paragraph 5
                """)

        @Argument(help: "The chunk to move, as \"narrate chunks\" shows it (1 is the first).")
        var index: Int

        @Option(parsing: .unconditional, help: ArgumentHelp("Where it goes: the index it will have.", valueName: "M"))
        var to: Int?

        @Option(
            name: .customLong("to-paragraph"), parsing: .unconditional,
            help: ArgumentHelp("Put the take on paragraph P of the text instead, among P's chunks.", valueName: "P"))
        var toParagraph: Int?

        @OptionGroup var target: ArticleOption
        @OptionGroup var output: JSONOption

        func validate() throws {
            switch (to, toParagraph) {
            case (nil, nil): throw ValidationError("Say where chunk \(index) goes: --to M (its new place) or --to-paragraph P (the paragraph it reads).")
            case (.some, .some): throw ValidationError("Use --to or --to-paragraph, not both.")
            default: break
            }
            if let toParagraph, toParagraph < 1 {
                throw ValidationError("--to-paragraph \(toParagraph) is not a paragraph: paragraphs are numbered from 1 (see \"narrate script\").")
            }
        }

        func run() throws {
            if let toParagraph { return try rebind(to: toParagraph) }
            let to = self.to ?? index
            let (article, withdrawn, count) = try CommandRunner.withLibrary { library throws(NarrationError) in
                let article = try library.article(target.article)
                let withdrawn = try library.moveChunk(at: ChunkIndex(index), to: ChunkIndex(to), of: article)
                return (article, withdrawn, try library.records(of: article).chunkCount())
            }
            if output.json {
                Console.printJSON(MovedJSON(moved: index, to: to, chunks: count, withdrawnExport: withdrawn.map { "\($0)" }))
                return
            }
            Console.print(index == to ? "Chunk \(index) stays where it is." : "Moved chunk \(index) of \"\(article.title)\" to \(to).")
            if let withdrawn { Console.error(WithdrawnExport.sentence(withdrawn, title: article.title)) }
        }

        private func rebind(to paragraph: Int) throws {
            let (article, result) = try CommandRunner.withLibrary { library throws(NarrationError) in
                let article = try library.article(target.article)
                return (article, try library.rebindChunk(at: ChunkIndex(index), toParagraph: paragraph, of: article))
            }
            if output.json {
                Console.printJSON(ReboundJSON(
                    moved: index, to: result.to.number, paragraph: paragraph, fromParagraph: result.oldParagraph,
                    withdrawnExport: result.withdrawn.map { "\($0)" }))
                return
            }
            let place = result.to == result.from ? "" : "; it is chunk \(result.to.number) now"
            Console.print("Chunk \(index) of \"\(article.title)\" reads paragraph \(paragraph)\(place). \"narrate undo\" puts it back.")
            if let withdrawn = result.withdrawn { Console.error(WithdrawnExport.sentence(withdrawn, title: article.title)) }
        }
    }
}

/// What `move-chunk --to-paragraph --json` prints.
private struct ReboundJSON: Encodable {
    let moved: Int
    /// The chunk's index now.
    let to: Int
    let paragraph: Int
    /// The paragraph it read before; nil for none.
    let fromParagraph: Int?
    let withdrawnExport: String?
}

/// What `move-chunk --json` prints.
private struct MovedJSON: Encodable {
    let moved: Int
    let to: Int
    let chunks: Int
    let withdrawnExport: String?
}
