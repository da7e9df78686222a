import Foundation
public import NarrationCore
import SQLEngines

/// The take check in a reading service: each take's check is a job of the catalog's queue
/// (`WorkQueue`, kind `kind`, subject the article's and the chunk's ids), so that a check is not
/// lost with the host that recorded the take.
///
/// - The studio asks for the checks of the takes it just committed (`ask`), before it measures
///   them and makes the export ready; the jobs are then due only once the queue's hand-off has
///   passed, so no other host takes them first.
/// - It then does them itself (`checkHere`), each under its job's lease.
/// - When the host dies first, another host's runner takes each job once its hand-off (or its
///   lease, when it was taken) runs out, brings the article's chunks home from the recordings
///   store, and checks the take (`check`).
///
/// Done twice, a check is kept once: the catalog keeps the first report of a take
/// (`Catalog.storeTakeCheck`), so hints the volunteer dismissed stay dismissed. A check that
/// cannot run here (no speech model) finishes its job with nothing kept, as the studio's own
/// check does: hints are a help, never a gate. A take deleted or replaced meanwhile is not checked.
public struct TakeCheckWork: Sendable {
    /// The queue's name for this work.
    public static let kind = "check-take"

    public let library: NarrationLibrary
    /// This host's hands on the catalog's queue.
    public let runner: WorkRunner
    /// The articles' language (see `Settings.language`).
    public let language: String
    /// The service's recordings store, where this host finds the chunks another host recorded.
    public let recordings: RecordingStore?

    public init(library: NarrationLibrary, runner: WorkRunner, language: String, recordings: RecordingStore? = nil) {
        self.library = library
        self.runner = runner
        self.language = language
        self.recordings = recordings
    }

    /// The job's subject for `chunk` of `article`.
    public static func subject(_ chunk: ChunkID, of article: ArticleID) -> String { "\(article.rawValue)/\(chunk.rawValue)" }

    /// Asks for a check of each take of `article` that has none yet (the takes just committed),
    /// due once the runner's hand-off has passed: from now on a check is not lost with this host.
    /// Blocks on the catalog: call it from blocking work.
    /// - Returns: the takes asked for, in the article's order.
    @discardableResult
    public func ask(for article: Article) throws(NarrationError) -> [ChunkID] {
        let takes = try library.uncheckedTakes(of: article).map(\.id)
        let now = Date().timeIntervalSince1970
        let queue = runner.queue
        do throws(SQLEngineError) {
            for chunk in takes {
                try queue.enqueue(Self.kind, subject: Self.subject(chunk, of: article.id), due: now + runner.handOff, now: now)
            }
        } catch {
            throw Catalog.translate(error, path: library.catalog.path, dialect: library.catalog.engine.dialect)
        }
        return takes
    }

    /// Checks `takes` of `article` here, each as its job (asked for by `ask`, or asked now).
    /// - Returns: the checks made; a take whose job another host holds, or whose check failed
    ///   (its job is tried again later), is left out.
    public func checkHere(_ takes: [ChunkID], of article: Article) async -> [TakeCheck] {
        var checks: [TakeCheck] = []
        for chunk in takes {
            let subject = Self.subject(chunk, of: article.id)
            if let check = try? await runner.perform(Self.kind, subject: subject, { job throws(NarrationError) in try await self.check(job.subject) }) {
                checks += check.map { [$0] } ?? []
            }
        }
        return checks
    }

    /// Checks the take `subject` names, bringing its article's chunks home first.
    /// - Returns: the check kept; nil when there is nothing to check (the article or the take is
    ///   gone, the take was checked already) or no check can run here (no speech model).
    /// - Throws: `catalogCorrupt` for a subject narrate never makes; the recordings store's and
    ///   the catalog's errors (the queue tries again later: the take may not be in the store yet).
    public func check(_ subject: String) async throws(NarrationError) -> TakeCheck? {
        let parts = subject.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, parts.allSatisfy(Identifier.isWellFormed) else {
            throw NarrationError(.catalogCorrupt, "The catalog's queue of work names a take \"\(Catalog.quoted(subject))\" that narrate never makes. \(Catalog.damagedFix)")
        }
        let (articleID, chunk) = (ArticleID(parts[0]), ChunkID(parts[1]))
        let library = self.library
        let article: Article
        do throws(NarrationError) {
            article = try library.article(articleID.rawValue)
        } catch where error.kind == .unknownArticle {
            return nil  // deleted meanwhile
        }
        // Nothing is fetched from the store for a take gone or checked meanwhile; the check itself
        // lists the takes again, as they are once the fetch is over.
        let takes = try await BlockingWork.run(named: "narrate-take-check") { () throws(NarrationError) in try library.uncheckedTakes(of: article).map(\.id) }
        guard takes.contains(chunk) else { return nil }
        if let recordings { try await library.bringChunksHome(of: articleID, from: recordings) }
        let language = self.language
        return try await BlockingWork.run(named: "narrate-take-check") { () throws(NarrationError) -> TakeCheck? in
            do throws(NarrationError) {
                return try library.checkTakes(of: article, language: language, only: [chunk]).first
            } catch where error.kind == .speechRecognition {
                return nil
            }
        }
    }

    /// Has the runner do this work whenever a job of it is due (a dead host's, or one waiting to be tried again).
    public func handleDueJobs() {
        runner.handle(Self.kind) { job throws(NarrationError) in _ = try await check(job.subject) }
    }
}
