import ArgumentParser
import Narration
import NarrationCore

extension Narrate {
    /// `narrate chunks`: the article's chunks in order with their levels.
    struct Chunks: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the article's chunks in order, with duration, peak and RMS level.",
            discussion: "In an article with a text, each chunk shows the paragraph it reads (\"none\" for a chunk recorded before the text, or whose paragraph left it). A chunk marked \"recovered\" was adopted after an interrupted recording. One marked \"MISSING\", \"SHORT\", \"OTHER FORMAT\" or \"UNREADABLE\" has lost its file, or its file was cut short or replaced (read from each file's header and size); the others are unaffected.")

        @OptionGroup var target: ArticleOption
        @OptionGroup var output: JSONOption

        func run() async throws {
            // On a host of a reading service the article's chunks may be in the recordings store only.
            try await CommandRunner.bringChunksHome(of: target.article)
            try runHere()
        }

        func runHere() throws {
            let (article, entries, paragraphs) = try CommandRunner.withLibrary(readOnly: true) { library throws(NarrationError) in
                let article = try library.article(target.article)
                return (article, try library.chunkEntries(of: article), try library.records(of: article).paragraphs())
            }
            let numbers = Dictionary(uniqueKeysWithValues: paragraphs.map { ($0.id, $0.number) })
            let paragraph = { (chunk: Chunk) in chunk.paragraphID.flatMap { numbers[$0] } }
            for entry in entries {
                guard let problem = entry.problem else { continue }
                Console.error(
                    "Chunk \(entry.index)'s file \(entry.file.path) \(what(problem, chunk: entry.chunk, article: article)); the other chunks are usable. Delete it with \"narrate delete-chunk \(entry.index)\" or re-record it with \"narrate record --replace \(entry.index)\".")
            }
            if output.json {
                Console.printJSON(entries.map {
                    ChunkJSON(
                        $0.chunk, index: $0.index, file: $0.file, fileMissing: $0.fileMissing, fileProblem: $0.problem?.name,
                        paragraph: paragraph($0.chunk))
                })
                return
            }
            Console.print("\"\(article.title)\" (\(article.id)), \(article.format), \(article.state.rawValue)")
            guard !entries.isEmpty else {
                Console.print("No chunks yet. Record one with: narrate record")
                return
            }
            let scripted = !paragraphs.isEmpty
            Console.print("    #  duration      peak dBFS  RMS dBFS  overruns\(scripted ? "  paragraph" : "")")
            for entry in entries {
                let chunk = entry.chunk
                var marks: [String] = []
                if chunk.recovered { marks.append("recovered") }
                if let problem = entry.problem { marks.append(mark(problem, chunk: chunk)) }
                Console.print(
                    "\(Console.rightAligned(entry.index.number, 5))  \(Timecode.precise(chunk.duration))  \(Console.rightAligned(chunk.peak.formatted, 9))  \(Console.rightAligned(chunk.rms.formatted, 8))  \(Console.rightAligned(chunk.overruns, 8))\(scripted ? "  " + Console.rightAligned(paragraph(chunk).map(String.init) ?? "none", 9) : "")\(marks.isEmpty ? "" : "  " + marks.joined(separator: ", "))")
            }
            let frames = entries.reduce(0) { $0 + $1.chunk.frames }
            Console.print("\(entries.count) chunk\(entries.count == 1 ? "" : "s"), \(Timecode.precise(article.format.seconds(frames))) in all")
        }

        /// The listing's mark: "MISSING", "SHORT: 1.2 s of 3.0 s", "OTHER FORMAT: 48000 Hz, stereo, 16-bit".
        private func mark(_ problem: NarrationLibrary.FileProblem, chunk: Chunk) -> String {
            switch problem {
            case .missing: "MISSING"
            case .truncated(let frames): "SHORT: \(seconds(chunk.format.seconds(frames))) of \(seconds(chunk.duration))"
            case .otherFormat(let format): "OTHER FORMAT: \(format)"
            case .unreadable(let reason): "UNREADABLE: \(reason)"
            }
        }

        /// What the stderr line says of a file with `problem`: "is missing", "is cut short: …".
        private func what(_ problem: NarrationLibrary.FileProblem, chunk: Chunk, article: Article) -> String {
            switch problem {
            case .missing:
                "is missing"
            case .truncated(let frames):
                "is cut short: it holds \(Timecode.precise(article.format.seconds(frames))) of the \(Timecode.precise(chunk.duration)) recorded"
            case .otherFormat(let format):
                "holds audio of another format (\(format); the article is \(article.format))"
            case .unreadable(let reason):
                "cannot be read as one of its chunks (\(reason))"
            }
        }

        private func seconds(_ value: Double) -> String { String(format: "%.1f s", value) }

    }
}
