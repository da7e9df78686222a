import ArgumentParser
import Narration
import NarrationCore

extension Narrate {
    /// `narrate undo`: reverses the last edit.
    struct Undo: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Take back the last edit: a take recorded, a chunk deleted, re-recorded, inserted, punched, moved or trimmed, the details changed, or an article deleted.",
            discussion: """
                Each undo goes one edit further back; narrate history lists them. Chunks come back \
                from the article's trash exactly as they were, and chunks the edit added go there, \
                so nothing is lost either way. Without --article, undo takes back the last edit of \
                the current article or the last article deleted, whichever came later.

                  narrate delete-chunk 3
                  narrate undo              # chunk 3 is back
                  narrate delete-article k3v9
                  narrate undo              # the article is back, and current

                A new text (narrate script FILE) cannot be undone: attach the old text again.
                """)

        @OptionGroup var target: ArticleOption
        @OptionGroup var output: JSONOption

        func run() async throws {
            // On a host of a reading service the article's chunks may be in the recordings store only.
            try await CommandRunner.bringChunksHome(of: target.article)
            try runHere()
        }

        func runHere() throws {
            let (undone, article, chunks) = try CommandRunner.withLibrary { library throws(NarrationError) in
                let scope: UndoScope
                if let id = target.article {
                    scope = .article(try library.article(id).id)
                } else {
                    scope = .latest(current: try library.records.currentArticle()?.id)
                }
                let undone = try library.undo(scope)
                let article = try library.article(undone.edit.article.rawValue)
                return (undone, article, try library.records(of: article).chunks())
            }
            let frames = chunks.reduce(0) { $0 + $1.frames }
            if output.json {
                Console.printJSON(UndoJSON(
                    undone: EditJSON(undone.edit), article: article.id.rawValue, chunks: chunks.count, frames: frames,
                    restoredChunks: undone.restored.count, removedChunks: undone.removed.count, withdrawnExport: undone.withdrawn.map { "\($0)" }))
                return
            }
            Console.print("Undone: \(undone.edit.summary)")
            let length = Timecode.precise(article.format.seconds(frames))
            Console.print("\"\(article.title)\" now has \(chunks.count) chunk\(chunks.count == 1 ? "" : "s") (\(length)).")
            if let withdrawn = undone.withdrawn { Console.error(WithdrawnExport.sentence(withdrawn, title: article.title)) }
        }
    }
}

/// What `undo --json` prints.
private struct UndoJSON: Encodable {
    let undone: EditJSON
    let article: String
    let chunks: Int
    let frames: Int
    let restoredChunks: Int
    let removedChunks: Int
    let withdrawnExport: String?
}
