import ArgumentParser
import Foundation
import Narration
import NarrationCore

/// `--format` on the command line: an audio file, or a book with the text and its audio.
enum ExportFormatArgument: String, ExpressibleByArgument, CaseIterable {
    case mp3, wav, flac, ogg, opus, epub, daisy

    /// The audio format; nil for a book.
    var format: ExportFormat? { ExportFormat(rawValue: rawValue) }
    /// The book format; nil for an audio file.
    var book: BookFormat? { BookFormat(rawValue: rawValue) }
}

extension Narrate {
    /// `narrate export -o PATH`: one tagged file of the whole article, or of chunks N…M.
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Export the article's chunks as one tagged file (MP3, WAV, FLAC, Ogg Vorbis or Ogg Opus), or as an EPUB or DAISY book.",
            discussion: """
                The chunks are joined without gaps; the file's ending (.mp3, .wav, .flac, .ogg, \
                .opus) says the format, and --format must agree with it. MP3 is encoded as one \
                stream with LAME's info tag, so players return exactly the recorded samples, and \
                carries an ID3v2.4 tag (title, narrator, publication, date, article id) with \
                chapters, one per chunk. FLAC holds the chunks' samples unchanged, with Vorbis \
                comment tags and the same chapters (CHAPTER001=00:00:00.000, CHAPTER001NAME=…). \
                Ogg Opus is the small file for phones: speech at 32 kbit/s mono, 48 stereo \
                (--bitrate 6 to 256), converted to Opus's 48 kHz, with the same tags and chapters \
                as FLAC. WAV holds the samples unchanged with RIFF INFO tags and no chapters; Ogg \
                Vorbis (quality 3) is tagged with Vorbis comments, without chapters. The file \
                appears only when complete.

                  narrate export -o budget.mp3 --bitrate 64
                  narrate export -o budget.flac                      # lossless, with chapters
                  narrate export -o budget.opus                      # small, with chapters
                  narrate export -o budget.opus --profile mobile     # at podcast loudness
                  narrate export -o budget.wav --profile telephone   # 8 kHz mono, phone lines

                --from and --to export only chunks N to M (either may be left out): the file, its \
                chapters, tags and transcript start at 0 at chunk N. queue and submit always send \
                the whole article.

                  narrate export -o part2.flac --from 4 --to 7
                  narrate export -o ending.mp3 --from 12

                In an article with a text (narrate script FILE), an MP3, FLAC or Opus file has instead one \
                chapter per paragraph, titled by its heading or its first words (--chapters \
                sections: one per heading and the paragraphs under it; --chapters chunks: one per \
                chunk), and --transcript writes beside it a WebVTT or SubRip file with one cue per \
                paragraph, timed to the millisecond.

                  narrate export -o budget.mp3 --transcript vtt    # also writes budget.vtt

                A book holds the article's text and its audio (one MP3, mastered as --profile \
                says, 64 kbit/s mono or 128 stereo unless --bitrate or an MP3 profile says \
                otherwise), timed to each paragraph, so that a reading app or a talking-book \
                player shows or finds the text being read. --format epub (or a name ending in \
                .epub) makes an EPUB 3 with a media overlay: apps highlight each paragraph, or \
                each sentence where the take check placed them, as it is read. --format daisy \
                makes a DAISY 2.02 book (full text and audio) in a new folder, for the players \
                reading services use: the title, headings and paragraphs are its navigation \
                items; a name ending in .zip gets the same book as one zip file. The article \
                needs a text (narrate script FILE); the language comes from config.toml. An \
                existing book is replaced only once the new one is complete.

                  narrate export -o budget.epub
                  narrate export --format daisy -o budget-daisy --bitrate 64
                  narrate export --format daisy -o budget-daisy.zip --profile podcast
                """)

        @OptionGroup var target: ArticleOption

        @Option(name: .shortAndLong, help: ArgumentHelp("The file to write (replaced if it exists).", valueName: "PATH"))
        var output: String

        @Option(help: ArgumentHelp(
            "mp3, wav, flac, ogg (Ogg Vorbis), opus (Ogg Opus), epub or daisy (books); default: from the file's ending (a name without one needs --format).",
            valueName: "FORMAT"))
        var format: ExportFormatArgument?

        @Option(parsing: .unconditional, help: ArgumentHelp(
            "Bitrate in kbit/s: MP3's constant bitrate (default 128; a book's MP3 too), or Ogg Opus's, 6 to 256 (default 32 mono, 48 stereo).",
            valueName: "KBPS"))
        var bitrate: Int?

        @Option(parsing: .unconditional, help: ArgumentHelp("MP3 variable bitrate quality, 0 (best) to 9, instead of --bitrate.", valueName: "Q"))
        var vbr: Int?

        @Option(help: ArgumentHelp(
            "A delivery profile: archive (FLAC, untouched), librivox, acx, podcast, mobile (Ogg Opus at podcast loudness), telephone (WAV, 8 kHz mono 16-bit) or one of config.toml's. It sets the mastering, the sample rate its rules ask for, and the format and bitrate unless --format, the file's extension or --bitrate say otherwise; a profile with a noise-floor rule (acx) reduces the room's noise first when the recording needs it (learnt from its own pauses, 12 to 30 dB); a file that fails its rules (as check --profile measures them) is not kept, and the error names each rule, what was measured and why. Default: config.toml's profile, as queue and submit use, else archive; archive keeps the samples untouched.",
            valueName: "NAME"))
        var profile: String?

        @Option(parsing: .unconditional, help: ArgumentHelp("The first chunk to export (default 1).", valueName: "N"))
        var from: Int?

        @Option(parsing: .unconditional, help: ArgumentHelp("The last chunk to export (default the last one).", valueName: "N"))
        var to: Int?

        @Flag(name: .customLong("no-chapters"), help: "Leave out the chapters.")
        var noChapters = false

        @Option(help: ArgumentHelp("What a chapter is: paragraphs (default), sections (a heading and the paragraphs under it) or chunks.", valueName: "KIND"))
        var chapters: ChapterStyleArgument = .paragraphs

        @Option(help: ArgumentHelp("Also write a transcript beside the file: vtt (WebVTT) or srt (SubRip), one cue per paragraph.", valueName: "FORMAT"))
        var transcript: TranscriptFormatArgument?

        @OptionGroup var json: JSONOption

        func validate() throws {
            if bitrate != nil && vbr != nil { throw ValidationError("Use --bitrate or --vbr, not both.") }
            for (name, value) in [("--from", from), ("--to", to)] {
                if let value, value < 1 { throw ValidationError("\(name) \(value) is not a chunk: chunks are numbered from 1 (see \"narrate chunks\").") }
            }
            // A file is never written in another format than its name says.
            let name = URL(fileURLWithPath: output).lastPathComponent
            let ending = URL(fileURLWithPath: output).pathExtension.lowercased()
            let known = ExportFormat.allCases.map { "." + $0.fileExtension }.joined(separator: ", ") + ", .epub"
            // A name without an ending says no format: the file would be one the volunteer cannot tell.
            // A folder given as the output is refused by the engine, naming it.
            if format == nil, ending.isEmpty, !Self.isFolder(output) {
                throw ValidationError("\"\(name)\" has no ending to say its format: name it \(name).mp3 (or \(known)), or give --format.")
            }
            if format == nil, ending == "zip" {
                throw ValidationError("\"\(name)\" ends in .zip: give --format daisy for a zipped DAISY book.")
            }
            if format == nil, !ending.isEmpty, ExportFormat(rawValue: ending) == nil, ending != "epub" {
                throw ValidationError("\"\(name)\" ends in .\(ending), a format narrate does not write: name the file \(known), or give --format.")
            }
            switch format?.book {
            case .epub? where ending != "epub":
                throw ValidationError("--format epub writes one .epub file: name it \(URL(fileURLWithPath: output).deletingPathExtension().lastPathComponent).epub.")
            case .daisy? where ExportFormat(rawValue: ending) != nil || ending == "epub":
                throw ValidationError("\"\(name)\" ends in .\(ending) but --format daisy makes a book folder: give a folder's name, or one ending in .zip for one file.")
            case nil:
                if let format, let audio = format.format, let named = ExportFormat(rawValue: ending), named != audio {
                    throw ValidationError("\"\(name)\" ends in .\(ending) but --format asks for \(format.rawValue): name the file .\(audio.fileExtension), or leave out --format.")
                }
                if let format, ending == "epub" {
                    throw ValidationError("\"\(name)\" ends in .epub but --format asks for \(format.rawValue): name the file .\(format.rawValue), or leave out --format.")
                }
            default:
                break
            }
            if book != nil, transcript != nil {
                throw ValidationError("--transcript writes beside an audio file; a book holds its text already: leave out --transcript.")
            }
        }

        /// Whether `path` names a folder that exists (following links: only to tell the message).
        static func isFolder(_ path: String) -> Bool {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
        }

        func resolvedFormat(_ profile: DeliveryProfile?) -> ExportFormat {
            format?.format ?? ExportFormat(rawValue: URL(fileURLWithPath: output).pathExtension.lowercased()) ?? profile?.format ?? .flac
        }

        /// The book asked for: by --format, or by a name ending in .epub; nil for an audio file.
        var book: BookFormat? {
            format.map(\.book) ?? (URL(fileURLWithPath: output).pathExtension.lowercased() == "epub" ? .epub : nil)
        }

        /// The sentence refusing `--from`/`--to` for an article of `count` chunks, if they do not fit it.
        func rangeProblem(count: Int, title: String) -> String? {
            guard count > 0 else { return nil }  // the export says there is nothing to export
            let has = count == 1 ? "1 chunk" : "\(count) chunks"
            let fix = count == 1 ? "leave out --from and --to or give 1" : "give --from and --to from 1 to \(count)"
            for (name, value) in [("--from", from), ("--to", to)] {
                if let value, value > count { return "\(name) \(value) is past the last chunk: \"\(title)\" has \(has); \(fix) (see \"narrate chunks\")." }
            }
            if let from, let to, from > to {
                return "--from \(from) comes after --to \(to) (\"\(title)\" has \(has)): give the first chunk first, e.g. --from \(to) --to \(from)."
            }
            return nil
        }

        func run() async throws {
            // On a host of a reading service the article's chunks may be in the recordings store only.
            try await CommandRunner.bringChunksHome(of: target.article)  // a book reads them too
            try runHere()
        }

        func runHere() throws {
            let configured = try CommandRunner.settings()
            // One rule for export, queue and submit: --profile, else config.toml's profile (archive,
            // which keeps the samples untouched, when config.toml names none).
            let chosenProfile: DeliveryProfile
            do { chosenProfile = try configured.deliveryProfile(named: profile ?? configured.profile) } catch {
                Console.error(error.sentence)
                throw ExitCode(error.exitStatus)
            }
            if let book {
                try runBook(book, profile: chosenProfile, language: configured.language)
                return
            }
            let resolvedFormat = resolvedFormat(chosenProfile)
            if vbr != nil && resolvedFormat != .mp3 {
                Console.error("--vbr applies to MP3 only; this export is \(resolvedFormat.rawValue)\(resolvedFormat == .opus ? " (give --bitrate)" : "").")
                throw ExitCode(64)
            }
            if bitrate != nil && resolvedFormat != .mp3 && resolvedFormat != .opus {
                Console.error("--bitrate applies to MP3 and Ogg Opus only; this export is \(resolvedFormat.rawValue).")
                throw ExitCode(64)
            }
            if let bitrate, resolvedFormat == .opus, !OpusBitrate.range.contains(bitrate) {
                Console.error("--bitrate \(bitrate) is not an Ogg Opus bitrate; give \(OpusBitrate.range.lowerBound) to \(OpusBitrate.range.upperBound) kbit/s.")
                throw ExitCode(64)
            }
            let encoding: MP3Encoding = vbr.map { .variable(quality: $0) }
                ?? bitrate.map { .constant(kbps: $0) } ?? chosenProfile.mp3 ?? .constant(kbps: 128)
            // Opus: --bitrate, else the profile's own Opus bitrate, else Opus's speech default.
            let opusKbps = resolvedFormat == .opus ? bitrate ?? chosenProfile.opusKbps : nil
            let settings = ExportSettings(
                format: resolvedFormat, mp3: encoding, chapters: !noChapters, chapterStyle: chapters.style,
                mastering: chosenProfile.mastering, firstChunk: from.map { ChunkIndex($0) }, lastChunk: to.map { ChunkIndex($0) },
                profile: chosenProfile, opusKbps: opusKbps)
            let destination = URL(fileURLWithPath: output).standardizedFileURL
            let bar = ProgressBar(label: "Exporting")
            let transcriptURL = transcript.map { destination.deletingPathExtension().appendingPathExtension($0.format.fileExtension) }
            let (result, chunkCount) = try CommandRunner.withLibrary(readOnly: true) { (library) throws(NarrationError) -> (ExportResult, Int) in
                let article = try library.article(target.article)
                let chunkCount = try library.records(of: article).chunks().count
                if let problem = rangeProblem(count: chunkCount, title: article.title) { throw .usage(problem) }
                if transcript != nil, try library.records(of: article).paragraphs().isEmpty {
                    throw NarrationError(.usage, "\"\(article.title)\" has no text, so there is no transcript to write.", remedy: .attachText)
                }
                let result = try library.export(article, to: destination, settings: settings) { done, total in
                    bar.update(done: done, total: total)
                }
                if let transcript, let transcriptURL {
                    bar.finish()
                    try result.plan.writeTranscript(as: transcript.format, to: transcriptURL)
                }
                return (result, chunkCount)
            }
            bar.finish()
            let seconds = result.plan.format.seconds(result.frames)
            let chunks = result.plan.chunks.count
            let first = result.plan.firstChunk
            let last = first + chunks - 1
            if json.json {
                Console.printJSON(ExportJSON(
                    file: result.file.path, format: settings.format.rawValue, profile: chosenProfile.name, frames: result.frames, duration: seconds,
                    bytes: result.bytes, chapters: result.chapters, firstChunk: first, lastChunk: last, transcript: transcriptURL?.path,
                    encoders: result.encoders, noiseReductionDB: NullWhenAbsent(result.noiseReduction?.decibels),
                    recordingNoiseFloorDB: NullWhenAbsent(result.recordingNoiseFloor?.value)))
            } else {
                let which = chunks == chunkCount ? "\"\(result.plan.tags.title)\""
                    : chunks == 1 ? "chunk \(first) of \"\(result.plan.tags.title)\"" : "chunks \(first)–\(last) of \"\(result.plan.tags.title)\""
                var chapterText = ""
                if !noChapters {
                    chapterText = settings.format.holdsChapters
                        ? ", \(result.chapters) chapter\(result.chapters == 1 ? "" : "s")" : ", no chapters (\(settings.format.name) files hold none)"
                }
                let mastered = chosenProfile.name == DeliveryProfile.archive.name ? "archive profile: samples untouched" : "\(chosenProfile.name) profile"
                Console.print("Exported \(which) to \(result.file.path): \(Timecode.precise(seconds)), \(chunks) chunk\(chunks == 1 ? "" : "s")\(chapterText), \(result.bytes / 1024) KiB (\(mastered)).")
                if let reduction = result.noiseReduction {
                    let floor = result.recordingNoiseFloor.map { ": its noise floor was \($0.formatted) dB" } ?? ""
                    Console.print("The room's noise was reduced by \(Int(reduction.decibels)) dB before mastering\(floor).")
                }
                if let transcriptURL { Console.print("Transcript: \(transcriptURL.path) (\(result.plan.transcript?.cues.count ?? 0) cues).") }
            }
        }
    }
}

