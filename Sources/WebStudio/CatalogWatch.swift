import Narration
import NarrationCore

/// Notices what another narrate command changed in the catalog (a chunk deleted from a terminal
/// while the page is open), from SQLite's `PRAGMA data_version`: one number, read a few times a
/// second and before every page message, never a table.
struct CatalogWatch {
    let library: NarrationLibrary
    /// How often the number is read when no message comes.
    let interval: Double
    private var seen: Int?
    private var pending = false
    private var lastLook: Double

    init(library: NarrationLibrary, interval: Double = 0.25) {
        self.library = library
        self.interval = interval
        seen = try? library.catalog.dataVersion()
        lastLook = MonotonicClock.now()
    }

    /// Whether the catalog changed elsewhere and the studio has not caught up with it yet. Reads
    /// the number when `checkingNow` or when `interval` has passed since the last look.
    mutating func changed(checkingNow: Bool) -> Bool {
        let now = MonotonicClock.now()
        if checkingNow || now - lastLook >= interval {
            lastLook = now
            if let version = try? library.catalog.dataVersion(), version != seen {
                seen = version
                pending = true
            }
        }
        return pending
    }

    /// The studio has read the catalog again.
    mutating func caughtUp() { pending = false }
}
