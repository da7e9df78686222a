import Crypto
import Foundation
import GRDB
import Narration
import NarrationCore
import NarrationTestSupport
import Synchronization
import Testing

/// Accounts, invitations, sessions and the audit log in a real catalog, on a hand-moved clock.
/// Every refusal is checked to leave every table exactly as it was.
@Suite("Accounts in the catalog: invitations, sessions, audit log, and attempts to break them")
struct AccountServiceTests {
    /// A catalog in a temporary folder, the service on it, and a clock.
    struct Fixture {
        let folder = TemporaryFolder("narrate-accounts")
        let clock = HandClock()
        let catalog: Catalog
        let service: AccountService
        static let actor = "command line (user tester)"

        init() throws {
            catalog = try Catalog(path: folder.file("catalog.sqlite").path)
            // Cheap hashing: these tests are about the rules; PassphraseHashTests hashes at full cost.
            service = AccountService(store: catalog, clock: clock.function, hashing: .init(iterations: 1, memoryKiB: 64, lanes: 1))
        }

        /// Every row of the four tables, as text: what "nothing changed" compares.
        func snapshot() throws -> [String] {
            let queue = try DatabaseQueue(path: catalog.path)
            return try queue.read { db in
                try ["account", "account_invitation", "account_session", "audit_entry"].flatMap { table in
                    try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY 1").map { "\(table): \($0)" }
                }
            }
        }

        func name(_ text: String) throws -> AccountName { try AccountName(text) }
    }

    static let passphrase = "summer lantern over the weir"

