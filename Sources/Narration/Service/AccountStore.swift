public import Foundation
public import NarrationCore

/// Where a reading service keeps its accounts, invitations, sessions and audit log.
///
/// The catalog keeps them today (`Catalog`, in SQLite); a PostgreSQL catalog is to follow with
/// the same tables, so the SQL behind this is plain SQL both accept. Each method that changes
/// something is one transaction and writes its audit entry inside it: a change is never kept
/// without its line in the log, nor the line without the change. The log has no method to
/// change or remove a line.
public protocol AccountStore: Sendable {
    /// Every account, by name.
    func accounts() throws(NarrationError) -> [Account]
    func account(named name: AccountName) throws(NarrationError) -> Account?

    /// Adds `account` with its first invitation.
    /// - Throws: `usage` when an account of that name exists already (nothing is written).
    func addAccount(_ account: Account, invitation: StoredInvitation, audit: AuditEntry) throws(NarrationError)

    /// Saves `account`'s role and whether it is enabled; ends all its sessions when
    /// `endingSessions`. Returns the number of sessions ended.
    /// - Throws: `unknownAccount` when there is no such account.
    func saveAccount(_ account: Account, endingSessions: Bool, audit: AuditEntry) throws(NarrationError) -> Int

    /// Replaces the account's invitations with `invitation`, forgets its passphrase and ends its
    /// sessions. Returns the number of sessions ended.
    func resetAccount(_ name: AccountName, invitation: StoredInvitation, audit: AuditEntry) throws(NarrationError) -> Int

    func invitation(tokenHash: String) throws(NarrationError) -> StoredInvitation?

    /// Uses the invitation `tokenHash` for `name` at `now` and sets the account's passphrase hash,
    /// ending any sessions it has; only if, checked inside the transaction, the invitation is
    /// the account's, unused and unexpired and the account enabled. Returns whether it was.
    func acceptInvitation(tokenHash: String, for name: AccountName, passphraseHash: String, now: Date, audit: AuditEntry) throws(NarrationError) -> Bool

    func passphraseHash(of name: AccountName) throws(NarrationError) -> String?

    func addSession(_ session: StoredSession) throws(NarrationError)
    func session(tokenHash: String) throws(NarrationError) -> StoredSession?
    func touchSession(tokenHash: String, at time: Date) throws(NarrationError)
    func endSession(tokenHash: String) throws(NarrationError)
    /// Ends every session of `name`, writing `audit` when given. Returns how many there were.
    func endSessions(of name: AccountName, audit: AuditEntry?) throws(NarrationError) -> Int

    /// The audit log, oldest first: all of it, or the entries about `account`, from `since` on.
    func auditLog(account: AccountName?, since: Date?) throws(NarrationError) -> [AuditEntry]
}

/// An invitation as stored: the hash of its secret, never the secret.
public struct StoredInvitation: Sendable, Equatable {
    public let tokenHash: String
    public let account: AccountName
    public let createdAt: Date
    public let expiresAt: Date
    public let usedAt: Date?

    public init(tokenHash: String, account: AccountName, createdAt: Date, expiresAt: Date, usedAt: Date? = nil) {
        self.tokenHash = tokenHash
        self.account = account
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.usedAt = usedAt
    }
}

/// A signed-in session as stored: the hash of its secret, never the secret.
public struct StoredSession: Sendable, Equatable {
    public let tokenHash: String
    public let account: AccountName
    public let createdAt: Date
    public let lastSeenAt: Date
    /// Where the sign-in came from, for the person to recognise their sessions.
    public let address: String

    public init(tokenHash: String, account: AccountName, createdAt: Date, lastSeenAt: Date, address: String) {
        self.tokenHash = tokenHash
        self.account = account
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
        self.address = address
    }
}