extension Narrate.Export {
    /// `--format epub|daisy`: the book of the article's text and audio (`NarrationLibrary.exportBook`).
    func runBook(_ book: BookFormat, profile: DeliveryProfile?, language: String) throws {
        // The book's MP3: --bitrate/--vbr, else an MP3 profile's encoding, else the engine's choice.
        let chosen: MP3Encoding? = vbr.map { .variable(quality: $0) } ?? bitrate.map { .constant(kbps: $0) }
            ?? (profile?.format == .mp3 ? profile?.mp3 : nil)
        var settings = ExportSettings(
            format: chosen == nil ? (profile?.format ?? .flac) : .mp3, mp3: chosen ?? .constant(kbps: 128), chapters: !noChapters,
            chapterStyle: chapters.style, mastering: profile?.mastering ?? Mastering(), firstChunk: from.map { ChunkIndex($0) },
            lastChunk: to.map { ChunkIndex($0) }, profile: profile)
        settings.language = language
        let destination = URL(fileURLWithPath: output).standardizedFileURL
        let bar = ProgressBar(label: "Exporting")
        let result = try CommandRunner.withLibrary(readOnly: true) { (library) throws(NarrationError) -> BookResult in
            let article = try library.article(target.article)
            let chunkCount = try library.records(of: article).chunks().count
            if let problem = rangeProblem(count: chunkCount, title: article.title) { throw .usage(problem) }
            return try library.exportBook(article, as: book, to: destination, settings: settings) { done, total in
                bar.update(done: done, total: total)
            }
        }
        bar.finish()
        let plan = result.audio.plan
        let seconds = plan.format.seconds(result.audio.frames)
        if json.json {
            Console.printJSON(BookJSON(
                file: result.location.path, format: book.rawValue, archive: result.isArchive, bytes: result.bytes, frames: result.audio.frames,
                duration: seconds, audioBytes: result.audio.bytes, paragraphs: result.paragraphs, pars: result.pars, parts: result.parts,
                firstChunk: plan.firstChunk, lastChunk: plan.firstChunk + plan.chunks.count - 1))
        } else {
            let kind = book == .epub ? "an EPUB" : result.isArchive ? "a zipped DAISY 2.02 book" : "a DAISY 2.02 book"
            Console.print(
                "Published \"\(plan.tags.title)\" as \(kind) at \(result.location.path): \(Timecode.precise(seconds)), \(result.paragraphs) paragraph\(result.paragraphs == 1 ? "" : "s") in \(result.pars) timed part\(result.pars == 1 ? "" : "s"), \(result.bytes / 1024) KiB.")
        }
    }
}

