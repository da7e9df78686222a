import Foundation
import Narration
import NarrationCore

/// An account as `narrate accounts … --json` prints it.
struct AccountJSON: Encodable {
    let name: String
    /// volunteer, proof-listener, coordinator or admin.
    let role: String
    let enabled: Bool
    let passphraseSet: Bool
    let createdAt: Date
    /// When the invitation waiting to be used stops working (past: it expired unused).
    let invitationExpiresAt: Date?

    init(_ account: Account) {
        name = account.name.rawValue
        role = account.role.rawValue
        enabled = account.isEnabled
        passphraseSet = account.hasPassphrase
        createdAt = account.createdAt
        invitationExpiresAt = account.invitationExpiresAt
    }
}

/// What an `accounts` command that changes an account prints with `--json`: the account as it
/// now is, whether anything changed, and what the change brought.
struct AccountChangeJSON: Encodable {
    struct InvitationJSON: Encodable {
        let link: String
        let expiresAt: Date
    }

    let account: AccountJSON
    let changed: Bool
    /// The role before `role` changed it.
    var previousRole: String?
    var sessionsEnded: Int?
    var invitation: InvitationJSON?

    init(_ account: Account, changed: Bool, previousRole: Role? = nil, sessionsEnded: Int? = nil, invitation: (Invitation, ServiceAddress)? = nil) {
        self.account = AccountJSON(account)
        self.changed = changed
        self.previousRole = previousRole?.rawValue
        self.sessionsEnded = sessionsEnded
        self.invitation = invitation.map { InvitationJSON(link: $0.0.link(at: $0.1), expiresAt: $0.0.expiresAt) }
    }
}

/// A line of the audit log as `narrate audit --json` prints it.
struct AuditEntryJSON: Encodable {
    let sequence: Int64
    let at: Date
    let actor: String
    let action: String
    let account: String?
    let detail: String

    init(_ entry: AuditEntry) {
        sequence = entry.sequence
        at = entry.at
        actor = entry.actor
        action = entry.action.rawValue
        account = entry.account?.rawValue
        detail = entry.detail
    }
}
