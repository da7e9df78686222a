import ArgumentParser
import Foundation
import Narration
import NarrationCore

extension Narrate {
    /// `narrate import FILE...`: audio files added to the end of the article, each one chunk.
    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add audio files to the end of the article, each file one chunk, converted to the article's format.",
            discussion: """
                Reads anything libsndfile reads: WAV, FLAC, Ogg Vorbis and Opus, MP3, AIFF and more. \
                Each file becomes one chunk, in the order given, converted to the article's format: \
                the sample rate by libsoxr, stereo to mono as the mean of the two channels, mono to \
                stereo on both sides, three channels or more as their mean; samples are rounded to \
                the article's 16 or 24 bits, and anything beyond full scale is held at full scale. \
                All files are added or none: if one cannot be read, nothing is added and the error \
                names it. The chunks read no paragraph of the article's text.

                  narrate import intro.mp3 interview.wav outro.ogg
                  narrate import --article k3v9 reading.flac
                """)

        @Argument(help: ArgumentHelp("The audio files, added in this order.", valueName: "FILE"))
        var files: [String]

        @OptionGroup var target: ArticleOption
        @OptionGroup var output: JSONOption

        func run() async throws {
            let sources = files.map { URL(fileURLWithPath: $0).standardizedFileURL }
            var bar: (number: Int, bar: ProgressBar)?
            let result = try await CommandRunner.withLibrary { (library) async throws(NarrationError) -> ImportResult in
                defer { bar?.bar.finish() }
                let article = try library.article(target.article)
                let result = try library.importAudio(sources, into: article) { step in
                    if bar?.number != step.number {
                        bar?.bar.finish()
                        let which = step.count == 1 ? "" : " (\(step.number) of \(step.count))"
                        bar = (step.number, ProgressBar(label: "Importing \(step.source.lastPathComponent)\(which)", stage: "import"))
                    }
                    bar?.bar.update(done: step.done, total: step.total)
                }
                // On a host of a reading service the new chunks go to its recordings store now,
                // rather than at the server's next round: none is only on this host for long.
                try await CommandRunner.copyToRecordings(library)
                return result
            }
            if output.json {
                Console.printJSON(ImportJSON(result))
            } else {
                report(result)
            }
        }

        private func report(_ result: ImportResult) {
            let article = result.article
            let count = result.files.count
            let first = result.files[0].index
            let chunks = count == 1 ? "chunk \(first)" : "chunks \(first)–\(result.files[count - 1].index)"
            let total = Timecode.tenths(article.format.seconds(result.frames))
            Console.print("Imported \(count) file\(count == 1 ? "" : "s") into \"\(article.title)\" as \(chunks) (\(total)).")
            let width = String(result.files[count - 1].index.number).count
            for (given, file) in zip(files, result.files) {
                let from = "\(file.sourceEncoding), \(file.sourceFormat.sampleRate) Hz, \(Self.channels(file.sourceFormat.channels))"
                let to = "\(article.format.sampleRate) Hz, \(Self.channels(article.format.channels)), \(article.format.bitsPerSample)-bit"
                Console.print(
                    "  \(Console.rightAligned(file.index, width))  \(given): \(from) → \(to); \(Timecode.tenths(file.chunk.duration)), peak \(file.chunk.peak)")
            }
            if let withdrawn = result.withdrawn { Console.error(WithdrawnExport.sentence(withdrawn, title: article.title)) }
        }

        static func channels(_ count: Int) -> String {
            count == 1 ? "mono" : count == 2 ? "stereo" : "\(count) channels"
        }
    }
}

/// What `import --json` prints.
private struct ImportJSON: Encodable {
    let article: String
    let title: String
    let chunks: [ImportedChunkJSON]
    let frames: Int
    let duration: Double
    /// "queued" or "delivered": the article's export the import withdrew; nil if it had none.
    let withdrawnExport: String?

    init(_ result: ImportResult) {
        article = result.article.id.rawValue
        title = result.article.title
        chunks = result.files.map(ImportedChunkJSON.init)
        frames = result.frames
        duration = result.article.format.seconds(result.frames)
        withdrawnExport = result.withdrawn.map { "\($0)" }
    }
}

/// One imported file's chunk: the chunk's keys as `chunks --json` names them, and its source.
private struct ImportedChunkJSON: Encodable {
    let index: Int
    let id: String
    let file: String
    let frames: Int
    let duration: Double
    let sampleRate: Int
    let channels: Int
    let bitsPerSample: Int
    let peakDBFS: Double
    let rmsDBFS: Double
    let recovered: Bool
    let recordedAt: Date
    let source: Source

    struct Source: Encodable {
        let path: String
        /// "MP3", "WAV 16-bit", "Ogg Vorbis", …
        let encoding: String
        let sampleRate: Int
        let channels: Int
        /// The frames decoded from the file, at its own rate.
        let frames: Int
    }

    init(_ file: ImportedFile) {
        index = file.index.number
        id = file.chunk.id.rawValue
        self.file = file.file.path
        frames = file.chunk.frames
        duration = file.chunk.duration
        sampleRate = file.chunk.format.sampleRate
        channels = file.chunk.format.channels
        bitsPerSample = file.chunk.format.bitsPerSample
        peakDBFS = file.chunk.peak.value
        rmsDBFS = file.chunk.rms.value
        recovered = file.chunk.recovered
        recordedAt = file.chunk.recordedAt
        source = Source(
            path: file.source.path, encoding: file.sourceEncoding, sampleRate: file.sourceFormat.sampleRate,
            channels: file.sourceFormat.channels, frames: file.sourceFrames)
    }
}
