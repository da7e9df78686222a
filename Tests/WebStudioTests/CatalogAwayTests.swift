import Foundation
import Narration
import NarrationCore
import NarrationTestSupport
import Studio
import Synchronization
import Testing
@testable import WebStudio

/// A page whose session cannot be checked a moment (the shared catalog's server restarting) is
/// neither signed in nor out: its messages are refused one by one with a sentence saying they
/// are kept and sent again, its periodic check closes nothing, and once the catalog answers the
/// page goes on; a session really ended still closes it. Logic in process, with the account
/// store made to fail on demand; `test_several_hosts.py` stops a real PostgreSQL mid-take.
@Suite("A page while the catalog is away")
struct CatalogAwayTests {
    /// The accounts in memory, unreachable while `away` is set.
    final class AwayAccountStore: AccountStore {
        let store = InMemoryAccountStore()
        let away = Atomic<Bool>(false)

        private func reach() throws(NarrationError) {
            if away.load(ordering: .acquiring) {
                throw NarrationError(.dataRootNotWritable, "Cannot reach the catalog (the server is restarting).")
            }
        }

        func accounts() throws(NarrationError) -> [Account] { try reach(); return try store.accounts() }
        func account(named name: AccountName) throws(NarrationError) -> Account? { try reach(); return try store.account(named: name) }
        func addAccount(_ account: Account, invitation: StoredInvitation, audit: AuditEntry) throws(NarrationError) {
            try reach(); try store.addAccount(account, invitation: invitation, audit: audit)
        }
        func saveAccount(_ account: Account, endingSessions: Bool, audit: AuditEntry) throws(NarrationError) -> Int {
            try reach(); return try store.saveAccount(account, endingSessions: endingSessions, audit: audit)
        }
        func resetAccount(_ name: AccountName, invitation: StoredInvitation, audit: AuditEntry) throws(NarrationError) -> Int {
            try reach(); return try store.resetAccount(name, invitation: invitation, audit: audit)
        }
        func invitation(tokenHash: String) throws(NarrationError) -> StoredInvitation? { try reach(); return try store.invitation(tokenHash: tokenHash) }
        func acceptInvitation(tokenHash: String, for name: AccountName, passphraseHash: String, now: Date, audit: AuditEntry) throws(NarrationError) -> Bool {
            try reach(); return try store.acceptInvitation(tokenHash: tokenHash, for: name, passphraseHash: passphraseHash, now: now, audit: audit)
        }
        func passphraseHash(of name: AccountName) throws(NarrationError) -> String? { try reach(); return try store.passphraseHash(of: name) }
        func addSession(_ session: StoredSession) throws(NarrationError) { try reach(); try store.addSession(session) }
        func session(tokenHash: String) throws(NarrationError) -> StoredSession? { try reach(); return try store.session(tokenHash: tokenHash) }
        func touchSession(tokenHash: String, at time: Date) throws(NarrationError) { try reach(); try store.touchSession(tokenHash: tokenHash, at: time) }
        func endSession(tokenHash: String) throws(NarrationError) { try reach(); try store.endSession(tokenHash: tokenHash) }
        func endSessions(of name: AccountName, audit: AuditEntry?) throws(NarrationError) -> Int {
            try reach(); return try store.endSessions(of: name, audit: audit)
        }
        func auditLog(account: AccountName?, since: Date?) throws(NarrationError) -> [AuditEntry] {
            try reach(); return try store.auditLog(account: account, since: since)
        }
    }

    @Test("the catalog away: messages refused with the sentence, the page kept open; back: allowed; signed out: closed")
    func awayThenBack() async throws {
        let folder = TemporaryFolder("narrate-catalog-away")
        let library = try NarrationLibrary(root: DataRoot(url: folder.url.appendingPathComponent("home")))
        let store = AwayAccountStore()
        let accounts = AccountService(store: store, hashing: .init(iterations: 1, memoryKiB: 64, lanes: 1))
        let door = ServiceDoor(
            accounts: accounts, articleAccess: DeskArticleAccess(library: library, desk: library.deskStore), proxy: .none, hosts: .loopback,
            sessionPolicy: SessionPolicy(), sessionCheckInterval: .seconds(2))
        let invitation = try accounts.add(try AccountName("ann"), role: .volunteer, by: "test")
        try accounts.acceptInvitation(account: "ann", token: invitation.token, passphrase: "summer lantern over the weir")
        let session = try accounts.signIn(account: "ann", passphrase: "summer lantern over the weir", address: "127.0.0.1")
        let options = Studio.Options(
            captureDevice: "memory microphone", playbackDevice: "memory speaker", profile: .archive, destination: nil,
            retry: RetrySchedule(attempts: 1, first: 0, limit: 0), publication: "Daily Post", narrator: "Ann Reader", format: .speech,
            checksTakes: false)
        let host = StudioHost(library: library, options: options, article: nil, settings: [], isArticleStudio: false)
        let page = LivePage(host: host, door: door, signedIn: SignedInRequest(account: session.account, token: session.token, secure: false))

        #expect(await page.authorise(.select(0)) == .allowed)
        store.away.store(true, ordering: .releasing)
        #expect(await page.closingReason() == nil)
        #expect(await page.authorise(.select(0)) == .refused(LivePage.catalogAway))
        #expect(page.isOpen)
        store.away.store(false, ordering: .releasing)
        #expect(await page.closingReason() == nil)
        #expect(await page.authorise(.select(0)) == .allowed)
        // A session that really ended still closes the page.
        try accounts.signOut(session.token)
        #expect(await page.closingReason() == ServiceDoor.sessionEnded)
        #expect(await page.authorise(.select(0)) == .sessionEnded(ServiceDoor.sessionEnded))
        #expect(!page.isOpen)
        await host.shutDown()
    }
}
