import Foundation
import GRDB
import Narration
import NarrationCore
import NarrationTestSupport
import Testing

/// The activity log on both stores, the catalog and the in-memory stand-in: the same records
/// back, the same refusals, nothing written by a refusal.
@Suite("The activity log on every AccountActivityStore")
struct AccountActivityStoreContractTests {
    enum Kind: String, CaseIterable { case catalog, postgreSQL, memory }

    /// The account service and the activity on a store of `kind`, with ann and dora added, the
    /// clock, and the folder that keeps a catalog alive.
    struct Fixture {
        let accounts: AccountService
        let activity: AccountActivity
        let clock: HandClock
        let folder: TemporaryFolder
        let catalogPath: String

        init(_ kind: Kind) throws {
            folder = TemporaryFolder("narrate-activity-store")
            clock = HandClock(utcMinute("2026-11-24 09:00"))
            catalogPath = folder.file("catalog.sqlite").path
            let accountStore: any AccountStore
            let activityStore: any AccountActivityStore
            switch kind {
            case .catalog, .postgreSQL:
                let catalog = kind == .catalog ? try TestCatalogs.sqlite(folder) : try TestCatalogs.postgreSQL(folder)
                (accountStore, activityStore) = (catalog, catalog)
            case .memory:
                let memory = InMemoryAccountStore()
                (accountStore, activityStore) = (memory, InMemoryActivityStore(accounts: memory))
            }
            accounts = AccountService(store: accountStore, clock: clock.function, hashing: .init(iterations: 1, memoryKiB: 64, lanes: 1))
            activity = AccountActivity(store: activityStore, accounts: accountStore, clock: clock.function)
            _ = try accounts.add(try AccountName("ann"), role: .volunteer, by: "admin")
            _ = try accounts.add(try AccountName("dora"), role: .proofListener, by: "admin")
        }
    }

    @Test("each kind of work comes back as recorded, in order: the time to the whole second, the length to the millisecond", arguments: Kind.allCases)
    func roundTrip(kind: Kind) throws {
        let fixture = try Fixture(kind)
        let ann = try AccountName("ann"), dora = try AccountName("dora")
        let article = ArticleID("k3f9x2ab")
        fixture.clock.advance(0.75)
        try fixture.activity.preparation(by: ann, article: article)
        fixture.clock.advance(60)
        try fixture.activity.take(by: ann, article: article, seconds: 12.3456)
        fixture.clock.advance(60)
        try fixture.activity.pickup(by: ann, article: nil, seconds: 0.5)
        fixture.clock.advance(60)
        try fixture.activity.review(by: dora, article: article, secondsHeard: 86_400)
        let start = utcMinute("2026-11-24 09:00")
        let expected = [
            ActivityRecord(account: ann, kind: .preparation, length: .zero, article: article, at: start),
            ActivityRecord(account: ann, kind: .take, length: try ActivitySeconds(12.346), article: article, at: start + 60),
            ActivityRecord(account: ann, kind: .pickup, length: try ActivitySeconds(0.5), article: nil, at: start + 120),
            ActivityRecord(account: dora, kind: .review, length: try ActivitySeconds(86_400), article: article, at: start + 180),
        ]
        #expect(try fixture.activity.store.activity(of: nil) == expected)
        #expect(try fixture.activity.store.activity(of: dora) == [expected[3]])
        #expect(try fixture.activity.store.activity(of: try AccountName("zed")).isEmpty)
    }

    @Test("an unknown account, or a length that is not one, is refused with one sentence and nothing is written", arguments: Kind.allCases)
    func refusals(kind: Kind) throws {
        let fixture = try Fixture(kind)
        let ann = try AccountName("ann")
        try fixture.activity.take(by: ann, article: nil, seconds: 60)
        let before = try fixture.activity.store.activity(of: nil)
        #expect(throws: NarrationError.unknownAccount("zed")) { try fixture.activity.take(by: try AccountName("zed"), article: nil, seconds: 60) }
        #expect(throws: NarrationError.unknownAccount("zed")) { try fixture.activity.preparation(by: try AccountName("zed"), article: nil) }
        for seconds in [-1, .nan, .infinity, -.infinity, 1e300, 86_401] as [Double] {
            let sentence = "\(String(format: "%.10g", seconds)) seconds is not a length of audio: give 0 to 86400 seconds (one day)."
            #expect(throws: NarrationError.usage(sentence)) { try fixture.activity.take(by: ann, article: nil, seconds: seconds) }
            #expect(throws: NarrationError.usage(sentence)) { try fixture.activity.pickup(by: ann, article: nil, seconds: seconds) }
            #expect(throws: NarrationError.usage(sentence)) { try fixture.activity.review(by: ann, article: nil, secondsHeard: seconds) }
        }
        #expect(try fixture.activity.store.activity(of: nil) == before)
    }

    @Test("the catalog's activity log refuses UPDATE and DELETE, even from outside narrate; its records stay as they were")
    func appendOnly() throws {
        let fixture = try Fixture(.catalog)
        try fixture.activity.take(by: try AccountName("ann"), article: nil, seconds: 60)
        let before = try fixture.activity.store.activity(of: nil)
        let queue = try DatabaseQueue(path: fixture.catalogPath)
        for statement in [
            "UPDATE account_activity SET milliseconds = 0", "UPDATE account_activity SET account_name = 'dora'", "DELETE FROM account_activity",
            "DELETE FROM account_activity WHERE sequence = 1",
        ] {
            do {
                try queue.write { db in try db.execute(sql: statement) }
                Issue.record("\(statement) was carried out")
            } catch let error as DatabaseError {
                #expect(error.message == "the activity log is append-only", "\(statement)")
            }
        }
        #expect(try fixture.activity.store.activity(of: nil) == before)
    }

    @Test("a record planted with values narrate never writes is refused as one sentence naming them, never a trap", arguments: [
        ("'ann', 'take', 'abc', NULL, 1795000000", "(\"ann\", \"take\", \"abc\", NULL, 1795000000)"),
        ("'ann', 'take', 86400001, NULL, 1795000000", "(\"ann\", \"take\", 86400001, NULL, 1795000000)"),
        ("'ann', 'take', 1000, NULL, 'soon'", "(\"ann\", \"take\", 1000, NULL, \"soon\")"),
        ("'ann', 'take', 1000, NULL, 9223372036854775807", "(\"ann\", \"take\", 1000, NULL, 9223372036854775807)"),
        ("'ann', 'take', 1000, NULL, -1", "(\"ann\", \"take\", 1000, NULL, -1)"),
        ("'ann', 'take', 1e300, NULL, 1795000000", "(\"ann\", \"take\", 1e+300, NULL, 1795000000)"),
        ("'ann', 'review', 1000, x'00ff', 1795000000", "(\"ann\", \"review\", 1000, Data(2 bytes), 1795000000)"),
    ])
    func plantedRecords(values: String, shown: String) throws {
        let fixture = try Fixture(.catalog)
        let queue = try DatabaseQueue(path: fixture.catalogPath)
        try queue.write { db in try db.execute(sql: "INSERT INTO account_activity (account_name, kind, milliseconds, article_id, at) VALUES (\(values))") }
        #expect(throws: NarrationError(.catalogCorrupt, "The activity log holds a record narrate never writes \(shown). No recording was changed; move the catalog aside to start a new one, the chunk files stay under the articles folder.")) {
            try fixture.activity.store.activity(of: nil)
        }
    }
}
