import ArgumentParser
import Narration
import NarrationCore

extension Narrate {
    /// `narrate trim N`: cuts a chunk's edges.
    struct Trim: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Cut the start or end of chunk N: by time, or the silence at its edges with --auto.",
            discussion: """
                Times are into the chunk, as narrate play shows them: seconds (2.5) or \
                HH:MM:SS.mmm. The trimmed chunk is a new file; the old one goes to the article's \
                trash, and narrate undo brings it back.

                  narrate trim 3 --start 1.2          # the chunk now starts 1.2 s in
                  narrate trim 3 --end 0:14.5         # and ends at 14.5 s
                  narrate trim 3 --auto               # cut the silence at both edges

                --auto finds the first and last sound at least 10 dB above the article's noise \
                floor (its quietest half second, as narrate check measures it) and keeps 0.25 s \
                before and after.
                """)

        @Argument(help: "The chunk to trim, as \"narrate chunks\" shows it (1 is the first).")
        var index: Int

        @Option(parsing: .unconditional, help: ArgumentHelp("Where the chunk will start, into it.", valueName: "TIME"))
        var start: TimeArgument?

        @Option(parsing: .unconditional, help: ArgumentHelp("Where the chunk will end, into it.", valueName: "TIME"))
        var end: TimeArgument?

        @Flag(help: "Cut the silence at the chunk's edges, keeping 0.25 s.")
        var auto = false

        @OptionGroup var target: ArticleOption
        @OptionGroup var output: JSONOption

        func validate() throws {
            _ = try start?.checked("--start")
            _ = try end?.checked("--end")
            if auto, start != nil || end != nil {
                throw ValidationError("--auto finds both edges itself; give either --auto or --start/--end.")
            }
            if !auto, start == nil, end == nil {
                throw ValidationError("Say what to cut: --start TIME, --end TIME, or --auto (silence at the edges).")
            }
        }

        func run() async throws {
            // On a host of a reading service the article's chunks may be in the recordings store only.
            try await CommandRunner.bringChunksHome(of: target.article)
            try runHere()
        }

        func runHere() throws {
            let (article, result) = try CommandRunner.withLibrary { library throws(NarrationError) in
                let bounds: TrimBounds = auto ? .automatic : .times(start: try start?.checkedAsUsage("--start"), end: try end?.checkedAsUsage("--end"))
                let article = try library.article(target.article)
                return (article, try library.trim(chunkAt: ChunkIndex(index), of: article, bounds))
            }
            let format = article.format
            if output.json {
                Console.printJSON(TrimJSON(
                    chunk: index, trimmed: result != nil, frames: result?.chunk.frames,
                    cutAtStartSeconds: result.map { format.seconds($0.cutAtStart) } ?? 0, cutAtEndSeconds: result.map { format.seconds($0.cutAtEnd) } ?? 0,
                    noiseFloorDBFS: result?.noiseFloor?.value, withdrawnExport: result?.withdrawn.map { "\($0)" }))
                return
            }
            guard let result else {
                Console.print("Nothing to cut: chunk \(index) already \(auto ? "starts and ends within 0.25 s of its sound" : "has those bounds").")
                return
            }
            Console.print("Trimmed chunk \(index): cut \(Timecode.precise(format.seconds(result.cutAtStart))) at the start and \(Timecode.precise(format.seconds(result.cutAtEnd))) at the end; \(Timecode.precise(result.chunk.duration)) left. narrate undo brings the old take back.")
            if let withdrawn = result.withdrawn { Console.error(WithdrawnExport.sentence(withdrawn, title: article.title)) }
        }
    }
}

/// What `trim --json` prints.
private struct TrimJSON: Encodable {
    let chunk: Int
    let trimmed: Bool
    let frames: Int?
    let cutAtStartSeconds: Double
    let cutAtEndSeconds: Double
    let noiseFloorDBFS: Double?
    let withdrawnExport: String?
}
