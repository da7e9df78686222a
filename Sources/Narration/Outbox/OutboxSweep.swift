import Foundation
import NarrationCore

/// Tidies the outbox when a library is opened, so that what a killed or failed command left is
/// gone by the next command: the folder of a queue that was killed while exporting (its job
/// row is dropped too), the folders of retired jobs that nobody is sending, folders the catalog
/// does not know, and temporary files nobody writes any more.
enum OutboxSweep {
    /// - Returns: how many folders and files were removed.
    @discardableResult
    static func run(root: DataRoot, catalog: Catalog) -> Int {
        let outbox = root.url.appendingPathComponent("outbox", isDirectory: true)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: outbox.path), let rows = try? catalog.outbox() else { return 0 }
        var removed = FileSystem.removeAbandonedPartials(in: outbox)
        let byID = Dictionary(rows.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })

        // A queue killed while exporting: its article's lock is free again. In a catalog several
        // hosts share, only an export whose folder is on this host can be this host's: another
        // host's may be under way, behind a lock this host cannot see.
        for row in rows where row.state == OutboxJob.State.exporting.rawValue {
            if catalog.isShared, !FileManager.default.fileExists(atPath: outbox.appendingPathComponent(row.id, isDirectory: true).path) { continue }
            guard Identifier.isWellFormed(row.articleId),
                let lock = try? ArticleLock.tryAcquire(root.lockURL(ArticleID(row.articleId)), purpose: .recovery)
            else { continue }
            if (try? FileSystem.removeTree(outbox.appendingPathComponent(row.id, isDirectory: true))) != nil {
                try? catalog.deleteJob(row.id)
                removed += 1
            }
            withExtendedLifetime(lock) {}
        }

        for name in names where Identifier.isWellFormed(name) {
            let folder = outbox.appendingPathComponent(name, isDirectory: true)
            guard let row = byID[name] else {
                // Nothing in the catalog refers to it: a queue always adds its job before the folder.
                if (try? FileSystem.removeTree(folder)) != nil { removed += 1 }
                continue
            }
            switch OutboxJob.State(rawValue: row.state) {
            case .queued, .delivered:
                removed += FileSystem.removeAbandonedPartials(in: folder)
            case .exporting:
                continue
            case .retired, nil:
                guard let claim = DeliveryClaim.tryAcquire(ArticleID(row.articleId), root: root) else { continue }
                if (try? FileSystem.removeTree(folder)) != nil { removed += 1 }
                withExtendedLifetime(claim) {}
            }
        }
        return removed
    }
}
