import ArgumentParser
import Foundation
import Glibc
import Narration
import NarrationCore

extension Narrate {
    /// `narrate outbox [list|push|remove]`.
    struct Outbox: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the outbox, deliver what is waiting in it, or remove a job from it.",
            subcommands: [ListJobs.self, Push.self, Remove.self], defaultSubcommand: ListJobs.self)

        struct ListJobs: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "list",
                abstract: "List each article's export: waiting or delivered, destination, attempts, last error, where it went.",
                discussion: """
                    An article has one export at a time. One made before the article was changed \
                    or queued again is withdrawn: it is never sent, and --all lists it with the reason.
                    """)
            @Flag(help: "Also list withdrawn exports.")
            var all = false

            @OptionGroup var output: JSONOption

            func run() throws {
                let jobs = try CommandRunner.withLibrary { (library) throws(NarrationError) in try library.outboxJobs() }
                    .filter { all ? $0.state != .exporting : $0.isCurrent }
                if output.json {
                    Console.printJSON(jobs.map(OutboxJobJSON.init))
                    return
                }
                guard !jobs.isEmpty else {
                    Console.print("The outbox is empty. Queue an article with: narrate queue")
                    return
                }
                for job in jobs {
                    let state = job.state == .retired ? "withdrawn" : job.state.rawValue
                    var line = "\(job.id)  \(state.padding(toLength: 9, withPad: " ", startingAt: 0)) \(job.file.lastPathComponent)"
                    line += "  attempts \(job.attempts)"
                    if job.state == .retired {
                        line += "  (\(Self.reason(job.retiredReason)))"
                    } else if let remote = job.remotePath, job.state == .delivered {
                        line += "  → \(remote)"
                    } else if let destination = job.destination {
                        line += "  → \(destination)"
                    }
                    if let error = job.lastError, job.state == .queued { line += "\n            last error: \(error)" }
                    Console.print(line)
                }
            }

            static func reason(_ reason: OutboxJob.RetirementReason?) -> String {
                switch reason {
                case .edited: "the article changed after it was queued"
                case .requeued: "the article was queued again"
                case .removed: "removed from the outbox"
                case .older, nil: "made by an older narrate"
                }
            }
        }

        struct Push: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Deliver every waiting export: to --to, else where it was last sent, else the configured destination.",
                discussion: """
                    Each export is checked against its article first: one made before the article \
                    changed is withdrawn, not sent. A delivered export whose podcast feed could not \
                    be updated is delivered again: nothing is sent twice, and the feed is updated. Failures that may pass (storage unreachable \
                    or busy, a dropped connection) are tried again after 2, 4, 8… seconds \
                    (--retry-wait, at most 30 s apart), up to --attempts times; others (wrong \
                    credentials, a missing bucket, a changed file) are reported at once. An \
                    interrupted multipart upload continues with the parts the storage does not \
                    hold yet. An export that another narrate command is sending is left to it. \
                    Exit status 1 if anything is still waiting.
                    """)

            @OptionGroup var destination: DestinationOptions
            @OptionGroup var retry: RetryOptions

            @OptionGroup var progress: ProgressOption

            @OptionGroup var output: JSONOption

            func run() async throws {
                let settings = try CommandRunner.settings()
                let outcome = try await CommandRunner.withLibrary { (library) async throws(NarrationError) -> PushOutcome in
                    var outcome = PushOutcome()
                    // Waiting jobs, and delivered ones whose feed was not updated (their error says
                    // so): delivering again sends nothing twice and changes the feed.
                    for job in try library.outboxJobs() where job.state == .queued || (job.state == .delivered && job.lastError != nil) {
                        do throws(NarrationError) {
                            guard let target = try destination.resolve(settings, fallback: job.target) else {
                                outcome.waiting.append((job, "it has no destination yet; pass --to FOLDER or --to s3://BUCKET/PREFIX."))
                                continue
                            }
                            let bar = ProgressBar(label: "Sending \(job.file.lastPathComponent)", stage: "upload", mode: progress.progress)
                            defer { bar.finish() }
                            outcome.delivered.append(try await library.deliver(
                                job, to: target, retrying: retry.schedule, progress: { bar.update(done: $0, total: $1) },
                                onRetry: Narrate.announceRetry(job)))
                        } catch where error.kind == .usage {
                            throw error
                        } catch where error.kind == .exportWithdrawn {
                            outcome.withdrawn.append((job, error.sentence))
                        } catch {
                            outcome.waiting.append(((try? library.outboxJobs().first { $0.id == job.id }) ?? job, error.sentence))
                        }
                    }
                    return outcome
                }
                if output.json {
                    Console.printJSON(PushJSON(
                        delivered: outcome.delivered.map(OutboxJobJSON.init),
                        waiting: outcome.waiting.map { OutboxJobJSON($0.0) },
                        withdrawn: outcome.withdrawn.map { OutboxJobJSON($0.0) }))
                } else {
                    for job in outcome.delivered { Console.print("Delivered \(job.file.lastPathComponent) to \(job.remotePath ?? "?").") }
                    for (job, message) in outcome.withdrawn + outcome.waiting { Console.error("\(job.file.lastPathComponent): \(message)") }
                    let withdrawn = outcome.withdrawn.isEmpty ? "" : "; \(outcome.withdrawn.count) withdrawn"
                    Console.print(
                        "Delivered \(outcome.delivered.count) file\(outcome.delivered.count == 1 ? "" : "s"); \(outcome.waiting.count) still waiting\(withdrawn).")
                }
                if !outcome.waiting.isEmpty { throw ExitCode.failure }
            }
        }

        struct Remove: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Remove an export from the outbox: it is never sent, and its article is open again.",
                discussion: """
                    JOB is the id that "narrate outbox list" shows first (or the start of it). \
                    The export's files leave the outbox; a copy already delivered stays at its \
                    destination, and the article's recordings are untouched. Asks before \
                    removing on a terminal; --yes or --json do not ask.

                      narrate outbox remove k3v9xq2m1a
                      narrate outbox remove k3v9 --json     # for scripts
                    """)

            @Argument(help: ArgumentHelp("The job's id, or the start of it.", valueName: "JOB"))
            var job: String

            @Flag(name: .shortAndLong, help: "Remove without asking.")
            var yes = false

            @OptionGroup var output: JSONOption

            func run() throws {
                let removed = try CommandRunner.withLibrary { (library) throws(NarrationError) -> OutboxJob? in
                    let job = try library.job(matching: self.job)
                    guard job.state != .retired else {
                        throw .usage("\(job.id) (\(job.file.lastPathComponent)) was already withdrawn; nothing to remove.")
                    }
                    if !yes && !output.json {
                        guard isatty(STDIN_FILENO) == 1 else {
                            throw .usage("Removing \(job.id) needs a yes: run it on a terminal, or pass --yes.")
                        }
                        Console.status("Remove \(job.file.lastPathComponent) (\(job.state.rawValue)) from the outbox? It will not be sent. [y/N] ")
                        guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else { return nil }
                    }
                    return try library.removeJob(job)
                }
                guard let removed else {
                    Console.print("Nothing was removed.")
                    return
                }
                if output.json {
                    Console.printJSON(OutboxJobJSON(removed))
                } else {
                    Console.print("Removed \(removed.file.lastPathComponent) (\(removed.id)) from the outbox; it will not be sent. Queue the article again to send it.")
                }
            }
        }
    }

    private struct PushOutcome {
        var delivered: [OutboxJob] = []
        var waiting: [(OutboxJob, String)] = []
        var withdrawn: [(OutboxJob, String)] = []
    }

    private struct PushJSON: Encodable {
        let delivered: [OutboxJobJSON]
        let waiting: [OutboxJobJSON]
        let withdrawn: [OutboxJobJSON]
    }
}