/// What `export --format epub|daisy --json` prints.
struct BookJSON: Encodable {
    /// The .epub, the DAISY folder or its .zip.
    let file: String
    let format: String
    /// Whether `file` is one ZIP file.
    let archive: Bool
    let bytes: Int
    /// The audio's frames at the article's rate, and its length in seconds.
    let frames: Int
    let duration: Double
    /// The MP3's size inside the book.
    let audioBytes: Int
    /// Items of the text read (title and headings included), par elements, chunks reading no paragraph.
    let paragraphs: Int
    let pars: Int
    let parts: Int
    let firstChunk: Int
    let lastChunk: Int
}

struct ExportJSON: Encodable {
    let file: String
    let format: String
    /// The delivery profile the file was mastered for: --profile, else config.toml's, else archive (untouched).
    let profile: String
    let frames: Int
    let duration: Double
    let bytes: Int
    /// The chapters written into the file: 0 for WAV and Ogg Vorbis, which hold none.
    let chapters: Int
    /// The chunks exported, numbered as in the article.
    let firstChunk: Int
    let lastChunk: Int
    /// The transcript written beside the file, if one was asked for.
    let transcript: String?
    /// How many encoders made the file on as many cores (a long CBR MP3 is encoded in parallel).
    let encoders: Int
    /// How many dB the room's noise was reduced by (a profile with a noise-floor rule, a
    /// recording that needed it); null when it was left alone.
    let noiseReductionDB: NullWhenAbsent<Double>
    /// The recording's noise floor (its quietest 500 ms) before mastering; null without a profile's mastering.
    let recordingNoiseFloorDB: NullWhenAbsent<Double>
}

/// `--chapters` on the command line.
enum ChapterStyleArgument: String, ExpressibleByArgument, CaseIterable {
    case paragraphs, sections, chunks

    var style: ChapterStyle { ChapterStyle(rawValue: rawValue)! }
}

/// `--transcript` on the command line.
enum TranscriptFormatArgument: String, ExpressibleByArgument, CaseIterable {
    case vtt, srt

    var format: Transcript.Format { Transcript.Format(rawValue: rawValue)! }
}
