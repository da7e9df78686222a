import Foundation
import Narration
import NarrationCore
import Synchronization

/// The take check of the studio's article, run on a thread of its own after a take is committed
/// so that it never delays the next take; `tick()` collects what it found.
final class StudioTakeCheck: Sendable {
    private let found = Mutex<[TakeCheck]?>(nil)

    /// Starts checking the article's takes not checked yet.
    init(library: NarrationLibrary, article: Article, language: String) {
        let thread = Thread { [self] in
            // A check that cannot run (no speech model) leaves the takes unchecked: hints are a help, never a gate.
            let checks = (try? library.checkTakes(of: article, language: language)) ?? []
            self.found.withLock { $0 = checks }
        }
        thread.name = "narrate-take-check"
        thread.qualityOfService = .utility
        thread.start()
    }

    /// The checks made, once the check is over; nil while it runs.
    var checks: [TakeCheck]? { found.withLock { $0 } }
}
