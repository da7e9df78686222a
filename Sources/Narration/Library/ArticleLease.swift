import Foundation
import NarrationCore
import Synchronization

/// One host's hold on an article it records into, when several hosts of a reading service share
/// the catalog (`Catalog.isShared`): the article's file lock (`ArticleLock`) keeps other
/// processes of this host out, and this row in the catalog (`article_lease`) keeps the other
/// hosts out, so that a page's take is recorded by one host at a time.
///
/// The hold lasts `length` and is renewed every quarter of it by a task of its own until
/// `end()`; a host that dies stops renewing, and another host may take the article once the hold
/// has run out (a page's take then goes on there from the pieces the page kept). On a catalog
/// only this host uses (SQLite) there is no hold: the file lock is enough.
final class ArticleLease: Sendable {
    /// How long a hold lasts unless renewed: the longest a page waits to go on with its take
    /// through another host after its host died.
    static let length: TimeInterval = 10

    /// This process among the service's hosts: the machine's name, the process id and a random
    /// tag, so that a host restarted is another host, which waits for the old one's hold to run out.
    static let thisHost = "\(ProcessInfo.processInfo.hostName) \(ProcessInfo.processInfo.processIdentifier) \(Identifier.random(length: 4))"

    let article: ArticleID
    let host: String
    private let catalog: Catalog
    /// Renews the hold until cancelled by `end()`.
    private let renewing: Task<Void, Never>
    private let isEnded = Atomic<Bool>(false)

    /// Takes `host`'s hold on `article` in a shared catalog; nil in a catalog of one host.
    /// - Throws: `articleBusy` naming the host that holds it; the catalog's errors.
    static func take(_ article: Article, host: String, catalog: Catalog, now: Date = Date()) throws(NarrationError) -> ArticleLease? {
        guard catalog.isShared else { return nil }
        if let holder = try catalog.takeLease(on: article.id, host: host, until: now.addingTimeInterval(length), now: now) {
            throw busy(article, holder: holder.host)
        }
        return ArticleLease(article: article.id, host: host, catalog: catalog)
    }

    /// "Article … is being recorded through another server of the service (HOST) just now. …"
    static func busy(_ article: Article, holder: String) -> NarrationError {
        let machine = holder.split(separator: " ").first.map(String.init) ?? holder
        return NarrationError(
            .articleBusy,
            "Article \"\(article.title)\" (\(article.id)) is being recorded through another server of the service (\(Catalog.quoted(machine, limit: 64))) just now. Try again in a few seconds.")
    }

    /// Starts renewing the hold every quarter of `length` until `end()`. A renewal that fails
    /// (the catalog is away a moment) is tried again at the next; the take records on meanwhile.
    private init(article: ArticleID, host: String, catalog: Catalog) {
        self.article = article
        self.host = host
        self.catalog = catalog
        renewing = Task.detached {
            while (try? await Task.sleep(for: .seconds(Self.length / 4))) != nil {
                _ = try? await BlockingWork.run(named: "narrate-lease") { () throws(NarrationError) in
                    try catalog.renewLease(on: article, host: host, until: Date().addingTimeInterval(Self.length))
                }
            }
        }
    }

    /// Gives the article back: the renewing stops and the row goes (the first call; later
    /// ones do nothing). A hold let go of without `end()` ends here too.
    func end() {
        guard !isEnded.exchange(true, ordering: .acquiringAndReleasing) else { return }
        renewing.cancel()
        try? catalog.endLease(on: article, host: host)
    }

    deinit { end() }
}
