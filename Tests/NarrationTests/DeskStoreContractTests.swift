import Foundation
import Narration
import NarrationCore
import NarrationTestSupport
import Synchronization
import Testing

/// The desk's rules on both stores, the catalog and the in-memory stand-in: the same answers
/// and the same audit log from each, refusals that change nothing, and, on the catalog, claims
/// made at the same moment of which exactly one wins.
@Suite("The desk's rules on every DeskStore")
struct DeskStoreContractTests {
    enum Kind: String, CaseIterable { case catalog, postgreSQL, memory }

    /// A desk on a store of `kind` with four accounts (the catalog keeps them too, since an
    /// assignee must be an account there), its clock, and what keeps a catalog alive.
    struct Desk {
        let service: DeskService
        let store: any DeskStore
        let clock: HandClock
        let folder: TemporaryFolder
        let catalog: Catalog?
        let ann, bob, pat, cora: Account

        func actor(_ account: Account) -> ServiceActor { .account(account) }

        /// Puts an article on the desk as cora, the coordinator.
        func add(_ title: String, publication: String = "Daily Post", deadline: String? = nil, listenUntil: String? = nil, priority: DeskPriority = .normal) throws -> DeskEntry {
            let new = DeskService.NewArticle(
                title: title, publication: publication, deadline: try deadline.map { try DeskTime($0) }, listenUntil: try listenUntil.map { try DeskTime($0) },
                priority: priority)
            return try service.add(new, by: actor(cora)) { (new) throws(NarrationError) in
                let article = Article(id: .random(), title: new.title, publication: new.publication, narrator: "", format: .speech, createdAt: clock.date)
                try catalog?.add(article)
                return article
            }
        }

        /// The log as lines: "actor action account detail".
        func log() throws -> [String] {
            try store.auditLog(account: nil, since: nil).map { "\($0.actor) \($0.action.rawValue) \($0.account?.rawValue ?? "-") \($0.detail)" }
        }
    }

    static func desk(_ kind: Kind, reviewIsOn: Bool = true) throws -> Desk {
        let folder = TemporaryFolder("narrate-desk-store")
        let clock = HandClock(try DeskTime("2026-12-01T09:00").instant)
        let catalog: Catalog? =
            switch kind {
            case .catalog: try TestCatalogs.sqlite(folder)
            case .postgreSQL: try TestCatalogs.postgreSQL(folder)
            case .memory: nil
            }
        var accounts: [Account] = []
        for (name, role) in [("ann", Role.volunteer), ("bob", .volunteer), ("pat", .proofListener), ("cora", .coordinator)] {
            let account = Account(name: try AccountName(name), role: role, createdAt: clock.date)
            if let catalog { _ = try AccountService(store: catalog, clock: clock.function).add(account.name, role: role, by: "admin") }
            accounts.append(account)
        }
        let store: any DeskStore = catalog ?? InMemoryDeskStore()
        return Desk(
            service: DeskService(store: store, reviewIsOn: reviewIsOn, clock: clock.function), store: store, clock: clock, folder: folder, catalog: catalog,
            ann: accounts[0], bob: accounts[1], pat: accounts[2], cora: accounts[3])
    }

    /// The desk's log lines, without the accounts' own.
    static func deskLog(_ desk: Desk) throws -> [String] { try desk.log().filter { !$0.hasPrefix("admin ") } }

