import ArgumentParser
import Narration
import NarrationCore

extension Narrate {
    /// `narrate delete-chunk N`: removes a chunk; its file is kept in the article's trash.
    struct DeleteChunk: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete-chunk",
            abstract: "Delete chunk N; the chunks after it move up. Its file is kept in the article's trash folder.")

        @Argument(help: "The chunk's index, as \"narrate chunks\" shows it (1 is the first).")
        var index: Int

        @OptionGroup var target: ArticleOption
        @OptionGroup var output: JSONOption

        func run() throws {
            let (article, removed, left) = try CommandRunner.withLibrary { library throws(NarrationError) in
                let article = try library.article(target.article)
                let removed = try library.deleteChunk(at: ChunkIndex(index), of: article)
                return (article, removed, try library.records(of: article).chunkCount())
            }
            if output.json {
                Console.printJSON(DeletedJSON(deleted: index, remaining: left, withdrawnExport: removed.withdrawn.map { "\($0)" }))
            } else {
                Console.print("Deleted chunk \(index) of \"\(article.title)\" (\(Timecode.precise(removed.chunk.duration))); \(left) chunk\(left == 1 ? "" : "s") left.")
                if let withdrawn = removed.withdrawn { Console.error(WithdrawnExport.sentence(withdrawn, title: article.title)) }
            }
        }
    }
}

/// What `delete-chunk --json` prints.
private struct DeletedJSON: Encodable {
    let deleted: Int
    let remaining: Int
    /// "queued" or "delivered": the article's export the deletion withdrew; nil if it had none.
    let withdrawnExport: String?
}
