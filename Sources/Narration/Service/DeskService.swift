public import Foundation
public import NarrationCore

/// The coordinator's desk: articles put on it, assigned or left open, claimed, moved through
/// their life (`DeskState`), reprioritised, withdrawn and expired, with the storage behind
/// `DeskStore`.
///
/// Every call names who asks (`ServiceActor`), is checked with `Permissions.may` on how the
/// article stands to them (`DeskEntry.relation(to:)`), then with the pure transition
/// (`DeskState.after`), and writes its audit line in the same transaction as the change. A
/// refusal changes nothing. The world comes in as arguments: the clock and the review setting.
public final class DeskService: Sendable {
    public let store: any DeskStore
    /// The service's setting: on, sending an article leads to review; off, straight to Published.
    public let reviewIsOn: Bool
    private let clock: @Sendable () -> Date

    public init(store: any DeskStore, reviewIsOn: Bool = true, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.reviewIsOn = reviewIsOn
        self.clock = clock
    }

    /// What a coordinator gives an article when putting it on the desk.
    public struct NewArticle: Sendable {
        public var title: String
        public var publication: String
        public var section: String
        public var deadline: DeskTime?
        public var listenUntil: DeskTime?
        public var priority: DeskPriority

        public init(
            title: String, publication: String, section: String = "", deadline: DeskTime? = nil, listenUntil: DeskTime? = nil,
            priority: DeskPriority = .normal
        ) {
            self.title = title
            self.publication = publication
            self.section = section
            self.deadline = deadline
            self.listenUntil = listenUntil
            self.priority = priority
        }
    }

    /// A change of an article's details on the desk: each field nil leaves it as it is; a
    /// deadline or "listen until" of `.some(nil)` removes it.
    public struct Change: Sendable {
        public var section: String?
        public var deadline: DeskTime??
        public var listenUntil: DeskTime??
        public var priority: DeskPriority?

        public init(section: String? = nil, deadline: DeskTime?? = nil, listenUntil: DeskTime?? = nil, priority: DeskPriority? = nil) {
            self.section = section
            self.deadline = deadline
            self.listenUntil = listenUntil
            self.priority = priority
        }
    }

    // MARK: Adding and reading

