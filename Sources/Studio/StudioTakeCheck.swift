import Foundation
import Narration
import NarrationCore
import Synchronization

/// What follows a committed take, run on a thread of its own so that it never delays the next
/// take, as `record`'s after-take process does: the new chunk's measure (what mastering reads
/// instead of the audio, kept in the catalog) and, when asked, the take check of the studio's
/// article; `tick()` collects what the check found.
final class StudioTakeCheck: Sendable {
    private let found = Mutex<[TakeCheck]?>(nil)

    /// Starts measuring the article's chunks not measured yet, then (with `checking`) checking
    /// its takes not checked yet.
    init(library: NarrationLibrary, article: Article, language: String, checking: Bool) {
        let thread = Thread { [self] in
            // A measure that cannot be taken now is taken when mastering first needs it.
            try? library.measureChunks(of: article)
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
}