    @Test("an invitation sets the passphrase once; used again, it is refused and nothing changes")
    func usedTwice() throws {
        let fixture = try Fixture()
        let invitation = try fixture.service.add(try fixture.name("ann"), role: .volunteer, by: Fixture.actor)
        #expect(invitation.expiresAt == fixture.clock.date.addingTimeInterval(7 * 24 * 3600))
        let account = try fixture.service.acceptInvitation(account: "ann", token: invitation.token, passphrase: Self.passphrase)
        #expect(account.hasPassphrase && account.invitationExpiresAt == nil)
        let before = try fixture.snapshot()
        #expect(throws: NarrationError.invitationUsed) {
            try fixture.service.acceptInvitation(account: "ann", token: invitation.token, passphrase: "another passphrase of mine")
        }
        #expect(try fixture.snapshot() == before)
        // The first passphrase still signs in; the second never took.
        #expect(try fixture.service.signIn(account: "ann", passphrase: Self.passphrase, address: "192.0.2.1").account.name.rawValue == "ann")
        #expect(throws: NarrationError.signInWrong) {
            try fixture.service.signIn(account: "ann", passphrase: "another passphrase of mine", address: "192.0.2.1")
        }
    }

    @Test("an invitation works until 7 days have passed, then never; nothing changes")
    func expired() throws {
        let fixture = try Fixture()
        let invitation = try fixture.service.add(try fixture.name("ann"), role: .volunteer, by: Fixture.actor)
        fixture.clock.advance(7 * 24 * 3600)
        let before = try fixture.snapshot()
        #expect(throws: NarrationError.invitationExpired(on: invitation.expiresAt)) {
            try fixture.service.acceptInvitation(account: "ann", token: invitation.token, passphrase: Self.passphrase)
        }
        #expect(try fixture.snapshot() == before)
        #expect(NarrationError.invitationExpired(on: invitation.expiresAt).message
            == "This invitation link expired on 2027-01-22 08:00 UTC: ask the service's administrator for a new one.")

        let second = try Fixture()
        let fresh = try second.service.add(try second.name("bob"), role: .volunteer, by: Fixture.actor)
        second.clock.advance(7 * 24 * 3600 - 1)
        #expect(try second.service.acceptInvitation(account: "bob", token: fresh.token, passphrase: Self.passphrase).hasPassphrase)
    }

    @Test("guessed secrets, malformed ones and another account's link are all refused with one sentence; nothing changes")
    func guessedAndWrongAccount() throws {
        let fixture = try Fixture()
        let ann = try fixture.service.add(try fixture.name("ann"), role: .volunteer, by: Fixture.actor)
        let bob = try fixture.service.add(try fixture.name("bob"), role: .admin, by: Fixture.actor)
        let before = try fixture.snapshot()
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        for _ in 0..<500 {
            let guess = String((0..<43).map { _ in alphabet.randomElement(using: &generator)! })
            #expect(throws: NarrationError.invitationNotValid) { try fixture.service.acceptInvitation(account: "ann", token: guess, passphrase: Self.passphrase) }
        }
        let tokenHash = SHA256.hash(data: Data(ann.token.utf8)).map { String(format: "%02x", $0) }.joined()
        for malformed in ["", "x", String(ann.token.dropLast()), ann.token + "A", ann.token.uppercased(), tokenHash, "' OR 1=1 --" + String(repeating: "a", count: 32)] {
            #expect(throws: NarrationError.invitationNotValid) { try fixture.service.acceptInvitation(account: "ann", token: malformed, passphrase: Self.passphrase) }
        }
        // Bob's link used for ann, and ann's for bob, or for a name that does not exist.
        #expect(throws: NarrationError.invitationNotValid) { try fixture.service.acceptInvitation(account: "ann", token: bob.token, passphrase: Self.passphrase) }
        #expect(throws: NarrationError.invitationNotValid) { try fixture.service.acceptInvitation(account: "bob", token: ann.token, passphrase: Self.passphrase) }
        #expect(throws: NarrationError.invitationNotValid) { try fixture.service.acceptInvitation(account: "nobody", token: ann.token, passphrase: Self.passphrase) }
        #expect(throws: NarrationError.invitationNotValid) { try fixture.service.acceptInvitation(account: "Ann", token: ann.token, passphrase: Self.passphrase) }
        #expect(try fixture.snapshot() == before)
        // The secret is stored only as its SHA-256: not the secret, not in any row.
        #expect(before.contains { $0.contains(tokenHash) })
        #expect(!before.contains { $0.contains(ann.token) || $0.contains(bob.token) })
    }

    @Test("eight acceptances of one invitation at once: exactly one sets the passphrase, one line in the audit log")
    func acceptedAtOnce() throws {
        let fixture = try Fixture()
        let invitation = try fixture.service.add(try fixture.name("ann"), role: .volunteer, by: Fixture.actor)
        let service = fixture.service
        let token = invitation.token
        let outcomes = Mutex<[Bool]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            let accepted = (try? service.acceptInvitation(account: "ann", token: token, passphrase: "my own words number \(index)")) != nil
            outcomes.withLock { $0.append(accepted) }
        }
        #expect(outcomes.withLock { $0.filter { $0 }.count } == 1)
        #expect(try fixture.service.auditLog().filter { $0.action == .passphraseSet }.count == 1)
    }

    @Test("a weak passphrase or a disabled account is refused, nothing changes, and the invitation still works after")
    func weakPassphraseAndDisabled() throws {
        let fixture = try Fixture()
        let invitation = try fixture.service.add(try fixture.name("ann"), role: .volunteer, by: Fixture.actor)
        let before = try fixture.snapshot()
        #expect(throws: NarrationError.self) { try fixture.service.acceptInvitation(account: "ann", token: invitation.token, passphrase: "Password 2026!!") }
        #expect(try fixture.snapshot() == before)
        #expect(try fixture.service.disable(try fixture.name("ann"), by: Fixture.actor) == 0)
        let disabled = try fixture.snapshot()
        #expect(throws: NarrationError.accountDisabled(try fixture.name("ann"))) {
            try fixture.service.acceptInvitation(account: "ann", token: invitation.token, passphrase: Self.passphrase)
        }
        #expect(try fixture.snapshot() == disabled)
        #expect(try fixture.service.enable(try fixture.name("ann"), by: Fixture.actor))
        #expect(try fixture.service.acceptInvitation(account: "ann", token: invitation.token, passphrase: Self.passphrase).hasPassphrase)
    }

    @Test("reset: the old link and the old passphrase stop working, every session ends, the new link works once")
    func reset() throws {
        let fixture = try Fixture()
        let ann = try fixture.name("ann")
        let first = try fixture.service.add(ann, role: .volunteer, by: Fixture.actor)
        try fixture.service.acceptInvitation(account: "ann", token: first.token, passphrase: Self.passphrase)
        let unused = try fixture.service.reset(ann, by: Fixture.actor).invitation
        #expect(throws: NarrationError.signInWrong) { try fixture.service.signIn(account: "ann", passphrase: Self.passphrase, address: "a") }
        let (second, _) = try fixture.service.reset(ann, by: Fixture.actor)
        #expect(throws: NarrationError.invitationNotValid) { try fixture.service.acceptInvitation(account: "ann", token: unused.token, passphrase: Self.passphrase) }
        #expect(throws: NarrationError.invitationNotValid) { try fixture.service.acceptInvitation(account: "ann", token: first.token, passphrase: Self.passphrase) }
        try fixture.service.acceptInvitation(account: "ann", token: second.token, passphrase: "glimmering harbour lights")
        #expect(try fixture.service.signIn(account: "ann", passphrase: "glimmering harbour lights", address: "a").account.name == ann)
    }

    @Test("reset ends the sessions signed in with the old passphrase")
    func resetEndsSessions() throws {
        let fixture = try Fixture()
        let ann = try fixture.name("ann")
        let invitation = try fixture.service.add(ann, role: .volunteer, by: Fixture.actor)
        try fixture.service.acceptInvitation(account: "ann", token: invitation.token, passphrase: Self.passphrase)
        let phone = try fixture.service.signIn(account: "ann", passphrase: Self.passphrase, address: "198.51.100.1")
        let laptop = try fixture.service.signIn(account: "ann", passphrase: Self.passphrase, address: "198.51.100.2")
        #expect(try fixture.service.reset(ann, by: Fixture.actor).sessionsEnded == 2)
        for token in [phone.token, laptop.token] { #expect(throws: NarrationError.sessionEnded) { try fixture.service.session(token) } }
    }

    @Test("sessions: found by their secret (stored only as a hash); ended by idle time, by age, by sign-out, everywhere, and by disabling")
    func sessions() throws {
        let fixture = try Fixture()
        let ann = try fixture.name("ann")
        let invitation = try fixture.service.add(ann, role: .coordinator, by: Fixture.actor)
        try fixture.service.acceptInvitation(account: "ann", token: invitation.token, passphrase: Self.passphrase)

        let first = try fixture.service.signIn(account: "ann", passphrase: Self.passphrase, address: "192.0.2.1")
        #expect(first.token.count == 43 && first.account.role == .coordinator)
        #expect(!(try fixture.snapshot()).contains { $0.contains(first.token) })
        // Used every 59 minutes, a session lives on; an hour idle ends it, for good.
        for _ in 0..<5 {
            fixture.clock.advance(59 * 60)
            #expect(try fixture.service.session(first.token).name == ann)
        }
        fixture.clock.advance(60 * 60)
        #expect(throws: NarrationError.sessionEnded) { try fixture.service.session(first.token) }
        fixture.clock.advance(-60 * 60)
        #expect(throws: NarrationError.sessionEnded) { try fixture.service.session(first.token) }

        // However busy, twelve hours after sign-in it ends.
        let busy = try fixture.service.signIn(account: "ann", passphrase: Self.passphrase, address: "192.0.2.1")
        for _ in 0..<12 {
            fixture.clock.advance(59 * 60)
            _ = try fixture.service.session(busy.token)
        }
        fixture.clock.advance(12 * 60)
        #expect(throws: NarrationError.sessionEnded) { try fixture.service.session(busy.token) }

        // A stolen cookie after sign-out is worth nothing.
        let stolen = try fixture.service.signIn(account: "ann", passphrase: Self.passphrase, address: "192.0.2.1")
        try fixture.service.signOut(stolen.token)
        #expect(throws: NarrationError.sessionEnded) { try fixture.service.session(stolen.token) }

        // Sign out everywhere ends them all, and says so in the audit log.
        let phone = try fixture.service.signIn(account: "ann", passphrase: Self.passphrase, address: "198.51.100.1")
        let laptop = try fixture.service.signIn(account: "ann", passphrase: Self.passphrase, address: "198.51.100.2")
        #expect(try fixture.service.signOutEverywhere(ann, by: "ann") == 2)
        for token in [phone.token, laptop.token] { #expect(throws: NarrationError.sessionEnded) { try fixture.service.session(token) } }

        // Disabling ends the sessions and refuses sign-in.
        let open = try fixture.service.signIn(account: "ann", passphrase: Self.passphrase, address: "198.51.100.1")
        #expect(try fixture.service.disable(ann, by: Fixture.actor) == 1)
        #expect(throws: NarrationError.sessionEnded) { try fixture.service.session(open.token) }
        #expect(throws: NarrationError.accountDisabled(ann)) { try fixture.service.signIn(account: "ann", passphrase: Self.passphrase, address: "198.51.100.1") }
        // Malformed and guessed session secrets find nothing.
        for token in ["", "x", String(repeating: "A", count: 43), open.token + "A"] {
            #expect(throws: NarrationError.sessionEnded) { try fixture.service.session(token) }
        }
    }

    /// ann, a volunteer who accepted her invitation, signed in.
    static func annSignedIn(_ fixture: Fixture) throws -> AccountService.SignedIn {
        let invitation = try fixture.service.add(try fixture.name("ann"), role: .volunteer, by: Fixture.actor)
        try fixture.service.acceptInvitation(account: "ann", token: invitation.token, passphrase: passphrase)
        return try fixture.service.signIn(account: "ann", passphrase: passphrase, address: "192.0.2.1")
    }

    @Test("a check that does not touch the session (a server's periodic look at an open page) never keeps it from going idle")
    func untouchedChecks() throws {
        let fixture = try Fixture()
        let signedIn = try Self.annSignedIn(fixture)
        let before = try fixture.snapshot()
        for _ in 0..<29 {
            fixture.clock.advance(2 * 60)
            #expect(try fixture.service.session(signedIn.token, touching: false).name.rawValue == "ann")
        }
        #expect(try fixture.snapshot() == before, "an untouched check wrote to the catalog")
        fixture.clock.advance(2 * 60)  // an hour since sign-in, with checks every two minutes
        #expect(throws: NarrationError.sessionEnded) { try fixture.service.session(signedIn.token, touching: false) }
    }

    @Test("a session's use is written at most once a minute: uses within it write nothing; the next one a minute on does")
    func touchesOncePerMinute() throws {
        let fixture = try Fixture()
        let signedIn = try Self.annSignedIn(fixture)
        let before = try fixture.snapshot()
        for _ in 0..<5 {
            fixture.clock.advance(11)
            _ = try fixture.service.session(signedIn.token)
        }
        #expect(try fixture.snapshot() == before, "a use within a minute of the last one written wrote to the catalog")
        fixture.clock.advance(5)  // a minute since sign-in
        _ = try fixture.service.session(signedIn.token)
        #expect(try fixture.snapshot() != before, "a use a minute on was not written")
    }

    @Test("brute force at sign-in: five wrong passphrases, then even the right one waits; after 15 minutes the owner signs in")
    func bruteForce() throws {
        let fixture = try Fixture()
        let invitation = try fixture.service.add(try fixture.name("ann"), role: .volunteer, by: Fixture.actor)
        try fixture.service.acceptInvitation(account: "ann", token: invitation.token, passphrase: Self.passphrase)
        let before = try fixture.snapshot()
        for guess in 0..<5 {
            #expect(throws: NarrationError.signInWrong) { try fixture.service.signIn(account: "ann", passphrase: "guess number \(guess)", address: "203.0.113.\(guess)") }
        }
        let until = fixture.clock.date.addingTimeInterval(15 * 60)
        for guess in 0..<50 {
            #expect(throws: NarrationError.signInWait(until: until)) { try fixture.service.signIn(account: "ann", passphrase: "guess \(guess)", address: "203.0.113.\(guess)") }
        }
        #expect(throws: NarrationError.signInWait(until: until)) { try fixture.service.signIn(account: "ann", passphrase: Self.passphrase, address: "192.0.2.1") }
        #expect(try fixture.snapshot() == before)
        fixture.clock.advance(15 * 60)
        #expect(try fixture.service.signIn(account: "ann", passphrase: Self.passphrase, address: "192.0.2.1").account.name.rawValue == "ann")
        // An unknown name is refused in the same words as a wrong passphrase.
        #expect(throws: NarrationError.signInWrong) { try fixture.service.signIn(account: "nobody", passphrase: Self.passphrase, address: "192.0.2.2") }
        #expect(throws: NarrationError.signInWrong) { try fixture.service.signIn(account: "NOT A NAME", passphrase: Self.passphrase, address: "192.0.2.2") }
    }

    @Test("an account with no passphrase yet cannot sign in with any passphrase, even an empty one")
    func noPassphraseYet() throws {
        let fixture = try Fixture()
        _ = try fixture.service.add(try fixture.name("ann"), role: .admin, by: Fixture.actor)
        for guess in ["", Self.passphrase] {
            #expect(throws: NarrationError.signInWrong) { try fixture.service.signIn(account: "ann", passphrase: guess, address: "192.0.2.\(guess.count)") }
        }
    }

    @Test("every account change is in the audit log with who, when and what; the same name twice is refused and changes nothing")
    func auditLog() throws {
        let fixture = try Fixture()
        let ann = try fixture.name("ann")
        let start = fixture.clock.date
        let invitation = try fixture.service.add(ann, role: .volunteer, by: Fixture.actor)
        let before = try fixture.snapshot()
        #expect(throws: NarrationError.usage("There is already an account named \"ann\"; give another name.")) {
            try fixture.service.add(ann, role: .admin, by: Fixture.actor)
        }
        #expect(try fixture.snapshot() == before)
        fixture.clock.advance(60)
        try fixture.service.acceptInvitation(account: "ann", token: invitation.token, passphrase: Self.passphrase)
        fixture.clock.advance(60)
        #expect(try fixture.service.setRole(.coordinator, of: ann, by: Fixture.actor) == .volunteer)
        #expect(try fixture.service.setRole(.coordinator, of: ann, by: Fixture.actor) == .coordinator)  // no change, no line
        #expect(try fixture.service.disable(ann, by: Fixture.actor) == 0)
        #expect(try fixture.service.disable(ann, by: Fixture.actor) == nil)
        #expect(try fixture.service.enable(ann, by: "boss"))
        _ = try fixture.service.reset(ann, by: "boss")
        _ = try fixture.service.add(try fixture.name("bob"), role: .proofListener, by: "boss")
        #expect(throws: NarrationError.unknownAccount("zed")) { try fixture.service.disable(try fixture.name("zed"), by: "boss") }

        let log = try fixture.service.auditLog()
        let expiry = "2027-01-22 08:00 UTC"
        #expect(log.map { "\($0.sequence) \($0.actor) \($0.action.rawValue) \($0.account?.rawValue ?? "-") \($0.detail)" } == [
            "1 command line (user tester) account-added ann role volunteer, invitation until \(expiry)",
            "2 ann passphrase-set ann invitation accepted",
            "3 command line (user tester) role-changed ann role volunteer → coordinator",
            "4 command line (user tester) account-disabled ann sessions ended",
            "5 boss account-enabled ann ",
            "6 boss account-reset ann passphrase cleared, earlier invitations void, new invitation until 2027-01-22 08:02 UTC",
            "7 boss account-added bob role proof-listener, invitation until 2027-01-22 08:02 UTC",
        ])
        #expect(log.map(\.at) == [start, start + 60] + Array(repeating: start + 120, count: 5))
        #expect(try fixture.service.auditLog(account: try fixture.name("bob")).map(\.sequence) == [7])
        #expect(try fixture.service.auditLog(since: start + 61).map(\.sequence) == [3, 4, 5, 6, 7])
        #expect(try fixture.service.auditLog(account: ann, since: start + 60).map(\.sequence) == [2, 3, 4, 5, 6])
    }

    @Test("the audit log refuses UPDATE and DELETE, even from outside narrate; its lines stay as they were")
    func appendOnly() throws {
        let fixture = try Fixture()
        _ = try fixture.service.add(try fixture.name("ann"), role: .volunteer, by: Fixture.actor)
        let before = try fixture.snapshot()
        let queue = try DatabaseQueue(path: fixture.catalog.path)
        for statement in [
            "UPDATE audit_entry SET actor = 'someone else'", "DELETE FROM audit_entry", "DELETE FROM audit_entry WHERE sequence = 1",
            "UPDATE audit_entry SET sequence = 9 WHERE sequence = 1",
        ] {
            #expect(throws: DatabaseError.self, "\(statement)") { try queue.write { db in try db.execute(sql: statement) } }
        }
        do {
            try queue.write { db in try db.execute(sql: "DELETE FROM audit_entry") }
            Issue.record("DELETE FROM audit_entry was carried out")
        } catch let error as DatabaseError {
            #expect(error.message == "the audit log is append-only")
        }
        #expect(try fixture.snapshot() == before)
    }

    @Test("seeded fuzzing of every outside text the accounts take: each refused as a sentence, never a trap, nothing changed")
    func fuzz() throws {
        let fixture = try Fixture()
        let invitation = try fixture.service.add(try fixture.name("ann"), role: .volunteer, by: Fixture.actor)
        let before = try fixture.snapshot()
        var generator = SeededGenerator(default: 33)
        let pieces: [String] = ["ann", "a", "\u{0}", "\n", "\u{1B}[2J", "é", "🙂", "'", "\"", ";", "--", "%", "_", "=", "&", "#", " ", "A", "9", invitation.token]
        func text() -> String {
            let count = Int.random(in: 0...12, using: &generator)
            var result = (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined()
            if Int.random(in: 0..<20, using: &generator) == 0 { result += String(repeating: "x", count: 10_000) }
            return result
        }
        for round in 0..<300 {
            let (name, token, words) = (text(), text(), text())
            // The one genuine pair is the invitation working, which other tests show.
            if name == "ann" && token == invitation.token { continue }
            do {
                try fixture.service.acceptInvitation(account: name, token: token, passphrase: words)
                Issue.record("seed \(generator.seed), round \(round): accepted \(name.debugDescription) \(token.debugDescription)")
            } catch {
                #expect(error.kind == .accountRefused || error.kind == .usage, "seed \(generator.seed): \(error)")
            }
            #expect(throws: NarrationError.self) { try fixture.service.signIn(account: name, passphrase: words, address: token) }
            #expect(throws: NarrationError.sessionEnded) { try fixture.service.session(token) }
            _ = try? AccountName(name)
            _ = try? Role(naming: name)
            _ = try? ServiceAddress(token)
            _ = try? PassphraseRule.check(words, for: try fixture.name("ann"))
        }
        #expect(try fixture.snapshot() == before, "seed \(generator.seed)")
    }

    @Test("a catalog without accounts lists none and has an empty audit log")
    func noAccounts() throws {
        let fixture = try Fixture()
        #expect(try fixture.service.accounts().isEmpty)
        #expect(try fixture.service.auditLog().isEmpty)
        #expect(throws: NarrationError.signInWrong) { try fixture.service.signIn(account: "admin", passphrase: Self.passphrase, address: "192.0.2.1") }
    }
}
