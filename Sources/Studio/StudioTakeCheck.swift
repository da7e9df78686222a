import Narration
import NarrationCore
import Synchronization

/// What follows a committed take, run as blocking work (`BlockingWork`) so that it never delays
/// the next take, as `record`'s after-take process does: the new chunk's measure (what mastering
/// reads instead of the audio, kept in the catalog), then the export made ready for queue
/// (`ReadyExport`, with a profile that has one), then, when asked, the take check of the studio's
/// article. The session polls what it found; queue awaits the export (`exportSettled()`).
final class StudioTakeCheck: Sendable {
    private struct Progress {
        /// Whether the export was made ready: nil while it is being made (or there is none to make).
        var prepared: Bool?
        /// Whether the export is settled (made, failed, stopped or not to be made).
        var exportSettled = false
        /// Tasks waiting for the export to settle.
        var waiting: [CheckedContinuation<Void, Never>] = []
        /// The checks made, once the check is over.
        var found: [TakeCheck]?
    }

    private let progress = Mutex(Progress())

    /// Starts measuring the article's chunks not measured yet, then bringing `ready` up to date,
    /// then (with `checking`) checking its takes not checked yet: on this host alone, or, with
    /// `queue` (a reading service), as jobs of the catalog's queue asked for before anything
    /// else, which another host finishes if this one dies.
    init(library: NarrationLibrary, article: Article, language: String, checking: Bool, queue: TakeCheckWork? = nil, ready: (ReadyExport, DeliveryProfile)?) {
        Task.detached(priority: .utility) { [self] in
            let asked = await BlockingWork.run(named: "narrate-take-check") { [self] () -> [ChunkID]? in
                // A check that cannot be asked for (the catalog away) is made here all the same.
                let asked = checking ? queue.flatMap { try? $0.ask(for: article) } : nil
                // A measure that cannot be taken now is taken when mastering first needs it.
                try? library.measureChunks(of: article)
                // An export that cannot be made ready (a take started, a chunk deleted meanwhile)
                // is made by queue as usual.
                var made: Bool?
                if let (ready, profile) = ready {
                    ready.resume()
                    made = (try? library.prepareExport(article, profile: profile, ready: ready)) != nil
                }
                let waiting = progress.withLock { progress in
                    progress.prepared = made
                    progress.exportSettled = true
                    defer { progress.waiting = [] }
                    return progress.waiting
                }
                for task in waiting { task.resume() }
                return asked
            }
            let checks: [TakeCheck]
            if let queue, let asked {
                checks = await queue.checkHere(asked, of: article)
            } else {
                // A check that cannot run (no speech model) leaves the takes unchecked: hints are a help, never a gate.
                checks = checking ? await BlockingWork.run(named: "narrate-take-check") { (try? library.checkTakes(of: article, language: language)) ?? [] } : []
            }
            progress.withLock { $0.found = checks }
        }
    }

    /// The checks made, once the check is over; nil while it runs.
    var checks: [TakeCheck]? { progress.withLock { $0.found } }

    /// Whether the export was made ready: nil while it is being made (or there is none to make).
    var exportReady: Bool? { progress.withLock { $0.prepared } }

    /// Returns once the export made ready is settled (made, failed or stopped): queue then reuses
    /// it rather than encode the same segments beside it. Suspends; blocks no thread.
    func exportSettled() async {
        await withCheckedContinuation { (task: CheckedContinuation<Void, Never>) in
            let settled = progress.withLock { progress in
                if !progress.exportSettled { progress.waiting.append(task) }
                return progress.exportSettled
            }
            if settled { task.resume() }
        }
    }
}
