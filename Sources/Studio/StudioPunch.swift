import Narration
import NarrationAudio
import NarrationCore
import Synchronization

/// The start of a punch-and-roll take in the studio: its pre-roll played as blocking work
/// (`BlockingWork`), then the take started, so that the screen keeps drawing while the volunteer
/// listens. Nothing waits for it: the session polls `isListening` and `error`, and a cancel
/// settles at once whether the take started.
final class StudioPunch: Sendable {
    private struct Progress {
        var cancelled = false
        var listening = true
        var failure: NarrationError?
    }

    private let progress = Mutex(Progress())

    /// Plays `take.preRoll` through the output `open` makes, then starts `take` unless cancelled
    /// meanwhile.
    init(take: Recording, output open: @escaping @Sendable (AudioFormat) throws(NarrationError) -> any PlaybackOutput) {
        Task.detached { [self] in
            await BlockingWork.run(named: "narrate-pre-roll") { [self] in
                do throws(NarrationError) {
                    if let preRoll = take.preRoll, !preRoll.frames.isEmpty {
                        _ = try preRoll.play(on: try open(preRoll.format)) { self.progress.withLock { $0.cancelled } }
                    }
                    // Started under the lock, so that `cancel()` knows afterwards whether it was.
                    try progress.withLock { (progress) throws(NarrationError) in
                        if !progress.cancelled { try take.start() }
                    }
                } catch {
                    progress.withLock { $0.failure = error }
                }
                progress.withLock { $0.listening = false }
            }
        }
    }

    /// Whether the pre-roll is still playing (or the take is being started).
    var isListening: Bool { progress.withLock { $0.listening } }

    /// Why the pre-roll or the take's start failed, once it has.
    var error: NarrationError? { progress.withLock { $0.failure } }

    /// Stops the pre-roll if it still plays: afterwards the take has either started or never
    /// will. A take started meanwhile is the caller's to stop.
    func cancel() {
        progress.withLock { $0.cancelled = true }
    }
}
