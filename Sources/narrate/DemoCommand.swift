import ArgumentParser
import Foundation
import Narration
import NarrationCore

extension Narrate {
    /// `narrate demo`: the whole pipeline on virtual devices, in a folder of its own.
    struct Demo: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "See the whole pipeline work, no sound card needed: record, play, queue and check a tagged MP3.",
            discussion: """
                The demo starts an article, records three chunks from a virtual microphone that \
                speaks (speech made with espeak-ng, built into narrate), plays them to a virtual \
                speaker, queues them as one tagged MP3 (podcast profile) and checks it: length, \
                loudness, tags and chapters. Each step is checked sample for sample against what \
                went in, so a demo that ends well also shows the installation works.

                It works in a folder of its own (a new one in the temporary folder unless you \
                give --folder) and never touches your own recordings. It takes a few seconds.

                  narrate demo
                  narrate demo --folder ~/narrate-demo --json
                """)

        @Option(help: ArgumentHelp("The folder to work in; it must not hold a narrate library yet (default: a new folder in the temporary folder).", valueName: "PATH"))
        var folder: String?

        @OptionGroup var output: JSONOption

        func run() throws {
            let started = Date()
            let report: Narration.Demo.Report
            do throws(NarrationError) {
                let folder = try workFolder()
                let demo = Narration.Demo(folder: folder, paragraphs: DemoSpeech.paragraphs)
                let bar = ProgressBar(label: "Queueing")
                report = try demo.run { step in
                    if case .queueing(let done, let total) = step { bar.update(done: done, total: total) }
                    if step == .checking { bar.finish() }
                }
            } catch {
                Console.error(error.sentence)
                throw ExitCode(error.exitStatus)
            }
            let seconds = Date().timeIntervalSince(started)
            if output.json {
                Console.printJSON(DemoJSON(report, seconds: seconds))
            } else {
                for line in DemoSummary.lines(report, seconds: seconds) { Console.print(line) }
            }
        }

        /// `--folder`, or a new folder in the temporary folder.
        private func workFolder() throws(NarrationError) -> URL {
            if let folder {
                return URL(fileURLWithPath: (folder as NSString).expandingTildeInPath, isDirectory: true)
            }
            var template = Array((NSTemporaryDirectory() as NSString).appendingPathComponent("narrate-demo-XXXXXX").utf8CString)
            guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
                throw NarrationError(.fileSystem, "Cannot make a folder for the demo in \(NSTemporaryDirectory()): \(String(cString: strerror(errno))). Give one with --folder.")
            }
            return URL(fileURLWithPath: String(cString: made), isDirectory: true)
        }
    }
}

/// The demo's report as the volunteer reads it.
enum DemoSummary {
    static func lines(_ report: Narration.Demo.Report, seconds: Double) -> [String] {
        let article = report.article
        let format = article.format
        var lines = [
            "narrate demo: the whole pipeline on virtual devices, in \(report.folder.path)",
            "(your own recordings are not touched).",
            "",
            "1. Started the article \"\(article.title)\" (\(article.publication), read by \(article.narrator)), \(format.sampleRate) Hz, \(format.channels == 1 ? "mono" : "stereo"), \(format.bitsPerSample)-bit.",
            "2. Recorded \(report.chunks.count) chunks from a virtual microphone that speaks (espeak-ng):",
        ]
        for recorded in report.chunks {
            let text = recorded.text.count > 44 ? String(recorded.text.prefix(43)) + "…" : recorded.text
            lines.append("     \(recorded.index)  \(Timecode.tenths(recorded.chunk.duration))  peak \(recorded.chunk.peak)  \"\(text)\"")
        }
        lines.append("   Each chunk holds exactly the samples the microphone gave.")
        let played = format.seconds(report.playedFrames)
        lines.append("3. Played chunks 1–\(report.chunks.count) to a virtual speaker: \(Timecode.tenths(played)), \(report.playedFrames) frames, the chunks' samples in order with no gap at the joins.")
        if let job = report.job, let sidecar = report.sidecar {
            let bitrate = switch Narration.Demo.profile.mp3 {
            case .constant(let kbps): "\(kbps) kbit/s"
            case .variable(let quality): "VBR quality \(quality)"
            }
            lines.append("4. Queued one tagged MP3 (\(sidecar.profile) profile, \(bitrate), \(Timecode.tenths(sidecar.duration)), \(Counted.phrase(sidecar.chapters ?? 0, "chapter")), \(job.bytes) bytes):")
            lines.append("     \(job.file.path)")
        }
        lines.append("5. Checked it: it decodes to exactly the chunks' \(report.decodedFrames) frames.")
        lines.append("   \(report.verdict)")
        if let tags = report.tags {
            let chapters = tags.chapters
            lines.append("   Tags read back: title \"\(tags.text("TIT2") ?? "")\", narrator \"\(tags.text("TPE1") ?? "")\", publication \"\(tags.text("TALB") ?? "")\", date \(tags.text("TDRC") ?? "none"), \(Counted.phrase(chapters.count, "chapter")).")
        }
        lines.append("")
        lines.append("Done in \(String(format: "%.1f", seconds)) s.")
        if let job = report.job {
            lines.append("Listen:       ffplay -nodisp -autoexit \(shellQuoted(job.file.path))")
        }
        lines.append("Look around:  NARRATE_HOME=\(shellQuoted(report.folder.path)) narrate list")
        lines.append("Your own:     narrate studio")
        return lines
    }

    static func shellQuoted(_ text: String) -> String {
        text.allSatisfy { $0.isLetter || $0.isNumber || "/._-+:@".contains($0) } ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// `narrate demo --json`.
struct DemoJSON: Encodable {
    struct Check: Encodable {
        let decodedFrames: Int
        let loudnessLUFS: Double?
        let truePeakDBTP: Double?
        let verdict: String
    }

    struct Tags: Encodable {
        let title: String?
        let narrator: String?
        let publication: String?
        let date: String?
        let chapters: [String?]
    }

    let folder: String
    let article: ArticleJSON
    let chunks: [ChunkJSON]
    let playedFrames: Int
    let speakerFile: String
    let outbox: OutboxJobJSON?
    let check: Check
    let tags: Tags?
    let seconds: Double

    init(_ report: Narration.Demo.Report, seconds: Double) {
        folder = report.folder.path
        article = ArticleJSON(report.article, chunks: report.chunks.count)
        chunks = report.chunks.map { ChunkJSON($0.chunk, index: $0.index, file: $0.file, fileMissing: false) }
        playedFrames = report.playedFrames
        speakerFile = report.speakerFile.path
        outbox = report.job.map(OutboxJobJSON.init)
        check = Check(
            decodedFrames: report.decodedFrames, loudnessLUFS: report.measurements?.integratedLoudness,
            truePeakDBTP: report.measurements?.truePeak.value, verdict: report.verdict)
        tags = report.tags.map {
            Tags(title: $0.text("TIT2"), narrator: $0.text("TPE1"), publication: $0.text("TALB"), date: $0.text("TDRC"), chapters: $0.chapters.map(\.title))
        }
        self.seconds = seconds
    }
}
