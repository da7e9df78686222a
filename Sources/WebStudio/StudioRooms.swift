import Foundation
import Narration
import NarrationCore
import Synchronization

/// A reading service's studios: one live studio (`StudioHost`) per article being worked on,
/// opened for the first page that asks for the article and shared by every page of it (a
/// volunteer with the page open twice, a coordinator looking in), so that a page hears only of
/// its own article. A studio nobody has had open for `idleClose` is closed as the server's
/// shutdown closes one: a take under way is stopped and kept first. At most `limit` are open.
final class StudioRooms: Sendable {
    /// The most studios open at once: the pages of 40 volunteers at once, each on an article.
    static let limit = 40
    /// Why a page asking for an article it may not see (or none such) gets no studio: a
    /// WebSocket close reason (at most 123 bytes).
    static let notYours = "This article is not one of yours: open your articles from your home page."
    /// Why a page found no studio: a WebSocket close reason (at most 123 bytes).
    static let full = "The server has 40 articles open in studios, the most it keeps: try again when someone closes theirs."

    private struct Room {
        var host: StudioHost
        var pages = 0
        var idleSince: ContinuousClock.Instant?
    }

    private let rooms = Mutex<[ArticleID: Room]>([:])
    /// The open pages of each article, told when its desk record changes (`accessChanged`).
    private let pages = Mutex<[ArticleID: [ObjectIdentifier: LivePage]]>([:])
    private let make: @Sendable (Article) -> StudioHost
    let idleClose: Duration

    /// - Parameters:
    ///   - idleClose: how long a studio stays open with no page.
    ///   - make: opens the studio of an article.
    init(idleClose: Duration, make: @escaping @Sendable (Article) -> StudioHost) {
        self.idleClose = idleClose
        self.make = make
    }

    /// A page of `article` arrived: its studio, opened if none is; nil when `limit` studios are
    /// open already. Each call is matched by one `leave`.
    func enter(_ article: Article) -> StudioHost? {
        rooms.withLock { rooms in
            if var room = rooms[article.id] {
                room.pages += 1
                room.idleSince = nil
                rooms[article.id] = room
                return room.host
            }
            guard rooms.count < Self.limit else { return nil }
            let host = make(article)
            rooms[article.id] = Room(host: host, pages: 1)
            return host
        }
    }

    /// A page of `article` left; its studio stays open for `idleClose` without pages.
    func leave(_ article: ArticleID) {
        rooms.withLock { rooms in
            guard var room = rooms[article] else { return }
            room.pages = max(0, room.pages - 1)
            if room.pages == 0 { room.idleSince = .now }
            rooms[article] = room
        }
    }

    /// `page` is open on `article`: it is told when the article's desk record changes, until `forget`.
    func watch(_ page: LivePage, on article: ArticleID) {
        pages.withLock { $0[article, default: [:]][ObjectIdentifier(page)] = page }
    }

    func forget(_ page: LivePage, on article: ArticleID) {
        pages.withLock { pages in
            pages[article]?.removeValue(forKey: ObjectIdentifier(page))
            if pages[article]?.isEmpty == true { pages.removeValue(forKey: article) }
        }
    }

    /// `article`'s desk record changed (assigned to another, left open, withdrawn): each of its
    /// open pages checks at once whether its account still may work on it.
    func accessChanged(_ article: ArticleID) {
        for page in pages.withLock({ Array(($0[article] ?? [:]).values) }) { page.recheck() }
    }

    /// The articles whose studios are open.
    var openArticles: Set<ArticleID> { rooms.withLock { Set($0.keys) } }

    /// Closes the studios without pages for `idleClose` at `now`, each as shutdown does (a take
    /// is stopped and kept first); returns their articles.
    @discardableResult
    func closeIdle(now: ContinuousClock.Instant = .now) async -> [ArticleID] {
        let idle = rooms.withLock { rooms in
            let idle = rooms.filter { _, room in room.pages == 0 && room.idleSince.map { now - $0 >= idleClose } == true }
            for article in idle.keys { rooms.removeValue(forKey: article) }
            return idle
        }
        for room in idle.values { await room.host.shutDown() }
        return Array(idle.keys)
    }

    /// Ends every studio's pages (the server is stopping).
    func closePages() {
        for room in rooms.withLock({ Array($0.values) }) { room.host.closePages() }
    }

    /// Closes every studio (the server is stopping): takes under way are stopped and kept.
    func shutDown() async {
        let all = rooms.withLock { rooms in
            defer { rooms = [:] }
            return Array(rooms.values)
        }
        for room in all { await room.host.shutDown() }
    }
}
