import Foundation
import Narration
import NarrationCore
import NarrationTestSupport
import Synchronization
import Testing

/// The desk's expiry as `narrate serve` runs it (`DeskExpiry`), in process over a library in a
/// temporary folder, with a clock in hand: a pass at the start, then one after each interval
/// (the test lets each interval pass), each expiring what `narrate desk expire` would, and no
/// pass after the task is cancelled.
@Suite("The desk's expiry while the service runs")
struct DeskExpiryTests {
    /// Lets the expiry's sleeps end one at a time, as the test says; records each one's length.
    actor Intervals {
        private var permits = 0
        private var waiting: CheckedContinuation<Void, Never>?
        private(set) var asked: [Duration] = []

        /// The expiry sleeps `duration`: it ends when the test lets an interval pass.
        func sleep(_ duration: Duration) async {
            asked.append(duration)
            if permits > 0 {
                permits -= 1
                return
            }
            await withCheckedContinuation { waiting = $0 }
        }

        /// One interval passes.
        func pass() {
            if let waiting {
                self.waiting = nil
                waiting.resume()
            } else {
                permits += 1
            }
        }
    }

    @Test("expires what is overdue at the start and after each interval, as narrate desk expire does; a cancelled expiry stops")
    func passes() async throws {
        let folder = TemporaryFolder("narrate-desk-expiry")
        let library = try NarrationLibrary(root: DataRoot(url: folder.url.appendingPathComponent("home")))
        let clock = HandClock(try DeskTime("2026-12-07T09:00").instant)
        let accounts = AccountService(store: library.accountStore, clock: clock.function, hashing: .init(iterations: 1, memoryKiB: 64, lanes: 1))
        _ = try accounts.add(try AccountName("cora"), role: .coordinator, by: "test")
        let cora = try accounts.account(try AccountName("cora"))
        let desk = DeskService(store: library.deskStore, clock: clock.function)
        var ids: [String: ArticleID] = [:]
        for (title, listenUntil) in [("Yesterday's flyer", "2026-12-08"), ("Morning news", "2026-12-09T10:00"), ("Kept", nil)] as [(String, String?)] {
            let new = DeskService.NewArticle(title: title, publication: "Daily Post", listenUntil: try listenUntil.map { try DeskTime($0) })
            ids[title] = try desk.add(new, by: .account(cora)) { (new) throws(NarrationError) in try library.makeDeskArticle(new, text: nil) }.article
        }

        clock.advance(2 * 24 * 3600)  // 9 December, 09:00

        let intervals = Intervals()
        let (passes, passed) = AsyncStream.makeStream(of: [String].self)
        let expiry = DeskExpiry(desk: desk, interval: .seconds(300))
        let running = Task {
            await expiry.run(
                sleep: { duration in
                    await intervals.sleep(duration)
                    clock.advance(Double(duration.components.seconds))
                    try Task.checkCancellation()
                },
                expired: { result in passed.yield((try? result.get())?.map(\.title) ?? ["error"]) })
            passed.finish()
        }
        var heard = passes.makeAsyncIterator()
        #expect(await heard.next() == ["Yesterday's flyer"])  // at the start, 09:00
        await intervals.pass()
        #expect(await heard.next() == [])  // 09:05: "Morning news" may be heard until 10:00
        clock.advance(50 * 60)
        await intervals.pass()
        #expect(await heard.next() == ["Morning news"])  // 10:00
        #expect(await intervals.asked == [.seconds(300), .seconds(300), .seconds(300)])

        running.cancel()
        await intervals.pass()
        await running.value
        #expect(await heard.next() == nil)  // no pass after the cancel

        let states = try ["Yesterday's flyer", "Morning news", "Kept"].map { try library.deskStore.entry(try #require(ids[$0]))?.state }
        #expect(states == [.expired, .expired, .open])
        // Expired by the service itself, in the audit log as narrate desk expire writes it.
        let log = try library.deskStore.auditLog(account: nil, since: nil).suffix(2).map { "\($0.actor) \($0.action.rawValue) \($0.detail)" }
        #expect(log == [
            "the service article-moved article \(ids["Yesterday's flyer"]!): expire open → expired",
            "the service article-moved article \(ids["Morning news"]!): expire open → expired",
        ])
    }
}
