import Foundation
import Narration
import NarrationCore
import NarrationTestSupport
import Testing
@testable import WebStudio

/// What a reading service's studio tells the desk and the hours, over stores in memory: a take
/// kept moves an Assigned article to Recording and counts for the account that recorded it;
/// Send goes to review (review on) or to Published (review off); someone else's article is
/// refused and nothing changes.
@Suite("The studio tells the desk and the hours")
struct StudioDeskLinkTests {
    let clock = HandClock()
    let accounts = InMemoryAccountStore()
    let desk = InMemoryDeskStore()
    let activityStore: InMemoryActivityStore
    let vera: Account
    let vic: Account
    let article = ArticleID("a1b2c3d4")

    init() throws {
        activityStore = InMemoryActivityStore(accounts: accounts)
        let service = AccountService(store: accounts, clock: clock.function, hashing: .init(iterations: 1, memoryKiB: 64, lanes: 1))
        for name in ["vera", "vic"] { _ = try service.add(try AccountName(name), role: .volunteer, by: "test") }
        vera = try #require(try accounts.account(named: try AccountName("vera")))
        vic = try #require(try accounts.account(named: try AccountName("vic")))
        let entry = DeskEntry(
            article: article, title: "Budget vote", publication: "Daily News", state: .assigned, assignee: vera.name, taking: .assigned,
            addedAt: clock.date)
        try desk.addEntry(entry, audit: AuditEntry(at: clock.date, actor: "test", action: .articleAdded, account: nil, detail: "added"))
    }

    func link(reviewIsOn: Bool = true) -> StudioDeskLink {
        StudioDeskLink(
            desk: DeskService(store: desk, reviewIsOn: reviewIsOn, clock: clock.function),
            activity: AccountActivity(store: activityStore, accounts: accounts, clock: clock.function))
    }

    @Test("the first take kept: Recording, and the take counted for the account that recorded it")
    func firstTake() throws {
        let link = link()
        #expect(link.takeKept(on: article, by: vera, seconds: 12.5) == nil)
        #expect(try desk.entry(article)?.state == .recording)
        #expect(link.takeKept(on: article, by: vera, seconds: 3) == nil)
        let records = try activityStore.activity(of: nil)
        #expect(records.map(\.account.rawValue) == ["vera", "vera"])
        #expect(records.map(\.kind) == [.take, .take])
        #expect(records.map(\.article) == [article, article])
    }

    @Test("an article off the desk: the take is counted, the desk is not asked")
    func offDesk() throws {
        let other = ArticleID("offdesk1")
        #expect(link().takeKept(on: other, by: vic, seconds: 4) == nil)
        #expect(!link().isOnDesk(other))
        #expect(try activityStore.activity(of: nil).map(\.account.rawValue) == ["vic"])
    }

    @Test("Send with review on: Ready for review; with review off: Published")
    func send() throws {
        let link = link()
        _ = link.takeKept(on: article, by: vera, seconds: 5)
        #expect(try link.send(article, by: vera).state == .readyForReview)

        let second = ArticleID("e5f6a7b8")
        try desk.addEntry(
            DeskEntry(article: second, title: "Flyer", publication: "Shop", state: .recording, assignee: vera.name, taking: .claimed, addedAt: clock.date),
            audit: AuditEntry(at: clock.date, actor: "test", action: .articleAdded, account: nil, detail: "added"))
        #expect(try self.link(reviewIsOn: false).send(second, by: vera).state == .published)
    }

    @Test("someone else's article: the take's desk change and Send are refused in one sentence, and nothing changes")
    func someoneElses() throws {
        let link = link()
        let before = try #require(try desk.entry(article))
        let refusal = try #require(link.takeKept(on: article, by: vic, seconds: 5))
        #expect(refusal == "The account vic (volunteer) may not record the article a1b2c3d4.")
        #expect(throws: NarrationError.self) { try link.send(article, by: vic) }
        #expect(try desk.entry(article) == before)
    }
}
