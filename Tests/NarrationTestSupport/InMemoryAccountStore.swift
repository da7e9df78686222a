public import Foundation
public import Narration
public import NarrationCore
import Synchronization

/// An `AccountStore` in memory, for fast tests of the account rules and to keep the protocol
/// honest: everything `AccountService` needs is in the protocol, not in SQL. Each method takes
/// one lock, so its change and its audit line are one step, as in a transaction.
public final class InMemoryAccountStore: AccountStore {
    private struct State {
        var accounts: [AccountName: Account] = [:]
        var passphrases: [AccountName: String] = [:]
        var invitations: [String: StoredInvitation] = [:]
        var sessions: [String: StoredSession] = [:]
        var audit: [AuditEntry] = []

        mutating func append(_ entry: AuditEntry) {
            audit.append(AuditEntry(
                sequence: Int64(audit.count + 1), at: entry.at, actor: entry.actor, action: entry.action, account: entry.account, detail: entry.detail))
        }

        mutating func endSessions(of name: AccountName) -> Int {
            let ended = sessions.filter { $0.value.account == name }.map(\.key)
            for key in ended { sessions[key] = nil }
            return ended.count
        }

        func withInvitation(_ account: Account) -> Account {
            var account = account
            account.hasPassphrase = passphrases[account.name] != nil
            account.invitationExpiresAt = invitations.values.filter { $0.account == account.name && $0.usedAt == nil }.map(\.expiresAt).max()
            return account
        }
    }

    private let state = Mutex(State())

    public init() {}

    public func accounts() throws(NarrationError) -> [Account] {
        state.withLock { state in state.accounts.values.sorted { $0.name < $1.name }.map(state.withInvitation) }
    }

    public func account(named name: AccountName) throws(NarrationError) -> Account? {
        state.withLock { state in state.accounts[name].map(state.withInvitation) }
    }

    public func addAccount(_ account: Account, invitation: StoredInvitation, audit: AuditEntry) throws(NarrationError) {
        try state.withLock { (state) throws(NarrationError) in
            guard state.accounts[account.name] == nil else { throw .usage("There is already an account named \"\(account.name)\"; give another name.") }
            state.accounts[account.name] = account
            state.invitations[invitation.tokenHash] = invitation
            state.append(audit)
        }
    }

    public func saveAccount(_ account: Account, endingSessions: Bool, audit: AuditEntry) throws(NarrationError) -> Int {
        try state.withLock { (state) throws(NarrationError) in
            guard var stored = state.accounts[account.name] else { throw .unknownAccount(account.name.rawValue) }
            stored.role = account.role
            stored.isEnabled = account.isEnabled
            state.accounts[account.name] = stored
            let ended = endingSessions ? state.endSessions(of: account.name) : 0
            state.append(audit)
            return ended
        }
    }

    public func resetAccount(_ name: AccountName, invitation: StoredInvitation, audit: AuditEntry) throws(NarrationError) -> Int {
        try state.withLock { (state) throws(NarrationError) in
            guard state.accounts[name] != nil else { throw .unknownAccount(name.rawValue) }
            state.passphrases[name] = nil
            state.invitations = state.invitations.filter { $0.value.account != name }
            state.invitations[invitation.tokenHash] = invitation
            let ended = state.endSessions(of: name)
            state.append(audit)
            return ended
        }
    }

    public func invitation(tokenHash: String) throws(NarrationError) -> StoredInvitation? {
        state.withLock { $0.invitations[tokenHash] }
    }

    public func acceptInvitation(
        tokenHash: String, for name: AccountName, passphraseHash: String, now: Date, audit: AuditEntry
    ) throws(NarrationError) -> Bool {
        state.withLock { state in
            guard let invitation = state.invitations[tokenHash], invitation.account == name, invitation.usedAt == nil, invitation.expiresAt > now,
                  state.accounts[name]?.isEnabled == true
            else { return false }
            state.invitations[tokenHash] = StoredInvitation(
                tokenHash: tokenHash, account: name, createdAt: invitation.createdAt, expiresAt: invitation.expiresAt, usedAt: now)
            state.passphrases[name] = passphraseHash
            _ = state.endSessions(of: name)
            state.append(audit)
            return true
        }
    }

    public func passphraseHash(of name: AccountName) throws(NarrationError) -> String? {
        state.withLock { $0.passphrases[name] }
    }

    public func addSession(_ session: StoredSession) throws(NarrationError) {
        state.withLock { $0.sessions[session.tokenHash] = session }
    }

    public func session(tokenHash: String) throws(NarrationError) -> StoredSession? {
        state.withLock { $0.sessions[tokenHash] }
    }

    public func touchSession(tokenHash: String, at time: Date) throws(NarrationError) {
        state.withLock { state in
            guard let session = state.sessions[tokenHash] else { return }
            state.sessions[tokenHash] = StoredSession(
                tokenHash: tokenHash, account: session.account, createdAt: session.createdAt, lastSeenAt: time, address: session.address)
        }
    }

    public func endSession(tokenHash: String) throws(NarrationError) {
        state.withLock { $0.sessions[tokenHash] = nil }
    }

    public func endSessions(of name: AccountName, audit: AuditEntry?) throws(NarrationError) -> Int {
        state.withLock { state in
            let ended = state.endSessions(of: name)
            if let audit { state.append(audit) }
            return ended
        }
    }

    public func auditLog(account: AccountName?, since: Date?) throws(NarrationError) -> [AuditEntry] {
        state.withLock { state in
            state.audit.filter { entry in (account == nil || entry.account == account) && (since.map { entry.at >= $0 } ?? true) }
        }
    }
}
