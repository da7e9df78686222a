public import Foundation

/// A person's account in a reading service: who they are, what they do, whether they may sign in.
///
/// The passphrase itself is never part of the value; `hasPassphrase` says whether the invitation
/// has been accepted (or accepted again after a reset).
public struct Account: Sendable, Equatable {
    public let name: AccountName
    public var role: Role
    /// A disabled account can do nothing: it cannot sign in, its sessions are ended, and
    /// `Permissions.may` answers no to everything it asks.
    public var isEnabled: Bool
    public var hasPassphrase: Bool
    public let createdAt: Date
    /// When the invitation waiting to be used stops working; nil when none is waiting (used,
    /// or never sent). An expired one still shows, so that the list says it expired.
    public var invitationExpiresAt: Date?

    public init(name: AccountName, role: Role, isEnabled: Bool = true, hasPassphrase: Bool = false, createdAt: Date, invitationExpiresAt: Date? = nil) {
        self.name = name
        self.role = role
        self.isEnabled = isEnabled
        self.hasPassphrase = hasPassphrase
        self.createdAt = createdAt
        self.invitationExpiresAt = invitationExpiresAt
    }
}
