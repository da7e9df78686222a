public import Foundation
public import Narration
public import NarrationCore
import Synchronization

/// A `DeskStore` in memory, for fast tests of the desk's rules and to keep the protocol honest:
/// everything `DeskService` needs is in the protocol, not in SQL. Each method takes one lock, so
/// its compare-and-set and its audit line are one step, as in a transaction.
public final class InMemoryDeskStore: DeskStore {
    private struct State {
        var entries: [ArticleID: DeskEntry] = [:]
        var audit: [AuditEntry] = []

        mutating func append(_ entry: AuditEntry) {
            audit.append(AuditEntry(
                sequence: Int64(audit.count + 1), at: entry.at, actor: entry.actor, action: entry.action, account: entry.account, detail: entry.detail))
        }
    }

    private let state = Mutex(State())

    public init() {}

    public func addEntry(_ entry: DeskEntry, audit: AuditEntry) throws(NarrationError) {
        try state.withLock { (state) throws(NarrationError) in
            guard state.entries[entry.article] == nil else { throw .usage("The article \(entry.article) is on the desk already.") }
            state.entries[entry.article] = Self.stored(entry)
            state.append(audit)
        }
    }

    public func entry(_ article: ArticleID) throws(NarrationError) -> DeskEntry? {
        state.withLock { $0.entries[article] }
    }

    public func entries(_ filter: DeskFilter) throws(NarrationError) -> [DeskEntry] {
        state.withLock { $0.entries.values.filter(filter.admits).sorted(by: DeskFilter.precedes) }
    }

    public func replaceEntry(_ entry: DeskEntry, audit: AuditEntry) throws(NarrationError) -> Bool {
        state.withLock { state in
            guard let stored = state.entries[entry.article], stored.version == entry.version else { return false }
            var saved = Self.stored(entry)
            saved.version += 1
            state.entries[entry.article] = saved
            state.append(audit)
            return true
        }
    }

    public func auditLog(account: AccountName?, since: Date?) throws(NarrationError) -> [AuditEntry] {
        state.withLock { state in
            state.audit.filter { entry in (account == nil || entry.account == account) && (since.map { entry.at >= $0 } ?? true) }
        }
    }

    /// `entry` as the catalog would give it back: times in whole seconds.
    private static func stored(_ entry: DeskEntry) -> DeskEntry {
        func whole(_ date: Date) -> Date { Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)) }
        var copy = DeskEntry(
            article: entry.article, title: entry.title, publication: entry.publication, section: entry.section, deadline: entry.deadline,
            listenUntil: entry.listenUntil, priority: entry.priority, state: entry.state, assignee: entry.assignee, taking: entry.taking,
            addedAt: whole(entry.addedAt), changedAt: whole(entry.changedAt), version: entry.version)
        copy.version = entry.version
        return copy
    }
}
