import ArgumentParser
import Foundation
import Narration
import NarrationCore

extension Narrate {
    /// `narrate submit`: queue (if needed) and deliver now.
    struct Submit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Deliver the article now: export it if its current export is missing, stale or in another profile, then send it and its sidecar.",
            discussion: """
                The destination is a folder (a mounted share, say) or S3-compatible object storage \
                (AWS S3, MinIO, Ceph, SeaweedFS, R2, B2). Both get \
                <publication>/<date>/<title>-<id>.<ext> and the JSON sidecar beside it, checked \
                after the transfer. A destination holds one file per article: a newer delivery \
                replaces the article's earlier file once it is checked.

                The article's queued export is sent as it is when nothing changed since it was \
                queued and --profile is not another profile; otherwise the article is exported \
                again first. An export made before the last edit is never sent.

                Object storage keys come from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, else \
                from ~/.aws/credentials (or credentials_file in config.toml), which must be \
                readable by you only. Files over 8 MiB go up in parts; an interrupted upload \
                continues where it stopped.

                A profile whose carries (config.toml) names more than the audio sends those files \
                first, each checked the same way: transcripts, JSON chapters, an EPUB, a zipped \
                DAISY book. With "feed", the publication's podcast feed at the destination, \
                <publication>/feed.xml, gets the article's item last ("narrate feed" shows it).

                An article with a text whose paragraphs are not all read or skipped is refused, \
                naming them, even when its export is queued already: read them, skip them \
                (narrate script --skip N-M), or send it as it is with --incomplete.

                A delivery that fails stays in the outbox with its error; "narrate outbox push" \
                tries again.

                  narrate submit --to /mnt/share/narrations
                  narrate submit --to s3://radio-archive/narrations --endpoint https://s3.example.org --path-style
                  narrate submit --to archive        # [destinations.archive] in config.toml
                """)

        @OptionGroup var target: ArticleOption
        @OptionGroup var profile: ProfileOption
        @OptionGroup var incomplete: IncompleteOption
        @OptionGroup var destination: DestinationOptions
        @OptionGroup var retry: RetryOptions

        @OptionGroup var progress: ProgressOption

        @OptionGroup var output: JSONOption

        func run() async throws {
            let settings = try CommandRunner.settings()
            let resolved = try destination.required(settings)
            // On a host of a reading service the article's chunks may be in the recordings store only.
            try await CommandRunner.bringChunksHome(of: target.article)
            let exporting = ProgressBar(label: "Exporting", mode: progress.progress)
            let uploading = ProgressBar(label: "Sending", stage: "upload", mode: progress.progress)
            let (job, sidecar, check) = try await CommandRunner.withLibrary { (library) async throws(NarrationError) -> (OutboxJob, Sidecar?, String) in
                let article = try library.article(target.article)
                try Desk.refuseDirectDelivery(of: article, in: library)
                // Before exporting: a missing share or key pair is said now.
                let store = try NarrationLibrary.store(for: resolved)
                let check = store.verification
                await store.close()
                let requested = try profile.profile.map { (name) throws(NarrationError) in try settings.deliveryProfile(named: name) }
                let fallback = try profile.resolve(settings)
                let (language, sendingUnread) = (settings.language, incomplete.incomplete)
                // Exporting encodes the audio and writes the outbox: a thread of its own, off the concurrency pool.
                let (job, _) = try await BlockingWork.run(named: "narrate-submit-export") { () throws(NarrationError) in
                    try library.exportForDelivery(
                        article, profile: requested, fallback: fallback, language: language, sendingUnread: sendingUnread
                    ) { exporting.update(done: $0, total: $1) }
                }
                exporting.finish()
                defer { uploading.finish() }
                let delivered = try await library.deliver(
                    job, to: resolved, retrying: retry.schedule, progress: { uploading.update(done: $0, total: $1) },
                    onRetry: Narrate.announceRetry(job))
                return (delivered, try? library.sidecar(of: delivered), check)
            }
            if output.json {
                Console.printJSON(OutboxJobJSON(job))
            } else {
                Console.print("Delivered \(job.file.lastPathComponent) to \(job.remotePath ?? resolved.description) (\(check)).")
                for line in Self.carried(job, sidecar) { Console.print(line) }
            }
        }

        /// What went with the audio, and the feed it is in: a line each.
        static func carried(_ job: OutboxJob, _ sidecar: Sidecar?) -> [String] {
            guard let sidecar else { return [] }
            var lines: [String] = []
            let files = sidecar.files ?? []
            if !files.isEmpty { lines.append("With it: \(files.map(\.name).joined(separator: ", ")).") }
            if sidecar.carries?.contains(DeliveryItem.feed.rawValue) == true, let remote = job.remotePath {
                // <publication>/<date>/<file> below the destination: the feed is <publication>/feed.xml.
                let publication = remote.split(separator: "/", omittingEmptySubsequences: false).dropLast(2).joined(separator: "/")
                lines.append("Its podcast feed: \(publication)/\(FeedSettings.fileName) (\"narrate feed\" shows it).")
            }
            return lines
        }
    }
}
