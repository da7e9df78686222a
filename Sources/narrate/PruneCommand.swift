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

                On a host of a reading service (config.toml's [service] catalog and \
                recordings), --cached-chunks frees this host's disk instead: of the articles \
                Published, Expired or Withdrawn on the desk, it removes the chunk files whose \
                copy in the recordings store is recorded and, as the store says now, the same \
                bytes. Nothing is lost: the pages, the service's jobs and the commands that \
                read an article's audio (export, play, queue, submit, check, chunks, trim, \
                undo, review approve, desk send) bring a chunk home again when they need it. \
                Articles still in work are left whole.

                  narrate prune --cached-chunks --dry-run
                """)

        @Option(help: ArgumentHelp("The article to prune (its id, or the start of it).", valueName: "ID"))
        var article: String?

        @Flag(help: "Prune every article whose delivery is confirmed.")
        var all = false

        @Flag(name: .customLong("cached-chunks"), help: "On a host of a reading service: remove the finished articles' chunk files the recordings store holds a checked copy of.")
        var cachedChunks = false

        @Flag(name: .customLong("dry-run"), help: "Say what would be removed; remove nothing.")
        var dryRun = false

        @OptionGroup var output: JSONOption

        func validate() throws {
            guard [article != nil, all, cachedChunks].filter({ $0 }).count == 1 else {
                throw ValidationError(
                    "Say what to prune: --article ID for one article, --all for every delivered one, or --cached-chunks for this host's copies of the recordings store's chunks.")
            }
        }

        func run() async throws {
            if cachedChunks { return try await trimCache() }
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

        /// `--cached-chunks`: this host's chunk files whose copies the recordings store holds, removed.
        private func trimCache() async throws {
            let trim = try await CommandRunner.withLibrary { (library) async throws(NarrationError) -> ChunkCacheTrim in
                try await CommandRunner.withRecordings(library) { (recordings) async throws(NarrationError) in
                    guard let recordings else {
                        throw NarrationError.usage(
                            "--cached-chunks is for a host of a reading service, and config.toml's [service] names no catalog and recordings store: this data folder holds the only copy of its chunks. To free space, prune delivered articles with --all.")
                    }
                    return try await library.trimChunkCache(keeping: recordings, dryRun: dryRun)
                }
            }
            if output.json {
                Console.printJSON(CacheTrimJSON(files: trim.files, bytes: trim.bytes, articlesLeft: trim.articlesLeft, kept: trim.kept, dryRun: dryRun))
                return
            }
            let files = "\(trim.files) chunk file\(trim.files == 1 ? "" : "s") (\(Self.mebibytes(trim.bytes)))"
            var line = dryRun
                ? "Would remove \(files) whose copies the recordings store holds."
                : "Removed \(files) whose copies the recordings store holds; each comes back from the store when it is needed."
            if trim.kept > 0 { line += " Kept \(trim.kept) whose copy in the store is missing, different or not recorded yet." }
            if trim.articlesLeft > 0 {
                line += " Left \(trim.articlesLeft) article\(trim.articlesLeft == 1 ? "" : "s") whole: still in work (not Published, Expired or Withdrawn on the desk) or in use."
            }
            Console.print(line)
        }

        /// What `--cached-chunks --json` prints.
        struct CacheTrimJSON: Encodable {
            let files: Int
            let bytes: Int
            let articlesLeft: Int
            let kept: Int
            let dryRun: Bool
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
