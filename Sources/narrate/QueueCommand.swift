import ArgumentParser
import Foundation
import Narration
import NarrationCore

/// `--profile NAME` for commands that export.
struct ProfileOption: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The delivery profile: archive, librivox, acx, podcast, or one of config.toml's (default: profile in config.toml, else archive).",
        valueName: "NAME"))
    var profile: String?

    /// The profile named here, else the configured one.
    func resolve(_ settings: Settings) throws(NarrationError) -> DeliveryProfile {
        try settings.deliveryProfile(named: profile ?? settings.profile)
    }
}

extension Narrate {
    /// `narrate queue`: export into the outbox, ready for delivery, and start afresh.
    struct Queue: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Export the article into the outbox with its metadata sidecar; deliver it later with submit or outbox push.",
            discussion: "The article is marked queued and is no longer the current one, ready for the next article. Its chunks are kept.")

        @OptionGroup var target: ArticleOption
        @OptionGroup var profile: ProfileOption
        @OptionGroup var output: JSONOption

        func run() throws {
            let bar = ProgressBar(label: "Exporting")
            let settings = try CommandRunner.settings()
            let (job, sidecar) = try CommandRunner.withLibrary { (library) throws(NarrationError) -> (OutboxJob, Sidecar) in
                let article = try library.article(target.article)
                return try library.queue(article, profile: try profile.resolve(settings)) { bar.update(done: $0, total: $1) }
            }
            bar.finish()
            if output.json {
                Console.printJSON(OutboxJobJSON(job))
            } else {
                Console.print("Queued \"\(sidecar.title)\" (\(Timecode.precise(sidecar.duration)), \(sidecar.profile)) as \(job.file.path).")
                Console.print("Deliver it with: narrate submit --article \(job.articleID) --to FOLDER")
            }
        }
    }

    /// `narrate submit`: queue (if needed) and deliver now.
    struct Submit: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Deliver the article now: queue it if it is not queued yet, then copy it and its sidecar to the destination.",
            discussion: """
                The destination is a folder (a mounted share, say); files go to \
                <folder>/<publication>/<date>/<title>-<id>.<ext>, copied atomically and checked by SHA-256. \
                A failed delivery stays in the outbox with its error; "narrate outbox push" retries.
                """)

        @OptionGroup var target: ArticleOption
        @OptionGroup var profile: ProfileOption

        @Option(help: ArgumentHelp("The folder to deliver to (default: destination in config.toml).", valueName: "DESTINATION"))
        var to: String?

        @OptionGroup var output: JSONOption

        func run() throws {
            let settings = try CommandRunner.settings()
            guard let to = to ?? settings.destination else {
                Console.error("No destination: pass --to FOLDER, or set destination in \(Settings.fileURL().path).")
                throw ExitCode(64)
            }
            let folder = URL(fileURLWithPath: to, isDirectory: true).standardizedFileURL
            let bar = ProgressBar(label: "Exporting")
            let job = try CommandRunner.withLibrary { (library) throws(NarrationError) -> OutboxJob in
                let article = try library.article(target.article)
                guard FileManager.default.fileExists(atPath: folder.path) else {
                    throw NarrationError(.fileSystem, "The destination folder \(folder.path) does not exist (is the share mounted?).")
                }
                let queued = try library.outboxJobs().last { $0.articleID == article.id && $0.state == .queued }
                let job: OutboxJob
                if let queued {
                    job = queued
                } else {
                    job = try library.queue(article, profile: try profile.resolve(settings)) { bar.update(done: $0, total: $1) }.job
                }
                bar.finish()
                return try library.deliver(job, toFolder: folder)
            }
            if output.json {
                Console.printJSON(OutboxJobJSON(job))
            } else {
                Console.print("Delivered \(job.file.lastPathComponent) to \(job.remotePath ?? folder.path) (SHA-256 checked).")
            }
        }
    }

    /// `narrate outbox [list|push]`.
    struct Outbox: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the outbox, or deliver what is waiting in it.",
            subcommands: [ListJobs.self, Push.self], defaultSubcommand: ListJobs.self)

        struct ListJobs: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "list", abstract: "List queued and delivered files.")
            @OptionGroup var output: JSONOption

            func run() throws {
                let jobs = try CommandRunner.withLibrary { (library) throws(NarrationError) in try library.outboxJobs() }
                if output.json {
                    Console.printJSON(jobs.map(OutboxJobJSON.init))
                    return
                }
                guard !jobs.isEmpty else {
                    Console.print("The outbox is empty. Queue an article with: narrate queue")
                    return
                }
                for job in jobs {
                    var line = "\(job.state.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) \(job.file.lastPathComponent)  attempts \(job.attempts)"
                    if let path = job.remotePath { line += "  → \(path)" } else if let destination = job.destination { line += "  → \(destination)" }
                    if let error = job.lastError, job.state == .queued { line += "  last error: \(error)" }
                    Console.print(line)
                }
            }
        }

        struct Push: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Deliver every queued file: to --to, or to the destination of its last attempt.")

            @Option(help: ArgumentHelp("The folder to deliver to.", valueName: "DESTINATION"))
            var to: String?

            func run() throws {
                let (delivered, failures) = try CommandRunner.withLibrary { (library) throws(NarrationError) -> (Int, [String]) in
                    var delivered = 0
                    var failures: [String] = []
                    for job in try library.outboxJobs() where job.state == .queued {
                        guard let destination = to ?? job.destination else {
                            failures.append("\(job.file.lastPathComponent) has no destination yet; pass --to FOLDER.")
                            continue
                        }
                        do throws(NarrationError) {
                            try library.deliver(job, toFolder: URL(fileURLWithPath: destination, isDirectory: true))
                            delivered += 1
                        } catch {
                            failures.append("\(job.file.lastPathComponent): \(error.message)")
                        }
                    }
                    return (delivered, failures)
                }
                for failure in failures { Console.error(failure) }
                Console.print("Delivered \(delivered) file\(delivered == 1 ? "" : "s"); \(failures.count) still waiting.")
                if !failures.isEmpty { throw ExitCode.failure }
            }
        }
    }
}

struct OutboxJobJSON: Encodable {
    let id: String
    let articleId: String
    let state: String
    let file: String
    let sidecar: String
    let sha256: String
    let bytes: Int
    let profile: String
    let destination: String?
    let attempts: Int
    let lastError: String?
    let remotePath: String?

    init(_ job: OutboxJob) {
        id = job.id
        articleId = job.articleID.rawValue
        state = job.state.rawValue
        file = job.file.path
        sidecar = job.sidecarFile.path
        sha256 = job.sha256
        bytes = job.bytes
        profile = job.profile
        destination = job.destination
        attempts = job.attempts
        lastError = job.lastError
        remotePath = job.remotePath
    }
}
