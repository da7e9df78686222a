public import Narration
import NarrationCore

/// Notices what another narrate command changed in the catalog (a chunk deleted from another
/// terminal while a studio is open), from SQLite's `PRAGMA data_version`: one number, read a few
/// times a second and before every key or page message, never a table. A studio then calls
/// `Studio.reloadAfterOutsideChange()`.
public struct CatalogWatch {
    private let library: NarrationLibrary
    /// How often the number is read when no message comes.
    private let interval: Double
    private var seen: Int?
    private var pending = false
    private var lastLook: Double

    public init(library: NarrationLibrary, interval: Double = 0.25) {
        self.library = library
        self.interval = interval
        seen = try? library.records.dataVersion()
        lastLook = MonotonicClock.now()
    }

    /// Whether the catalog changed elsewhere and the studio has not caught up with it yet. Reads
    /// the number when `checkingNow` or when `interval` has passed since the last look.
    public mutating func changed(checkingNow: Bool) -> Bool {
        let now = MonotonicClock.now()
        if checkingNow || now - lastLook >= interval {
            lastLook = now
            if let version = try? library.records.dataVersion(), version != seen {
                seen = version
                pending = true
            }
        }
        return pending
    }

    /// The studio has read the catalog again.
    public mutating func caughtUp() { pending = false }
}
