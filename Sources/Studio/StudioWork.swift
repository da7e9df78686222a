import Foundation
import Narration
import NarrationCore
import Synchronization

/// Queue or submit running in the background while the studio screen keeps drawing: one task,
/// whose blocking parts (the export and the loudness check of its file block in libsndfile, LAME
/// and libebur128) run on a thread of their own (`BlockingWork`) and whose upload is awaited. The screen reads the stage, the progress and, at
/// the end, the outcome.
final class StudioWork: Sendable {
    /// How the work ended.
    enum Outcome: Sendable {
        /// The export failed: nothing was queued and the article stays open; the sentence says why.
        case notQueued(String)
        /// Queued (and perhaps sent): what the result screen says.
        case queued(heading: String, lines: [String], remedy: Remedy?)
    }

    private struct Progress {
        var stage: String
        var fraction: Double = 0
        var outcome: Outcome?
    }

    private let progress: Mutex<Progress>

    init(stage: String) {
        progress = Mutex(Progress(stage: stage))
    }

    var stage: (name: String, fraction: Double) { progress.withLock { ($0.stage, $0.fraction) } }
    var outcome: Outcome? { progress.withLock { $0.outcome } }

    func update(stage: String? = nil, done: Int, total: Int) {
        progress.withLock { state in
            if let stage { state.stage = stage }
            state.fraction = total > 0 ? Double(done) / Double(total) : 0
        }
    }

    func finish(_ outcome: Outcome) {
        progress.withLock { $0.outcome = outcome }
    }

    /// Runs `body` as a task of its own, on a thread of its own (`ThreadExecutor`): it starts at
    /// once even when every thread of the cooperative pool is busy.
    func start(_ body: @escaping @Sendable () async -> Void) {
        let executor = ThreadExecutor(named: "narrate-studio-work")
        Task.detached(executorPreference: executor) {
            await body()
            executor.shutdown()
        }
    }
}
