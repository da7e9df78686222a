import ArgumentParser
import Narration
import NarrationCore

extension Narrate {
    /// `narrate list`: the articles, newest first, the current one marked.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the articles, newest first; * marks the current one.")

        @OptionGroup var output: JSONOption

        func run() throws {
            let (articles, totals, current) = try CommandRunner.withLibrary { library throws(NarrationError) in
                (try library.catalog.articles(), try library.catalog.chunkTotals(), try library.catalog.currentArticle()?.id)
            }
            if output.json {
                Console.printJSON(articles.map {
                    ArticleJSON($0, chunks: totals[$0.id]?.chunks ?? 0, frames: totals[$0.id]?.frames ?? 0, current: $0.id == current)
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
