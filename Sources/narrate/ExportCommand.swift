import ArgumentParser
import Foundation
import Narration
import NarrationCore

/// `--format` on the command line.
enum ExportFormatArgument: String, ExpressibleByArgument, CaseIterable {
    case mp3, wav, flac

    var format: ExportFormat { ExportFormat(rawValue: rawValue)! }
}

extension Narrate {
    /// `narrate export -o PATH`: one tagged file of the whole article.
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Export the article's chunks as one tagged file (MP3, WAV or FLAC).",
            discussion: """
                The chunks are joined without gaps. MP3 is encoded as one stream with LAME's info \
                tag, so players return exactly the recorded samples, and carries an ID3v2.4 tag \
                (title, narrator, publication, date, article id) with one chapter per chunk. WAV \
                and FLAC hold the chunks' samples unchanged, with RIFF INFO or Vorbis comment tags. \
                The file appears only when complete.

                  narrate export -o budget.mp3 --bitrate 64
                  narrate export -o budget.flac
                """)

        @OptionGroup var target: ArticleOption

        @Option(name: .shortAndLong, help: ArgumentHelp("The file to write (replaced if it exists).", valueName: "PATH"))
        var output: String

        @Option(help: ArgumentHelp("mp3, wav or flac (default: from the file's extension, else flac).", valueName: "FORMAT"))
        var format: ExportFormatArgument?

        @Option(help: ArgumentHelp("MP3 constant bitrate in kbit/s (default 128).", valueName: "KBPS"))
        var bitrate: Int?

        @Option(help: ArgumentHelp("MP3 variable bitrate quality, 0 (best) to 9, instead of --bitrate.", valueName: "Q"))
        var vbr: Int?

        @Option(help: ArgumentHelp(
            "A delivery profile: archive (FLAC, untouched), librivox, acx, podcast or one of config.toml's. It sets the mastering, and the format and bitrate unless --format, the file's extension or --bitrate say otherwise. Without it the samples are untouched.",
            valueName: "NAME"))
        var profile: String?

        @Flag(name: .customLong("no-chapters"), help: "Leave out the chapter per chunk.")
        var noChapters = false

        @OptionGroup var json: JSONOption

        func validate() throws {
            if bitrate != nil && vbr != nil { throw ValidationError("Use --bitrate or --vbr, not both.") }
        }

        func resolvedFormat(_ profile: DeliveryProfile?) -> ExportFormat {
            format?.format ?? ExportFormat(rawValue: URL(fileURLWithPath: output).pathExtension.lowercased()) ?? profile?.format ?? .flac
        }

        func run() throws {
            let configured = try CommandRunner.settings()
            var chosenProfile: DeliveryProfile?
            if let profile {
                do { chosenProfile = try configured.deliveryProfile(named: profile) } catch {
                    Console.error(error.sentence)
                    throw ExitCode(error.exitStatus)
                }
            }
            let resolvedFormat = resolvedFormat(chosenProfile)
            if (bitrate != nil || vbr != nil) && resolvedFormat != .mp3 {
                Console.error("--bitrate and --vbr apply to MP3 only; this export is \(resolvedFormat.rawValue).")
                throw ExitCode(64)
            }
            let encoding: MP3Encoding = vbr.map { .variable(quality: $0) }
                ?? bitrate.map { .constant(kbps: $0) } ?? chosenProfile?.mp3 ?? .constant(kbps: 128)
            let settings = ExportSettings(
                format: resolvedFormat, mp3: encoding, chapters: !noChapters, mastering: chosenProfile?.mastering ?? Mastering())
            let destination = URL(fileURLWithPath: output).standardizedFileURL
            let bar = ProgressBar(label: "Exporting")
            let result = try CommandRunner.withLibrary(readOnly: true) { (library) throws(NarrationError) -> ExportResult in
                let article = try library.article(target.article)
                return try library.export(article, to: destination, settings: settings) { done, total in
                    bar.update(done: done, total: total)
                }
            }
            bar.finish()
            let seconds = result.plan.format.seconds(result.frames)
            if json.json {
                Console.printJSON(ExportJSON(
                    file: result.file.path, format: settings.format.rawValue, frames: result.frames, duration: seconds,
                    bytes: result.bytes, chapters: settings.chapters ? result.plan.chapters.count : 0))
            } else {
                Console.print("Exported \"\(result.plan.tags.title)\" to \(result.file.path): \(Timecode.precise(seconds)), \(result.plan.chapters.count) chunk\(result.plan.chapters.count == 1 ? "" : "s"), \(result.bytes / 1024) KiB.")
            }
        }
    }
}

struct ExportJSON: Encodable {
    let file: String
    let format: String
    let frames: Int
    let duration: Double
    let bytes: Int
    let chapters: Int
}
