import Foundation
@testable import Narration
import NarrationCore
import NarrationTestSupport
import Testing

/// The account rules on both stores, the catalog and the in-memory stand-in: the same answers
/// from each, so that the rules live in `AccountService` and a store only keeps.
@Suite("Account rules on every AccountStore")
struct AccountStoreContractTests {
    enum Kind: String, CaseIterable { case catalog, postgreSQL, memory }

    /// A service on a store of `kind`, its clock, and the folder that keeps a catalog alive.
    static func service(_ kind: Kind) throws -> (AccountService, HandClock, TemporaryFolder) {
        let folder = TemporaryFolder("narrate-account-store")
        let clock = HandClock()
        let store: any AccountStore = switch kind {
        case .catalog: try TestCatalogs.sqlite(folder)
        case .postgreSQL: try TestCatalogs.postgreSQL(folder)
        case .memory: InMemoryAccountStore()
        }
        return (AccountService(store: store, clock: clock.function, hashing: .init(iterations: 1, memoryKiB: 64, lanes: 1)), clock, folder)
    }

    static let passphrase = "summer lantern over the weir"

    @Test("a day of one account: invitation once, sessions, disable, reset; the same log and refusals on each store", arguments: Kind.allCases)
    func day(kind: Kind) throws {
        let (service, clock, folder) = try Self.service(kind)
        _ = folder
        let ann = try AccountName("ann")
        let invitation = try service.add(ann, role: .volunteer, by: "admin")
        #expect(try service.accounts().map(\.invitationExpiresAt) == [clock.date.addingTimeInterval(Invitation.lifetime)])
        #expect(throws: NarrationError.usage("There is already an account named \"ann\"; give another name.")) { try service.add(ann, role: .admin, by: "admin") }
        try service.acceptInvitation(account: "ann", token: invitation.token, passphrase: Self.passphrase)
        #expect(throws: NarrationError.invitationUsed) { try service.acceptInvitation(account: "ann", token: invitation.token, passphrase: Self.passphrase) }
        let session = try service.signIn(account: "ann", passphrase: Self.passphrase, address: "192.0.2.1")
        clock.advance(30 * 60)
        #expect(try service.session(session.token).name == ann)
        #expect(try service.disable(ann, by: "admin") == 1)
        #expect(throws: NarrationError.sessionEnded) { try service.session(session.token) }
        #expect(try service.enable(ann, by: "admin"))
        let (fresh, ended) = try service.reset(ann, by: "admin")
        #expect(ended == 0)
        #expect(throws: NarrationError.signInWrong) { try service.signIn(account: "ann", passphrase: Self.passphrase, address: "192.0.2.1") }
        #expect(throws: NarrationError.invitationNotValid) { try service.acceptInvitation(account: "ann", token: invitation.token, passphrase: Self.passphrase) }
        clock.advance(Invitation.lifetime)
        #expect(throws: NarrationError.invitationExpired(on: fresh.expiresAt)) {
            try service.acceptInvitation(account: "ann", token: fresh.token, passphrase: Self.passphrase)
        }
        #expect(try service.accounts().map { "\($0.name) \($0.role) \($0.isEnabled) \($0.hasPassphrase)" } == ["ann volunteer true false"])
        #expect(try service.auditLog().map { "\($0.sequence) \($0.actor) \($0.action.rawValue)" } == [
            "1 admin account-added", "2 ann passphrase-set", "3 admin account-disabled", "4 admin account-enabled", "5 admin account-reset",
        ])
        #expect(throws: NarrationError.unknownAccount("zed")) { try service.reset(try AccountName("zed"), by: "admin") }
    }
}
