import ArgumentParser
import Narration
import NarrationCore

extension Narrate {
    /// `narrate delete-article ID`.
    struct DeleteArticle: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete-article",
            abstract: "Move an article to the trash: it leaves narrate list; narrate undo brings it back.",
            discussion: """
                Its chunks and files stay where they are until it is brought back. An article \
                whose export waits in the outbox, not delivered yet, is not deleted unless you \
                give --force (which withdraws that export; undo does not queue it again).

                  narrate delete-article k3v9
                  narrate undo                # it is back, and current
                """)

        @Argument(help: "The article's id, or the start of it (see narrate list).")
        var id: String

        @Flag(help: "Delete it even though its export waits in the outbox undelivered (the export is withdrawn).")
        var force = false

        @OptionGroup var output: JSONOption

        func run() throws {
            let (article, withdrawn, chunks) = try CommandRunner.withLibrary { library throws(NarrationError) in
                let article = try library.article(id)
                let chunks = try library.records(of: article).chunkCount()
                return (article, try library.deleteArticle(article, force: force), chunks)
            }
            if output.json {
                Console.printJSON(DeletedArticleJSON(deleted: article.id.rawValue, title: article.title, chunks: chunks, withdrawnExport: withdrawn.map { "\($0)" }))
                return
            }
            Console.print("Moved \"\(article.title)\" (\(chunks) chunk\(chunks == 1 ? "" : "s")) to the trash; narrate undo brings it back.")
            if let withdrawn { Console.error(WithdrawnExport.sentence(withdrawn, title: article.title)) }
        }
    }
}

/// What `delete-article --json` prints.
private struct DeletedArticleJSON: Encodable {
    let deleted: String
    let title: String
    let chunks: Int
    let withdrawnExport: String?
}
