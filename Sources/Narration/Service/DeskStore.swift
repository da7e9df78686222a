public import Foundation
public import NarrationCore

/// Where a reading service keeps its articles' service records (`DeskEntry`), beside the
/// articles themselves and the audit log.
///
/// The catalog keeps them today (`Catalog`, in SQLite), in plain SQL that PostgreSQL accepts
/// too. Each change is one transaction with its audit line, and every change of a record is a
/// compare-and-set on its `version`: of two changes made from the same reading (two volunteers
/// claiming at once), exactly one is kept.
public protocol DeskStore: Sendable {
    /// Adds the record of an article that exists already (with its title and publication).
    /// - Throws: `usage` when the article has a record already (nothing is written).
    func addEntry(_ entry: DeskEntry, audit: AuditEntry) throws(NarrationError)

    /// The record of `article`, or nil when it is not on the desk.
    func entry(_ article: ArticleID) throws(NarrationError) -> DeskEntry?

    /// The records `filter` lets through, most urgent first: by priority, then deadline (none
    /// last), then when added.
    func entries(_ filter: DeskFilter) throws(NarrationError) -> [DeskEntry]

    /// The records `filter` lets through from `offset` on, at most `limit` of them, in the order
    /// of `entries(_:)`, and how many it lets through in all.
    func entries(_ filter: DeskFilter, offset: Int, limit: Int) throws(NarrationError) -> (entries: [DeskEntry], total: Int)

    /// Saves `entry` with its version one higher, only if the stored record's version is still
    /// `entry.version`; writes `audit` with it. Returns whether it was saved.
    func replaceEntry(_ entry: DeskEntry, audit: AuditEntry) throws(NarrationError) -> Bool

    /// The audit log, oldest first: all of it, or the entries about `account`, from `since` on.
    func auditLog(account: AccountName?, since: Date?) throws(NarrationError) -> [AuditEntry]
}

extension DeskStore {
    /// A page cut from `entries(_:)`: for stores in memory; the catalog pages in SQL.
    public func entries(_ filter: DeskFilter, offset: Int, limit: Int) throws(NarrationError) -> (entries: [DeskEntry], total: Int) {
        let all = try entries(filter)
        let start = min(all.count, max(0, offset))
        return (Array(all[start..<min(all.count, start + max(0, min(limit, all.count)))]), all.count)
    }
}

/// Which records a desk listing shows; every condition given must hold.
public struct DeskFilter: Sendable, Equatable {
    public var publication: String?
    public var state: DeskState?
    /// Assigned to or claimed by this account.
    public var volunteer: AccountName?
    /// With a deadline that passes at or before this moment (a deadline of a whole day passes
    /// when the next day begins, so "before 3 December" takes in what is due on the 2nd).
    public var dueBefore: Date?
    /// Late at this moment (`DeskEntry.isLate(at:)`).
    public var lateAt: Date?

    public init(publication: String? = nil, state: DeskState? = nil, volunteer: AccountName? = nil, dueBefore: Date? = nil, lateAt: Date? = nil) {
        self.publication = publication
        self.state = state
        self.volunteer = volunteer
        self.dueBefore = dueBefore
        self.lateAt = lateAt
    }

    /// Whether `entry` passes: the rule both stores follow (the catalog in SQL).
    public func admits(_ entry: DeskEntry) -> Bool {
        if let publication, entry.publication != publication { return false }
        if let state, entry.state != state { return false }
        if let volunteer, entry.assignee != volunteer { return false }
        if let dueBefore { guard let deadline = entry.deadline, deadline.instant <= dueBefore else { return false } }
        if let lateAt, !entry.isLate(at: lateAt) { return false }
        return true
    }

    /// The order of a listing: priority (urgent first), deadline (none last), when added, id.
    public static func precedes(_ a: DeskEntry, _ b: DeskEntry) -> Bool {
        if a.priority != b.priority { return a.priority > b.priority }
        switch (a.deadline, b.deadline) {
        case (let x?, let y?) where x.instant != y.instant: return x.instant < y.instant
        case (.some, nil): return true
        case (nil, .some): return false
        default: break
        }
        if a.addedAt != b.addedAt { return a.addedAt < b.addedAt }
        return a.article.rawValue < b.article.rawValue
    }
}
