import Foundation
import Narration
import NarrationCore
import Synchronization

/// What follows a committed take, run on a thread of its own so that it never delays the next
/// take, as `record`'s after-take process does: the new chunk's measure (what mastering reads
/// instead of the audio, kept in the catalog), then the export made ready for queue (`ReadyExport`,
/// with a profile that has one), then, when asked, the take check of the studio's article;
/// `tick()` collects what the check found.
final class StudioTakeCheck: Sendable {
    private let found = Mutex<[TakeCheck]?>(nil)
    private let prepared = Mutex<Bool?>(nil)
    private let preparing = DispatchSemaphore(value: 0)

    /// Starts measuring the article's chunks not measured yet, then bringing `ready` up to date,
    /// then (with `checking`) checking its takes not checked yet.
    init(library: NarrationLibrary, article: Article, language: String, checking: Bool, ready: (ReadyExport, DeliveryProfile)?) {
        let thread = Thread { [self] in
            // A measure that cannot be taken now is taken when mastering first needs it.
            try? library.measureChunks(of: article)
            // An export that cannot be made ready (a take started, a chunk deleted meanwhile)
            // is made by queue as usual.
            if let (ready, profile) = ready {
                ready.resume()
                let made = (try? library.prepareExport(article, profile: profile, ready: ready)) != nil
                self.prepared.withLock { $0 = made }
            }
            self.preparing.signal()
            // A check that cannot run (no speech model) leaves the takes unchecked: hints are a help, never a gate.
            let checks = checking ? (try? library.checkTakes(of: article, language: language)) ?? [] : []
            self.found.withLock { $0 = checks }
        }
        thread.name = "narrate-take-check"
        thread.qualityOfService = .utility
        thread.start()
    }

    /// The checks made, once the check is over; nil while it runs.
    var checks: [TakeCheck]? { found.withLock { $0 } }

    /// Whether the export was made ready: nil while it is being made (or there is none to make).
    var exportReady: Bool? { prepared.withLock { $0 } }

    /// Waits until the export made ready is done (made, failed or stopped): queue then reuses it
    /// rather than encode the same segments beside it.
    func waitForExport() {
        preparing.wait()
        preparing.signal()
    }
}
