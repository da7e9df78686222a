import ArgumentParser
import Foundation
import Narration
import NarrationCore

extension Narrate {
    /// `narrate prune`: free the space of delivered articles' recordings.
    struct Prune: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove the chunk recordings of articles whose delivery is confirmed, to free space.",
            discussion: """
                Only an article whose current export was delivered (state "delivered" in \
                "narrate list") can be pruned, only if nothing changed since that export, and \
                only once the delivered file is found at its destination with the right size \
                and SHA-256 (a folder's copy is read back; an object's size, ETag and SHA-256 \
                are asked of the storage). The article, its exported file in the outbox and its \
                delivery record stay; its chunks cannot be played or re-exported afterwards.

                  narrate prune --article k3v9 --dry-run   # what would go
                  narrate prune --all                      # every delivered article
                """)

        @Option(help: ArgumentHelp("The article to prune (its id, or the start of it).", valueName: "ID"))
        var article: String?

        @Flag(help: "Prune every article whose delivery is confirmed.")
        var all = false

        @Flag(name: .customLong("dry-run"), help: "Say what would be removed; remove nothing.")
        var dryRun = false

        @OptionGroup var output: JSONOption

        func validate() throws {
            guard (article != nil) != all else {
                throw ValidationError("Say what to prune: --article ID for one article, or --all for every delivered one.")
            }
        }

        func run() async throws {
            // With --all, an article whose delivery cannot be confirmed is reported and the rest go on.
            let (results, refusals) = try await CommandRunner.withLibrary {
                (library) async throws(NarrationError) -> ([PruneResult], [String]) in
                guard all else { return ([try await library.prune(try library.article(article), dryRun: dryRun)], []) }
                var results: [PruneResult] = []
                var refusals: [String] = []
                for article in try library.prunableArticles() {
                    do throws(NarrationError) {
                        results.append(try await library.prune(article, dryRun: dryRun))
                    } catch {
                        refusals.append(error.sentence)
                    }
                }
                return (results, refusals)
            }
            for refusal in refusals { Console.error(refusal) }
            report(results)
            if !refusals.isEmpty { throw ExitCode.failure }
        }

        private func report(_ results: [PruneResult]) {
            if output.json {
                Console.printJSON(results.map {
                    PruneJSON(articleId: $0.article.rawValue, chunks: $0.chunks, bytes: $0.bytes, deliveredTo: $0.deliveredTo, dryRun: dryRun)
                })
                return
            }
            guard !results.isEmpty else {
                Console.print("Nothing to prune: no article has a confirmed delivery with recordings left.")
                return
            }
            let verb = dryRun ? "Would remove" : "Removed"
            for result in results {
                Console.print(
                    "\(verb) \(result.chunks) chunk\(result.chunks == 1 ? "" : "s") of \(result.article) (\(Self.mebibytes(result.bytes))); delivered to \(result.deliveredTo).")
            }
        }

        static func mebibytes(_ bytes: Int) -> String { String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
    }

    private struct PruneJSON: Encodable {
        let articleId: String
        let chunks: Int
        let bytes: Int
        let deliveredTo: String
        let dryRun: Bool
    }
}
