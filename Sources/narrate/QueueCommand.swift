import ArgumentParser
import Foundation
import Narration
import NarrationCore

/// `--profile NAME` for commands that export.
struct ProfileOption: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The delivery profile: archive, librivox, acx, podcast, mobile, telephone, or one of config.toml's (default: profile in config.toml, else archive). An export that fails its rules (as check --profile measures them) is not queued.",
        valueName: "NAME"))
    var profile: String?

    /// The profile named here, else the configured one.
    func resolve(_ settings: Settings) throws(NarrationError) -> DeliveryProfile {
        try settings.deliveryProfile(named: profile ?? settings.profile)
    }
}

extension Narrate {
    /// `narrate queue`: export into the outbox, ready for delivery, and start afresh.
    struct Queue: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Export the article into the outbox with its metadata sidecar; deliver it later with submit or outbox push.",
            discussion: """
                The article is marked queued and is no longer the current one, ready for the next \
                article. Its chunks are kept.

                A profile in config.toml can name what a delivery carries besides the audio and its \
                sidecar: carries = ["audio", "transcript", "feed", "epub", "daisy"]. Queue makes \
                each of them into the job beside the audio (the WebVTT and SubRip transcripts, the \
                feed item's JSON chapters, an EPUB 3 book, a DAISY 2.02 book as one zip; the \
                transcripts and books need the article's text), and the sidecar lists them with \
                their SHA-256; the delivery sends and checks them all, the feed last.

                An article with a text whose paragraphs are not all read or skipped is refused, \
                naming them: read them, skip them (narrate script --skip N-M), or queue it as it \
                is with --incomplete.
                """)

        @OptionGroup var target: ArticleOption
        @OptionGroup var profile: ProfileOption
        @OptionGroup var incomplete: IncompleteOption
        @OptionGroup var output: JSONOption

        func run() async throws {
            // On a host of a reading service the article's chunks may be in the recordings store only.
            try await CommandRunner.bringChunksHome(of: target.article)
            try runHere()
        }

        func runHere() throws {
            let bar = ProgressBar(label: "Exporting")
            let settings = try CommandRunner.settings()
            let (job, sidecar) = try CommandRunner.withLibrary { (library) throws(NarrationError) -> (OutboxJob, Sidecar) in
                let article = try library.article(target.article)
                try Desk.refuseDirectDelivery(of: article, in: library)
                return try library.queue(article, profile: try profile.resolve(settings), language: settings.language, sendingUnread: incomplete.incomplete) { bar.update(done: $0, total: $1) }
            }
            bar.finish()
            if output.json {
                Console.printJSON(OutboxJobJSON(job))
            } else {
                Console.print("Queued \"\(sidecar.title)\" (\(Timecode.precise(sidecar.duration)), \(sidecar.profile)) as \(job.file.path).")
                if let files = sidecar.files, !files.isEmpty {
                    Console.print("With it: \(files.map(\.name).joined(separator: ", ")).")
                }
                Console.print("Deliver it with: narrate outbox push --to DESTINATION (a folder or s3://BUCKET/PREFIX)")
            }
        }
    }
}
