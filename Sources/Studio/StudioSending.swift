import Narration
import NarrationCore

/// Sending in the studio: queue (export into the outbox, the file checked) and submit (queue,
/// then deliver to the destination), run in the background while the screen keeps drawing
/// (`StudioWork`), and the question asked before, naming the paragraphs that would go out unread.
final class StudioSending {
    private let library: NarrationLibrary
    private let options: Studio.Options
    private var work: StudioWork?

    init(library: NarrationLibrary, options: Studio.Options) {
        self.library = library
        self.options = options
    }

    /// Whether queue or submit runs.
    var isWorking: Bool { work != nil }

    /// What to ask before queueing or sending `article`; nil when there is nothing to ask (no
    /// chunks, or submit without a destination): then `start` says why at once.
    func question(about article: Article, hasChunks: Bool, unread: UnreadParagraphs?, submitting: Bool) -> SendQuestion? {
        guard hasChunks, !submitting || options.destination != nil else { return nil }
        return SendQuestion(submitting: submitting, title: article.title, unread: unread)
    }

    /// Starts queueing (and with `submitting`, sending) `article` in the background.
    /// - Parameters:
    ///   - sendingUnread: the volunteer said to send it with paragraphs unread.
    ///   - ready: the export made ready between takes, and the work making it now.
    /// - Returns: why it cannot start (no chunks, no destination, a destination that cannot be
    ///   used); nil once it runs.
    func start(
        _ article: Article, hasChunks: Bool, submitting: Bool, sendingUnread: Bool, ready: (ReadyExport, StudioTakeCheck?)?
    ) -> StudioState.Notice? {
        guard hasChunks else { return .init(NarrationError.emptyArticle(article, nothingTo: submitting ? "submit" : "queue")) }
        let destination: Destination?
        if submitting {
            guard let configured = options.destination else {
                return .init("No destination to submit to; press q to queue it and send it later.", isProblem: true, remedy: .setDestination)
            }
            do throws(NarrationError) {
                _ = try NarrationLibrary.prepare(configured)
            } catch {
                return .init(error)
            }
            destination = configured
        } else {
            destination = nil
        }
        let work = StudioWork(stage: "Exporting")
        self.work = work
        let (library, options) = (self.library, self.options)
        work.start {
            await Self.queueAndSubmit(
                article, to: destination, library: library, options: options, ready: ready, sendingUnread: sendingUnread, work: work)
        }
        return nil
    }

    /// Starts sending the article titled `title` through `deliver` in the background (a reading
    /// service's delivery): submitted with `deliver`'s lines, or not, with the error's sentence.
    func start(_ title: String, through deliver: @escaping @Sendable () async -> Result<[String], NarrationError>) {
        let work = StudioWork(stage: "Sending")
        self.work = work
        work.start {
            switch await deliver() {
            case .success(let lines): work.finish(.queued(heading: "Submitted \"\(title)\"", lines: lines, remedy: nil))
            case .failure(let error): work.finish(.notQueued(error.message))
            }
        }
    }

    /// Where the work is: its stage and how far along, and its outcome once it is over (then it
    /// is no longer working).
    func poll() -> (stage: String, fraction: Double, outcome: StudioWork.Outcome?)? {
        guard let work else { return nil }
        let stage = work.stage
        let outcome = work.outcome
        if outcome != nil { self.work = nil }
        return (stage.name, stage.fraction, outcome)
    }

    /// Exports into the outbox and checks the file, then (when `destination` is given) delivers.
    /// - Parameter ready: the export made ready between takes, and the work making it now
    ///   (awaited, so that queue reuses what it makes rather than encode it alongside).
    private static func queueAndSubmit(
        _ article: Article, to destination: Destination?, library: NarrationLibrary, options: Studio.Options,
        ready: (ReadyExport, StudioTakeCheck?)?, sendingUnread: Bool, work: StudioWork
    ) async {
        if let (ready, preparing) = ready {
            await preparing?.exportSettled()
            ready.resume()
        }
        let queued: (job: OutboxJob, sidecar: Sidecar)
        do throws(NarrationError) {
            queued = try await BlockingWork.run(named: "narrate-studio-work") { () throws(NarrationError) in
                try library.queue(
                    article, profile: options.profile, language: options.language, ready: ready?.0, sendingUnread: sendingUnread
                ) { work.update(done: $0, total: $1) }
            }
        } catch {
            work.finish(.notQueued("\(error.message) Nothing was queued; the chunks are as they were."))
            return
        }
        // The loudness check reads the whole file through libsndfile and libebur128: blocking work.
        var lines = await BlockingWork.run(named: "narrate-studio-work") {
            summary(of: queued.job, sidecar: queued.sidecar, profile: options.profile, ready: ready?.0)
        }
        guard let destination else {
            work.finish(.queued(heading: "Queued \"\(article.title)\"", lines: lines, remedy: .pushOutboxTo))
            return
        }
        work.update(stage: "Sending", done: 0, total: queued.job.bytes)
        do throws(NarrationError) {
            let delivered = try await library.deliver(
                queued.job, to: destination, retrying: options.retry, progress: { work.update(done: $0, total: $1) })
            lines.append("Sent to \(delivered.remotePath ?? destination.description) and checked.")
            work.finish(.queued(heading: "Submitted \"\(article.title)\"", lines: lines, remedy: nil))
        } catch {
            lines.append(error.message)
            work.finish(.queued(heading: "Queued \"\(article.title)\", but not sent", lines: lines, remedy: .sendOutboxLater))
        }
    }

    /// Where the file is, what it is, and how it measures against the profile (as the export's
    /// own check measured it, when the export was made ready between takes).
    private static func summary(of job: OutboxJob, sidecar: Sidecar, profile: DeliveryProfile, ready: ReadyExport?) -> [String] {
        var lines = [
            "\(Timecode.precise(sidecar.duration)), \(Counted.phrase(sidecar.chapters ?? 0, "chapter")), \(profile.name) profile (\(sidecar.format)), \(job.bytes) bytes",
            "In the outbox: \(job.file.path)",
        ]
        if let made = ready?.segments(of: job.file), made.reused > 0 {
            let parts = made.encoded + made.reused
            lines.append("Made ready between takes: \(made.encoded) of its \(parts) parts were encoded after the last change.")
        }
        do throws(NarrationError) {
            var measured = ready?.measurements(of: job.file)
            if measured == nil { measured = try Analyzer.measure(file: job.file) }
            if let measured { lines.append(profile.verdict(on: measured).sentence) }
        } catch {
            lines.append("The loudness check could not read the file: \(error.message)")
        }
        return lines
    }
}
