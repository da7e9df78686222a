public import Narration
public import NarrationCore

/// Notices what another narrate command or host changed in the catalog (a chunk deleted from
/// another terminal while a studio is open, a take's check made by another host), from one
/// number read a few times a second and before every key or page message
/// (`LibraryRecords.changeNumber(of:)`): SQLite's `PRAGMA data_version`, which reads no table;
/// on PostgreSQL the open article's change number, one row. A studio then calls
/// `Studio.reloadAfterOutsideChange()`, which on PostgreSQL also follows the studio's own
/// changes, finding nothing new.
public struct CatalogWatch {
    private let library: NarrationLibrary
    /// How often the number is read when no message comes.
    private let interval: Double
    private var seen: Int?
    /// The article `seen` is of.
    private var watched: ArticleID?
    private var pending = false
    private var lastLook: Double

    public init(library: NarrationLibrary, interval: Double = 0.25) {
        self.library = library
        self.interval = interval
        lastLook = MonotonicClock.now()
    }

    /// Whether the catalog changed elsewhere and the studio open on `article` has not caught up
    /// with it yet. Reads the number when `checkingNow` or when `interval` has passed since the
    /// last look; the first look only learns it.
    public mutating func changed(checkingNow: Bool, article: ArticleID?) -> Bool {
        let now = MonotonicClock.now()
        if seen == nil || checkingNow || now - lastLook >= interval || article != watched {
            lastLook = now
            if let number = try? library.records.changeNumber(of: article) {
                if let seen, number != seen || article != watched { pending = true }
                seen = number
                watched = article
            }
        }
        return pending
    }

    /// The studio has read the catalog again.
    public mutating func caughtUp() { pending = false }
}