    /// Puts a new article on the desk, Open: checks who asks and the details, then has
    /// `makingArticle` make the article itself (its folders, its text), then keeps its record.
    /// - Throws: `notPermitted`; `usage` for an empty title, a section too long or holding a control character,
    ///   or a "listen until" already past; whatever `makingArticle` throws (nothing is kept).
    public func add(
        _ new: NewArticle, by actor: ServiceActor, makingArticle: (NewArticle) throws(NarrationError) -> Article
    ) throws(NarrationError) -> DeskEntry {
        guard actor.may(.manageArticles, nil) else { throw .notPermitted(actor, .manageArticles, article: nil) }
        guard !new.title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw .usage("An article on the desk needs a title: give one.") }
        try DeskEntry.checkSection(new.section)
        let now = clock()
        if let listenUntil = new.listenUntil, listenUntil.hasPassed(at: now) {
            throw .usage("The \"listen until\" \(listenUntil) has passed already: give a later day, or none.")
        }
        let article = try makingArticle(new)
        let entry = DeskEntry(
            article: article.id, title: article.title, publication: article.publication, section: new.section, deadline: new.deadline,
            listenUntil: new.listenUntil, priority: new.priority, addedAt: now)
        try store.addEntry(entry, audit: AuditEntry(at: now, actor: actor.auditName, action: .articleAdded, account: nil, detail: Self.describe(entry)))
        return entry
    }

    /// The record of `article`, for someone who may see it.
    /// - Throws: `notOnDesk`, `notPermitted`.
    public func entry(_ article: ArticleID, by actor: ServiceActor) throws(NarrationError) -> DeskEntry {
        let entry = try stored(article)
        guard actor.may(.view, entry.relation(to: actor.account?.name)) else { throw .notPermitted(actor, .view, article: article) }
        return entry
    }

    /// The records `filter` lets through that `actor` may see, most urgent first.
    public func list(_ filter: DeskFilter = DeskFilter(), late: Bool = false, by actor: ServiceActor) throws(NarrationError) -> [DeskEntry] {
        var filter = filter
        if late { filter.lateAt = clock() }
        return try store.entries(filter).filter { actor.may(.view, $0.relation(to: actor.account?.name)) }
    }

    /// One page of `list`: the records from `offset` on, at most `limit`, and how many there are
    /// in all. For an actor who may see every article (a coordinator, an admin) the store pages
    /// them; for others the page is cut from `list`.
    public func page(
        _ filter: DeskFilter = DeskFilter(), late: Bool = false, offset: Int, limit: Int, by actor: ServiceActor
    ) throws(NarrationError) -> (entries: [DeskEntry], total: Int) {
        guard ArticleRelation.allCases.allSatisfy({ actor.may(.view, $0) }) else {
            let all = try list(filter, late: late, by: actor)
            let start = min(all.count, max(0, offset))
            return (Array(all[start..<min(all.count, start + max(0, min(limit, all.count)))]), all.count)
        }
        var filter = filter
        if late { filter.lateAt = clock() }
        return try store.entries(filter, offset: offset, limit: limit)
    }

    // MARK: Assignments

    /// Gives `article` to `volunteer` (or to another volunteer): Assigned when it was Open; a
    /// Recording or Pickups-requested article keeps its state and takes, for the new volunteer
    /// to carry on. Giving it to the volunteer who has it changes nothing.
    /// - Throws: `notPermitted`; `deskRefused` for a state that allows no assignment, or a
    ///   volunteer who may not record (a proof-listener, a disabled account).
    @discardableResult
    public func assign(_ article: ArticleID, to volunteer: Account, by actor: ServiceActor) throws(NarrationError) -> DeskEntry {
        let current = try stored(article)
        _ = try check(current, .assign, by: actor)
        if current.assignee == volunteer.name, current.taking == .assigned { return current }
        guard Permissions.may(volunteer, .record, .assignedToThem) else {
            throw NarrationError(
                .deskRefused,
                "The account \(volunteer.name) (\(volunteer.role)\(volunteer.isEnabled ? "" : ", disabled")) cannot be given articles to record: give it to a volunteer, a coordinator or an admin whose account is enabled.")
        }
        return try move(current, .assign, by: actor) { entry in
            entry.assignee = volunteer.name
            entry.taking = .assigned
        }
    }

    /// Takes `article` back from its volunteer and leaves it Open for anyone to claim.
    @discardableResult
    public func leaveOpen(_ article: ArticleID, by actor: ServiceActor) throws(NarrationError) -> DeskEntry {
        try move(try stored(article), .leaveOpen, by: actor) { entry in
            entry.assignee = nil
            entry.taking = nil
        }
    }

    /// `actor`'s account takes the Open `article` as its own. Of two claims at once, one wins;
    /// the other is refused, since the article is someone else's by then.
    /// - Throws: `usage` when the actor has no account; `notPermitted`; `deskRefused`.
    @discardableResult
    public func claim(_ article: ArticleID, by actor: ServiceActor) throws(NarrationError) -> DeskEntry {
        guard let account = actor.account else {
            throw .usage("Only an account can claim an article: name the account that claims it.")
        }
        return try move(try stored(article), .claim, by: actor) { entry in
            entry.assignee = account.name
            entry.taking = .claimed
        }
    }

    // MARK: The article's life

    /// A take was recorded: an Assigned article becomes Recording; in Recording or Pickups
    /// requested nothing changes (and nothing is written). For the studio to call on each take.
    /// - Throws: `notPermitted`; `deskRefused` in any other state.
    @discardableResult
    public func recordedTake(_ article: ArticleID, by actor: ServiceActor) throws(NarrationError) -> DeskEntry {
        let current = try stored(article)
        if current.state == .recording || current.state == .pickupsRequested {
            guard actor.may(.record, current.relation(to: actor.account?.name)) else { throw .notPermitted(actor, .record, article: article) }
            return current
        }
        return try move(current, .firstTake, by: actor)
    }

    /// Sends a Recording article: to Ready for review, or with review off to Published.
    @discardableResult
    public func send(_ article: ArticleID, by actor: ServiceActor) throws(NarrationError) -> DeskEntry {
        try move(try stored(article), .send, by: actor)
    }

    /// A proof-listener sends it back for pickups.
    @discardableResult
    public func sendBack(_ article: ArticleID, by actor: ServiceActor) throws(NarrationError) -> DeskEntry {
        try move(try stored(article), .sendBack, by: actor)
    }

    /// The volunteer has done every pickup: back to Ready for review.
    @discardableResult
    public func pickupsDone(_ article: ArticleID, by actor: ServiceActor) throws(NarrationError) -> DeskEntry {
        try move(try stored(article), .pickupsDone, by: actor)
    }

    /// A proof-listener approves it: Approved, for delivery to publish.
    @discardableResult
    public func approve(_ article: ArticleID, by actor: ServiceActor) throws(NarrationError) -> DeskEntry {
        try move(try stored(article), .approve, by: actor)
    }

    /// Delivery of an Approved article finished: Published.
    @discardableResult
    public func publish(_ article: ArticleID, by actor: ServiceActor) throws(NarrationError) -> DeskEntry {
        try move(try stored(article), .publish, by: actor)
    }

    /// Takes `article` off the desk for good: nobody records, reviews or claims it any more.
    @discardableResult
    public func withdraw(_ article: ArticleID, by actor: ServiceActor) throws(NarrationError) -> DeskEntry {
        try move(try stored(article), .withdraw, by: actor)
    }

    /// Marks Expired every article whose "listen until" has passed at `now` and is not expired
    /// or withdrawn already; returns them. For the server to call now and then; the audit log
    /// names the service. An article changed at the same moment is left for the next call.
    public func expireOverdue(now: Date? = nil) throws(NarrationError) -> [DeskEntry] {
        let now = now ?? clock()
        var expired: [DeskEntry] = []
        for entry in try store.entries(DeskFilter()) {
            guard let listenUntil = entry.listenUntil, listenUntil.hasPassed(at: now), entry.state != .expired, entry.state != .withdrawn else { continue }
            do {
                expired.append(try move(entry, .expire, by: .service, at: now))
            } catch where error.kind == .deskRefused {
                continue
            }
        }
        return expired
    }

    /// Changes `article`'s section, deadline, "listen until" or priority; nothing is written
    /// when nothing differs.
    /// - Throws: `notPermitted`; `deskRefused` for an Expired or Withdrawn article; `usage` for
    ///   a section too long or holding a control character.
    @discardableResult
    public func change(_ article: ArticleID, _ change: Change, by actor: ServiceActor) throws(NarrationError) -> DeskEntry {
        let current = try stored(article)
        guard actor.may(.manageArticles, current.relation(to: actor.account?.name)) else { throw .notPermitted(actor, .manageArticles, article: article) }
        guard current.state != .expired, current.state != .withdrawn else {
            throw NarrationError(.deskRefused, "\(current.naming) is \(current.state.title), so it cannot be changed: nothing more can happen to it.")
        }
        if let section = change.section { try DeskEntry.checkSection(section) }
        var changed = current
        var said: [String] = []
        if let section = change.section, section != current.section {
            changed.section = section
            said.append("section \"\(current.section)\" → \"\(section)\"")
        }
        if let deadline = change.deadline, deadline != current.deadline {
            changed.deadline = deadline
            said.append("deadline \(current.deadline?.description ?? "none") → \(deadline?.description ?? "none")")
        }
        if let listenUntil = change.listenUntil, listenUntil != current.listenUntil {
            changed.listenUntil = listenUntil
            said.append("listen until \(current.listenUntil?.description ?? "none") → \(listenUntil?.description ?? "none")")
        }
        if let priority = change.priority, priority != current.priority {
            changed.priority = priority
            said.append("priority \(current.priority) → \(priority)")
        }
        guard !said.isEmpty else { return current }
        let now = clock()
        changed.changedAt = now
        let audit = AuditEntry(
            at: now, actor: actor.auditName, action: .articleChanged, account: current.assignee,
            detail: "article \(article): " + said.joined(separator: ", "))
        guard try store.replaceEntry(changed, audit: audit) else { throw .deskChangedMeanwhile(article) }
        changed.version += 1
        return changed
    }

    // MARK: Moving

    private func stored(_ article: ArticleID) throws(NarrationError) -> DeskEntry {
        guard let entry = try store.entry(article) else { throw .notOnDesk(article) }
        return entry
    }

    /// The state `event` leads `entry` to, once `actor` may cause it.
    private func check(_ entry: DeskEntry, _ event: DeskEvent, by actor: ServiceActor) throws(NarrationError) -> DeskState {
        guard actor.may(event.action, entry.relation(to: actor.account?.name)) else { throw .notPermitted(actor, event.action, article: entry.article) }
        return try entry.state.after(event, reviewIsOn: reviewIsOn, naming: entry.naming)
    }

    /// Checks and keeps `event` on `current`, with `update` made to the record, as a
    /// compare-and-set: when another change came first, the event is judged again on what is
    /// stored now, so that the refusal says why (claimed by someone else, say).
    private func move(
        _ current: DeskEntry, _ event: DeskEvent, by actor: ServiceActor, at time: Date? = nil, update: (inout DeskEntry) -> Void = { _ in }
    ) throws(NarrationError) -> DeskEntry {
        let next = try check(current, event, by: actor)
        let now = time ?? clock()
        var changed = current
        changed.state = next
        update(&changed)
        changed.changedAt = now
        var detail = "article \(current.article): \(event) \(current.state) → \(next)"
        if changed.assignee != current.assignee {
            detail += ", volunteer \(current.assignee?.rawValue ?? "none") → \(changed.assignee?.rawValue ?? "none")"
        }
        if event == .send, !reviewIsOn { detail += " (review off)" }
        let audit = AuditEntry(at: now, actor: actor.auditName, action: .articleMoved, account: changed.assignee ?? current.assignee, detail: detail)
        guard try store.replaceEntry(changed, audit: audit) else {
            _ = try check(try stored(current.article), event, by: actor)
            throw .deskChangedMeanwhile(current.article)
        }
        changed.version += 1
        return changed
    }

    // MARK: Words

    /// What the audit log says of a new article.
    static func describe(_ entry: DeskEntry) -> String {
        var parts = ["article \(entry.article) \"\(entry.title)\"", "publication \"\(entry.publication)\""]
        if !entry.section.isEmpty { parts.append("section \"\(entry.section)\"") }
        if let deadline = entry.deadline { parts.append("deadline \(deadline)") }
        if let listenUntil = entry.listenUntil { parts.append("listen until \(listenUntil)") }
        parts.append("priority \(entry.priority)")
        return parts.joined(separator: ", ")
    }
}
