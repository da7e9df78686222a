import ArgumentParser
import Narration
import NarrationCore

extension Narrate {
    /// `narrate chunks`: the article's chunks in order with their levels.
    struct Chunks: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the article's chunks in order, with duration, peak and RMS level.",
            discussion: "A chunk marked \"recovered\" was adopted after an interrupted recording; one marked \"MISSING\" has lost its file (the others are unaffected).")

        @OptionGroup var target: ArticleOption
        @OptionGroup var output: JSONOption

        func run() throws {
            let (article, entries) = try CommandRunner.withLibrary(readOnly: true) { library throws(NarrationError) in
                let article = try library.article(target.article)
                return (article, try library.chunkEntries(of: article))
            }
            for entry in entries where entry.fileMissing {
                Console.error("Chunk \(entry.index)'s file \(entry.file.path) is missing; the other chunks are usable. Delete it with \"narrate delete-chunk \(entry.index)\" or re-record it with \"narrate record --replace \(entry.index)\".")
            }
            if output.json {
                Console.printJSON(entries.map { ChunkJSON($0.chunk, index: $0.index, file: $0.file, fileMissing: $0.fileMissing) })
                return
            }
            Console.print("\"\(article.title)\" (\(article.id)), \(article.format)")
            guard !entries.isEmpty else {
                Console.print("No chunks yet. Record one with: narrate record")
                return
            }
            Console.print("    #  duration      peak dBFS  RMS dBFS  overruns")
            for entry in entries {
                let chunk = entry.chunk
                var marks: [String] = []
                if chunk.recovered { marks.append("recovered") }
                if entry.fileMissing { marks.append("MISSING") }
                Console.print(
                    "\(pad(entry.index.number, 5))  \(Timecode.precise(chunk.duration))  \(pad(chunk.peak.formatted, 9))  \(pad(chunk.rms.formatted, 8))  \(pad(chunk.overruns, 8))\(marks.isEmpty ? "" : "  " + marks.joined(separator: ", "))")
            }
            let frames = entries.reduce(0) { $0 + $1.chunk.frames }
            Console.print("\(entries.count) chunk\(entries.count == 1 ? "" : "s"), \(Timecode.precise(article.format.seconds(frames))) in all")
        }

        private func pad(_ value: some CustomStringConvertible, _ width: Int) -> String {
            let text = value.description
            return String(repeating: " ", count: max(0, width - text.count)) + text
        }
    }
}