    @Test("one article's whole life: added, assigned, recorded, sent, sent back, pickups done, approved, published, expired", arguments: Kind.allCases)
    func life(kind: Kind) throws {
        let desk = try Self.desk(kind)
        let added = try desk.add("Budget vote delayed", deadline: "2026-12-02T17:00", listenUntil: "2026-12-09")
        let id = added.article
        #expect(added.state == .open && added.version == 1 && added.priority == .normal)
        #expect(try desk.service.entry(id, by: desk.actor(desk.ann)) == added)

        try desk.service.assign(id, to: desk.ann, by: desk.actor(desk.cora))
        #expect(throws: NarrationError.notPermitted(desk.actor(desk.bob), .view, article: id)) { try desk.service.entry(id, by: desk.actor(desk.bob)) }
        #expect(try desk.service.recordedTake(id, by: desk.actor(desk.ann)).state == .recording)
        #expect(try desk.service.recordedTake(id, by: desk.actor(desk.ann)).version == 3)  // a second take changes nothing
        #expect(try desk.service.send(id, by: desk.actor(desk.ann)).state == .readyForReview)
        #expect(try desk.service.list(by: desk.actor(desk.pat)).map(\.article) == [id])
        #expect(try desk.service.list(by: desk.actor(desk.ann)).isEmpty)  // in review: the proof-listeners'
        #expect(try desk.service.sendBack(id, by: desk.actor(desk.pat)).state == .pickupsRequested)
        #expect(try desk.service.list(by: desk.actor(desk.pat)).isEmpty)
        #expect(try desk.service.pickupsDone(id, by: desk.actor(desk.ann)).state == .readyForReview)
        #expect(try desk.service.approve(id, by: desk.actor(desk.pat)).state == .approved)
        #expect(try desk.service.publish(id, by: desk.actor(desk.cora)).state == .published)
        #expect(try desk.service.expireOverdue().isEmpty)
        desk.clock.advance(8 * 24 * 3600)
        #expect(try desk.service.expireOverdue().isEmpty)  // 9 December, 09:00: listeners may hear it all that day
        desk.clock.advance(15 * 3600)
        let expired = try desk.service.expireOverdue()
        #expect(expired.map(\.state) == [.expired] && expired.map(\.version) == [9])
        #expect(try desk.store.entry(id) == expired.first)

        #expect(try Self.deskLog(desk) == [
            "cora article-added - article \(id) \"Budget vote delayed\", publication \"Daily Post\", deadline 2026-12-02T17:00, listen until 2026-12-09, priority normal",
            "cora article-moved ann article \(id): assign open → assigned, volunteer none → ann",
            "ann article-moved ann article \(id): first-take assigned → recording",
            "ann article-moved ann article \(id): send recording → ready-for-review",
            "pat article-moved ann article \(id): send-back ready-for-review → pickups-requested",
            "ann article-moved ann article \(id): pickups-done pickups-requested → ready-for-review",
            "pat article-moved ann article \(id): approve ready-for-review → approved",
            "cora article-moved ann article \(id): publish approved → published",
            "the service article-moved ann article \(id): expire published → expired",
        ])
    }

    @Test("with review off, sending publishes", arguments: Kind.allCases)
    func reviewOff(kind: Kind) throws {
        let desk = try Self.desk(kind, reviewIsOn: false)
        let id = try desk.add("Flyer").article
        try desk.service.claim(id, by: desk.actor(desk.bob))
        try desk.service.recordedTake(id, by: desk.actor(desk.bob))
        #expect(try desk.service.send(id, by: desk.actor(desk.bob)).state == .published)
        #expect(try Self.deskLog(desk).last == "bob article-moved bob article \(id): send recording → published (review off)")
    }

    /// A refusal: the change asked, by whom, and the sentence expected.
    struct Refusal: CustomStringConvertible, Sendable {
        let description: String
        let attempt: @Sendable (Desk, ArticleID) throws -> Void
        let expected: @Sendable (Desk, ArticleID) -> NarrationError
    }

    static let refusals: [Refusal] = [
        Refusal(description: "a volunteer assigns", attempt: { try $0.service.assign($1, to: $0.bob, by: $0.actor($0.bob)) },
                expected: { .notPermitted($0.actor($0.bob), .assign, article: $1) }),
        Refusal(description: "a volunteer assigns to a proof-listener: refused for who asks, before whom to", attempt: { try $0.service.assign($1, to: $0.pat, by: $0.actor($0.ann)) },
                expected: { .notPermitted($0.actor($0.ann), .assign, article: $1) }),
        Refusal(description: "another volunteer records", attempt: { try $0.service.recordedTake($1, by: $0.actor($0.bob)) },
                expected: { .notPermitted($0.actor($0.bob), .record, article: $1) }),
        Refusal(description: "another volunteer claims an assigned article", attempt: { try $0.service.claim($1, by: $0.actor($0.bob)) },
                expected: { .notPermitted($0.actor($0.bob), .claim, article: $1) }),
        Refusal(description: "a proof-listener approves what is not in review", attempt: { try $0.service.approve($1, by: $0.actor($0.pat)) },
                expected: { .notPermitted($0.actor($0.pat), .approve, article: $1) }),
        Refusal(description: "a coordinator approves", attempt: { try $0.service.approve($1, by: $0.actor($0.cora)) },
                expected: { .notPermitted($0.actor($0.cora), .approve, article: $1) }),
        Refusal(description: "the volunteer sends before recording", attempt: { try $0.service.send($1, by: $0.actor($0.ann)) },
                expected: { NarrationError(.deskRefused, "The article \($1) (\"Budget\") is Assigned, so it cannot be sent: it can now be assigned, left open, recorded, expired or withdrawn.") }),
        Refusal(description: "a coordinator publishes what is not approved", attempt: { try $0.service.publish($1, by: $0.actor($0.cora)) },
                expected: { NarrationError(.deskRefused, "The article \($1) (\"Budget\") is Assigned, so it cannot be published: it can now be assigned, left open, recorded, expired or withdrawn.") }),
        Refusal(description: "assigned to a proof-listener", attempt: { try $0.service.assign($1, to: $0.pat, by: $0.actor($0.cora)) },
                expected: { _, _ in NarrationError(.deskRefused, "The account pat (proof-listener) cannot be given articles to record: give it to a volunteer, a coordinator or an admin whose account is enabled.") }),
        Refusal(description: "a volunteer changes the deadline", attempt: { try $0.service.change($1, .init(deadline: .some(nil)), by: $0.actor($0.ann)) },
                expected: { .notPermitted($0.actor($0.ann), .manageArticles, article: $1) }),
        Refusal(description: "a volunteer withdraws", attempt: { try $0.service.withdraw($1, by: $0.actor($0.ann)) },
                expected: { .notPermitted($0.actor($0.ann), .manageArticles, article: $1) }),
        Refusal(description: "a disabled coordinator leaves it open", attempt: { desk, id in
                    var cora = desk.cora
                    cora.isEnabled = false
                    try desk.service.leaveOpen(id, by: .account(cora)) },
                expected: { desk, id in
                    var cora = desk.cora
                    cora.isEnabled = false
                    return .notPermitted(.account(cora), .assign, article: id) }),
        Refusal(description: "a section with a line break", attempt: { try $0.service.change($1, .init(section: "Local\nnews"), by: $0.actor($0.cora)) },
                expected: { _, _ in .usage("The section \"Local?news\" holds a control character: give it on one line of plain text.") }),
        Refusal(description: "an article never put on the desk", attempt: { desk, _ in try desk.service.claim(ArticleID("zzzzzzzz"), by: desk.actor(desk.ann)) },
                expected: { _, _ in .notOnDesk(ArticleID("zzzzzzzz")) }),
    ]

    @Test("each refusal says why and leaves the record and the log as they were", arguments: Kind.allCases, refusals)
    func refused(kind: Kind, refusal: Refusal) throws {
        let desk = try Self.desk(kind)
        let id = try desk.add("Budget", deadline: "2026-12-02").article
        try desk.service.assign(id, to: desk.ann, by: desk.actor(desk.cora))
        let before = try desk.store.entry(id)
        let log = try desk.log()
        #expect(throws: refusal.expected(desk, id)) { try refusal.attempt(desk, id) }
        #expect(try desk.store.entry(id) == before)
        #expect(try desk.log() == log)
    }

    @Test("claim, leave open, claim again, reassign, withdraw; a withdrawn article takes nothing more", arguments: Kind.allCases)
    func assignments(kind: Kind) throws {
        let desk = try Self.desk(kind)
        let id = try desk.add("Budget").article
        let claimed = try desk.service.claim(id, by: desk.actor(desk.ann))
        #expect(claimed.assignee == desk.ann.name && claimed.taking == .claimed && claimed.relation(to: desk.ann.name) == .claimedByThem)
        #expect(throws: NarrationError.notPermitted(desk.actor(desk.bob), .claim, article: id)) { try desk.service.claim(id, by: desk.actor(desk.bob)) }
        try desk.service.leaveOpen(id, by: desk.actor(desk.cora))
        #expect(try desk.service.claim(id, by: desk.actor(desk.bob)).assignee == desk.bob.name)
        try desk.service.recordedTake(id, by: desk.actor(desk.bob))
        #expect(throws: NarrationError(.deskRefused, "The article \(id) (\"Budget\") is Recording, so it cannot be left open: it can now be assigned, sent, expired or withdrawn.")) {
            try desk.service.leaveOpen(id, by: desk.actor(desk.cora))
        }
        let moved = try desk.service.assign(id, to: desk.ann, by: desk.actor(desk.cora))
        #expect(moved.state == .recording && moved.assignee == desk.ann.name && moved.taking == .assigned)
        let version = moved.version
        #expect(try desk.service.assign(id, to: desk.ann, by: desk.actor(desk.cora)).version == version)  // already hers: nothing written
        #expect(try desk.service.withdraw(id, by: .commandLine(user: "root")).state == .withdrawn)
        #expect(throws: NarrationError(.deskRefused, "The article \(id) (\"Budget\") is Withdrawn, so it cannot be changed: nothing more can happen to it.")) {
            try desk.service.change(id, .init(priority: .urgent), by: desk.actor(desk.cora))
        }
        #expect(try Self.deskLog(desk).suffix(6) == [
            "ann article-moved ann article \(id): claim open → assigned, volunteer none → ann",
            "cora article-moved ann article \(id): leave-open assigned → open, volunteer ann → none",
            "bob article-moved bob article \(id): claim open → assigned, volunteer none → bob",
            "bob article-moved bob article \(id): first-take assigned → recording",
            "cora article-moved ann article \(id): assign recording → recording, volunteer bob → ann",
            "command line (user root) article-moved ann article \(id): withdraw recording → withdrawn",
        ])
    }

    @Test("listings: most urgent first, filtered by publication, state, volunteer, deadline and lateness; each account sees only its own", arguments: Kind.allCases)
    func listings(kind: Kind) throws {
        let desk = try Self.desk(kind)
        let budget = try desk.add("Budget", deadline: "2026-12-01T12:00").article
        let flyer = try desk.add("Flyer", publication: "Shop Weekly", deadline: "2026-12-03", priority: .high).article
        let storm = try desk.add("Storm", priority: .high).article
        let fair = try desk.add("Fair", deadline: "2026-12-02").article
        try desk.service.assign(budget, to: desk.ann, by: desk.actor(desk.cora))
        try desk.service.assign(fair, to: desk.bob, by: desk.actor(desk.cora))
        let cora = desk.actor(desk.cora)
        func titles(_ filter: DeskFilter = DeskFilter(), late: Bool = false, by actor: ServiceActor? = nil) throws -> [String] {
            try desk.service.list(filter, late: late, by: actor ?? cora).map(\.title)
        }
        #expect(try titles() == ["Flyer", "Storm", "Budget", "Fair"])
        #expect(try titles(DeskFilter(publication: "Shop Weekly")) == ["Flyer"])
        #expect(try titles(DeskFilter(state: .assigned)) == ["Budget", "Fair"])
        #expect(try titles(DeskFilter(volunteer: desk.bob.name)) == ["Fair"])
        #expect(try titles(DeskFilter(dueBefore: try DeskTime("2026-12-02T23:59").instant)) == ["Budget"])
        #expect(try titles(DeskFilter(dueBefore: try DeskTime("2026-12-03T00:00").instant)) == ["Budget", "Fair"])
        #expect(try titles(late: true).isEmpty)
        desk.clock.advance(3 * 3600)  // 12:00: Budget's deadline
        #expect(try titles(late: true) == ["Budget"])
        desk.clock.advance(2 * 24 * 3600)  // 3 December, 12:00
        #expect(try titles(late: true) == ["Budget", "Fair"])
        #expect(try titles(by: desk.actor(desk.ann)) == ["Flyer", "Storm", "Budget"])
        #expect(try titles(by: desk.actor(desk.pat)).isEmpty)
        _ = (flyer, storm)
    }

    @Test("pages of a listing: the same order as the whole, the count of every page, filters and lateness applied; a volunteer's page only their own", arguments: Kind.allCases)
    func pages(kind: Kind) throws {
        let desk = try Self.desk(kind)
        for number in 0..<7 {
            let entry = try desk.add("Article \(number)", publication: number % 2 == 0 ? "Daily Post" : "Shop Weekly", deadline: "2026-12-0\(number + 1)",
                                     priority: number == 6 ? .urgent : .normal)
            if number < 3 { try desk.service.assign(entry.article, to: desk.ann, by: desk.actor(desk.cora)) }
        }
        let cora = desk.actor(desk.cora)
        func page(_ filter: DeskFilter = DeskFilter(), late: Bool = false, offset: Int, limit: Int, by actor: ServiceActor? = nil) throws -> ([String], Int) {
            let found = try desk.service.page(filter, late: late, offset: offset, limit: limit, by: actor ?? cora)
            return (found.entries.map(\.title), found.total)
        }
        let whole = try desk.service.list(by: cora).map(\.title)
        #expect(whole == ["Article 6", "Article 0", "Article 1", "Article 2", "Article 3", "Article 4", "Article 5"])
        #expect(try page(offset: 0, limit: 3) == (Array(whole[0..<3]), 7))
        #expect(try page(offset: 3, limit: 3) == (Array(whole[3..<6]), 7))
        #expect(try page(offset: 6, limit: 3) == (["Article 5"], 7))
        #expect(try page(offset: 9, limit: 3) == ([], 7))
        #expect(try page(DeskFilter(publication: "Shop Weekly"), offset: 1, limit: 1) == (["Article 3"], 3))
        #expect(try page(DeskFilter(state: .assigned), offset: 0, limit: 10) == (["Article 0", "Article 1", "Article 2"], 3))
        desk.clock.advance(2 * 24 * 3600)  // 3 December, 09:00: the deadlines of the 1st and the 2nd have passed
        #expect(try page(late: true, offset: 0, limit: 10) == (["Article 0", "Article 1"], 2))
        #expect(try page(offset: 0, limit: 2, by: desk.actor(desk.ann)) == (["Article 6", "Article 0"], 7))
        #expect(try page(offset: 0, limit: 10, by: desk.actor(desk.pat)) == ([], 0))
    }

    @Test("changing details writes one line naming each change; the same details again write nothing", arguments: Kind.allCases)
    func changes(kind: Kind) throws {
        let desk = try Self.desk(kind)
        let id = try desk.add("Budget", deadline: "2026-12-02").article
        let changed = try desk.service.change(
            id, .init(section: "Local news", deadline: .some(try DeskTime("2026-12-02T09:30")), listenUntil: .some(try DeskTime("2026-12-20")), priority: .urgent),
            by: desk.actor(desk.cora))
        #expect(changed.section == "Local news" && changed.priority == .urgent && changed.deadline?.description == "2026-12-02T09:30")
        #expect(try desk.store.entry(id) == changed)
        let log = try desk.log()
        #expect(try desk.service.change(id, .init(section: "Local news", priority: .urgent), by: desk.actor(desk.cora)) == changed)
        #expect(try desk.log() == log)
        #expect(try Self.deskLog(desk).last
            == "cora article-changed - article \(id): section \"\" → \"Local news\", deadline 2026-12-02 → 2026-12-02T09:30, listen until none → 2026-12-20, priority normal → urgent")
        #expect(throws: NarrationError.usage("The \"listen until\" 2026-11-30 has passed already: give a later day, or none.")) {
            try desk.add("Old", listenUntil: "2026-11-30")
        }
    }

    /// A store that lets another change in just before the first change it is asked to keep, as
    /// a second coordinator's would between the desk's reading and its writing.
    final class InterleavingStore: DeskStore {
        let inner: any DeskStore
        let meanwhile: Mutex<(@Sendable () throws -> Void)?>

        init(_ inner: any DeskStore, meanwhile: @escaping @Sendable () throws -> Void) {
            self.inner = inner
            self.meanwhile = Mutex(meanwhile)
        }

        func addEntry(_ entry: DeskEntry, audit: AuditEntry) throws(NarrationError) { try inner.addEntry(entry, audit: audit) }
        func entry(_ article: ArticleID) throws(NarrationError) -> DeskEntry? { try inner.entry(article) }
        func entries(_ filter: DeskFilter) throws(NarrationError) -> [DeskEntry] { try inner.entries(filter) }
        func auditLog(account: AccountName?, since: Date?) throws(NarrationError) -> [AuditEntry] { try inner.auditLog(account: account, since: since) }

        func replaceEntry(_ entry: DeskEntry, audit: AuditEntry) throws(NarrationError) -> Bool {
            if let other = meanwhile.withLock({ (pending) -> (@Sendable () throws -> Void)? in
                defer { pending = nil }
                return pending
            }) {
                do { try other() } catch { Issue.record("the change in between failed: \(error)") }
            }
            return try inner.replaceEntry(entry, audit: audit)
        }
    }

    @Test("a change overtaken by another is not kept: the second coordinator is told, the first one's change stands", arguments: Kind.allCases)
    func overtaken(kind: Kind) throws {
        let desk = try Self.desk(kind)
        let id = try desk.add("Budget").article
        let other = DeskService(store: desk.store, clock: desk.clock.function)
        let (bob, cora) = (desk.bob, desk.cora)
        let late = DeskService(store: InterleavingStore(desk.store) { _ = try other.assign(id, to: bob, by: .account(cora)) }, clock: desk.clock.function)
        #expect(throws: NarrationError.deskChangedMeanwhile(id)) { try late.assign(id, to: desk.ann, by: desk.actor(desk.cora)) }
        #expect(try desk.store.entry(id)?.assignee == desk.bob.name)
        #expect(try Self.deskLog(desk).filter { $0.contains("assign open") } == ["cora article-moved bob article \(id): assign open → assigned, volunteer none → bob"])

        // Overtaken by a claim, a claim is refused for what the article now is: someone else's.
        let flyer = try desk.add("Flyer").article
        let ann = desk.ann
        let claimer = DeskService(store: InterleavingStore(desk.store) { _ = try other.claim(flyer, by: .account(ann)) }, clock: desk.clock.function)
        #expect(throws: NarrationError.notPermitted(desk.actor(desk.bob), .claim, article: flyer)) { try claimer.claim(flyer, by: desk.actor(desk.bob)) }
        #expect(try desk.store.entry(flyer)?.assignee == desk.ann.name)
    }

    @Test("the store keeps a change only from the version it was read at", arguments: Kind.allCases)
    func compareAndSet(kind: Kind) throws {
        let desk = try Self.desk(kind)
        let read = try desk.add("Budget")
        var first = read
        first.priority = .urgent
        var second = read
        second.priority = .low
        let audit = AuditEntry(at: desk.clock.date, actor: "cora", action: .articleChanged, account: nil, detail: "test")
        #expect(try desk.store.replaceEntry(first, audit: audit))
        #expect(try !desk.store.replaceEntry(second, audit: audit))
        let stored = try #require(try desk.store.entry(read.article))
        #expect(stored.priority == .urgent && stored.version == read.version + 1)
        #expect(try desk.log().filter { $0.hasSuffix(" test") }.count == 1)
    }

    @Test("claims at the same moment on the catalog, each from its own connection: exactly one wins, the rest are told it is taken")
    func concurrentClaims() throws {
        let desk = try Self.desk(.catalog)
        let id = try desk.add("Budget").article
        let path = desk.folder.file("catalog.sqlite").path
        let volunteers = try (1...8).map { Account(name: try AccountName("reader\($0)"), role: .volunteer, createdAt: desk.clock.date) }
        for volunteer in volunteers { _ = try AccountService(store: try Catalog(path: path)).add(volunteer.name, role: .volunteer, by: "admin") }
        let services = try volunteers.map { _ in DeskService(store: try Catalog(path: path)) }
        let outcomes = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: volunteers.count) { index in
            let outcome: String
            do throws(NarrationError) {
                outcome = "won \(try services[index].claim(id, by: .account(volunteers[index])).assignee?.rawValue ?? "?")"
            } catch {
                outcome = error.kind == .notPermitted || error.kind == .deskRefused ? "refused" : "failed: \(error.message)"
            }
            outcomes.withLock { $0.append(outcome) }
        }
        let all = outcomes.withLock { $0 }
        let winners = all.filter { $0.hasPrefix("won ") }
        #expect(winners.count == 1 && all.filter { $0 == "refused" }.count == volunteers.count - 1, "\(all)")
        let stored = try #require(try desk.store.entry(id))
        #expect(winners.first == "won \(stored.assignee?.rawValue ?? "")" && stored.version == 2)
        #expect(try desk.log().filter { $0.contains("claim open → assigned") }.count == 1)
    }
}
