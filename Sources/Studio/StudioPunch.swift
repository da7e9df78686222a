import Foundation
import Narration
import NarrationAudio
import NarrationCore
import Synchronization

/// The start of a punch-and-roll take in the studio: its pre-roll played on a thread of its own,
/// then the take started, so that the screen keeps drawing while the volunteer listens.
final class StudioPunch: Sendable {
    private let cancelled = Atomic<Bool>(false)
    private let listening = Atomic<Bool>(true)
    private let ended = DispatchSemaphore(value: 0)
    private let failure = Mutex<NarrationError?>(nil)

    /// Plays `take.preRoll` through `device`, then starts `take` unless cancelled meanwhile.
    init(take: Recording, device: String, definitions: ALSADefinitions?) {
        let thread = Thread { [self] in
            do throws(NarrationError) {
                _ = try take.preRoll?.play(device: device, definitions: definitions) { self.cancelled.load(ordering: .acquiring) }
                if !cancelled.load(ordering: .acquiring) { try take.start() }
            } catch {
                failure.withLock { $0 = error }
            }
            listening.store(false, ordering: .releasing)
            ended.signal()
        }
        thread.name = "narrate-pre-roll"
        thread.start()
    }

    /// Whether the pre-roll is still playing.
    var isListening: Bool { listening.load(ordering: .acquiring) }

    /// Why the pre-roll or the take's start failed, once it has.
    var error: NarrationError? { failure.withLock { $0 } }

    /// Stops the pre-roll if it still plays and waits until the thread is done: afterwards the
    /// take has either started or never will.
    func cancel() {
        cancelled.store(true, ordering: .releasing)
        ended.wait()
        ended.signal()  // a second cancel does not wait for ever
    }
}
