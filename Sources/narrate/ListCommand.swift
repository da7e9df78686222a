import ArgumentParser
import Narration
import NarrationCore

extension Narrate {
    /// `narrate list`: the articles, newest first, the current one marked.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the articles, newest first; * marks the current one.",
            discussion: """
                Each article's state: open (being narrated), queued (its export waits in the \
                outbox), delivered (that export was delivered and checked), pruned (delivered, \
                its recordings removed). Any change to its chunks makes it open again. --json \
                adds, per destination, the file the article has there.
                """)

        @OptionGroup var output: JSONOption

        func run() throws {
            let (articles, totals, current, deliveries) = try CommandRunner.withLibrary(readOnly: true) { library throws(NarrationError) in
                (try library.records.articles(), try library.records.chunkTotals(), try library.records.currentArticle()?.id, try library.deliveries())
            }
            if output.json {
                Console.printJSON(articles.map {
                    var json = ArticleJSON($0, chunks: totals[$0.id]?.chunks ?? 0, frames: totals[$0.id]?.frames ?? 0, current: $0.id == current)
                    json.deliveries = deliveries[$0.id, default: []].map(DeliveryJSON.init)
                    return json
                })
                return
            }
            guard !articles.isEmpty else {
                Console.print("No articles yet. Start one with: narrate new \"TITLE\"")
                return
            }
            for article in articles {
                let total = totals[article.id] ?? (0, 0)
                let mark = article.id == current ? "*" : " "
                let source = [article.publication, article.narrator].filter { !$0.isEmpty }.joined(separator: ", ")
                Console.print(
                    "\(mark) \(article.id)  \(Timecode.clock(article.format.seconds(total.frames)))  \(total.chunks) chunk\(total.chunks == 1 ? "" : "s")  \(article.state.rawValue)  \"\(article.title)\"\(source.isEmpty ? "" : "  (\(source))")")
            }
        }
    }
}
