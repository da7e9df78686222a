import ArgumentParser
import Foundation
import Narration
import NarrationCore

extension Narrate {
    /// `narrate outbox [list|push]`.
    struct Outbox: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the outbox, or deliver what is waiting in it.",
            subcommands: [ListJobs.self, Push.self], defaultSubcommand: ListJobs.self)

        struct ListJobs: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "list", abstract: "List queued and delivered files: state, destination, attempts, last error, where each went.")
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
                    var line = "\(job.state.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) \(job.file.lastPathComponent)"
                    line += "  attempts \(job.attempts)"
                    if let remote = job.remotePath {
                        line += "  → \(remote)"
                    } else if let destination = job.destination {
                        line += "  → \(destination)"
                    }
                    if let error = job.lastError, job.state == .queued { line += "\n          last error: \(error)" }
                    Console.print(line)
                }
            }
        }

        struct Push: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Deliver every queued file: to --to, else where it was last sent, else the configured destination.",
                discussion: """
                    Failures that may pass (storage unreachable or busy, a dropped connection) are \
                    tried again after 2, 4, 8… seconds (--retry-wait, at most 30 s apart), up to \
                    --attempts times; others (wrong credentials, a missing bucket, a changed file) \
                    are reported at once. An interrupted multipart upload continues with the parts \
                    the storage does not hold yet. Exit status 1 if anything is still waiting.
                    """)

            @OptionGroup var destination: DestinationOptions
            @OptionGroup var retry: RetryOptions

            @OptionGroup var progress: ProgressOption

            @OptionGroup var output: JSONOption

            func run() async throws {
                let settings = try CommandRunner.settings()
                let (delivered, failures) = try await CommandRunner.withLibrary {
                    (library) async throws(NarrationError) -> ([OutboxJob], [(OutboxJob, String)]) in
                    var delivered: [OutboxJob] = []
                    var failures: [(OutboxJob, String)] = []
                    for job in try library.outboxJobs() where job.state == .queued {
                        do throws(NarrationError) {
                            guard let target = try destination.resolve(settings, fallback: job.target) else {
                                failures.append((job, "it has no destination yet; pass --to FOLDER or --to s3://BUCKET/PREFIX."))
                                continue
                            }
                            let bar = ProgressBar(label: "Sending \(job.file.lastPathComponent)", stage: "upload", mode: progress.progress)
                            defer { bar.finish() }
                            delivered.append(try await library.deliver(
                                job, to: target, retrying: retry.schedule, progress: { bar.update(done: $0, total: $1) },
                                onRetry: Narrate.announceRetry(job)))
                        } catch where error.kind == .usage {
                            throw error
                        } catch {
                            failures.append(((try? library.outboxJobs().first { $0.id == job.id }) ?? job, error.message))
                        }
                    }
                    return (delivered, failures)
                }
                if output.json {
                    Console.printJSON(PushJSON(
                        delivered: delivered.map(OutboxJobJSON.init),
                        waiting: failures.map { OutboxJobJSON($0.0) }))
                } else {
                    for job in delivered { Console.print("Delivered \(job.file.lastPathComponent) to \(job.remotePath ?? "?").") }
                    for (job, message) in failures { Console.error("\(job.file.lastPathComponent): \(message)") }
                    Console.print("Delivered \(delivered.count) file\(delivered.count == 1 ? "" : "s"); \(failures.count) still waiting.")
                }
                if !failures.isEmpty { throw ExitCode.failure }
            }
        }
    }

    private struct PushJSON: Encodable {
        let delivered: [OutboxJobJSON]
        let waiting: [OutboxJobJSON]
    }
}
