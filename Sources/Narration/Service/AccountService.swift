public import Foundation
public import NarrationCore
import Synchronization

/// A reading service's accounts: adding them, roles, disabling, invitations, passphrases,
/// sessions and the audit log, with every rule checked here and the storage behind
/// `AccountStore`. Each change that matters writes who, when and what to the audit log in the
/// same transaction.
///
/// The world comes in as arguments: the clock (for expiries, timeouts and the rate limit), the
/// hashing cost, the session policy.
public final class AccountService: Sendable {
    public let store: any AccountStore
    private let clock: @Sendable () -> Date
    private let hashing: PassphraseHash.Parameters
    private let sessionPolicy: SessionPolicy
    private let rateLimit: Mutex<LoginRateLimit>
    /// A hash of a random passphrase, checked against when a name is unknown, so that a wrong
    /// name takes as long as a wrong passphrase. Made on first need.
    private let decoy = Mutex<String?>(nil)

    public init(
        store: any AccountStore, clock: @escaping @Sendable () -> Date = { Date() }, hashing: PassphraseHash.Parameters = .standard,
        sessionPolicy: SessionPolicy = SessionPolicy(), rateLimit: LoginRateLimit.Policy = LoginRateLimit.Policy()
    ) {
        self.store = store
        self.clock = clock
        self.hashing = hashing
        self.sessionPolicy = sessionPolicy
        self.rateLimit = Mutex(LoginRateLimit(policy: rateLimit, clock: clock))
    }

    // MARK: Accounts

    /// Adds an account with the role `role` and returns its first invitation, which works once
    /// within `Invitation.lifetime`.
    /// - Throws: `usage` when the name is taken.
    public func add(_ name: AccountName, role: Role, by actor: String) throws(NarrationError) -> Invitation {
        let now = clock()
        let (invitation, stored) = newInvitation(for: name, now: now)
        try store.addAccount(
            Account(name: name, role: role, createdAt: now), invitation: stored,
            audit: AuditEntry(at: now, actor: actor, action: .accountAdded, account: name, detail: "role \(role), invitation until \(AccountTime.utc(invitation.expiresAt))"))
        return invitation
    }

    public func accounts() throws(NarrationError) -> [Account] { try store.accounts() }

    /// The account `name`.
    /// - Throws: `unknownAccount`.
    public func account(_ name: AccountName) throws(NarrationError) -> Account {
        guard let account = try store.account(named: name) else { throw .unknownAccount(name.rawValue) }
        return account
    }

    /// Gives `name` the role `role`; returns the role it had (the same when nothing changed, and
    /// then nothing is written).
    public func setRole(_ role: Role, of name: AccountName, by actor: String) throws(NarrationError) -> Role {
        var account = try account(name)
        let before = account.role
        guard before != role else { return before }
        account.role = role
        _ = try store.saveAccount(
            account, endingSessions: false, audit: AuditEntry(at: clock(), actor: actor, action: .roleChanged, account: name, detail: "role \(before) → \(role)"))
        return before
    }

    /// Disables `name` and ends its sessions; returns how many were ended, or nil when it was
    /// disabled already (nothing is written).
    public func disable(_ name: AccountName, by actor: String) throws(NarrationError) -> Int? {
        var account = try account(name)
        guard account.isEnabled else { return nil }
        account.isEnabled = false
        return try store.saveAccount(
            account, endingSessions: true, audit: AuditEntry(at: clock(), actor: actor, action: .accountDisabled, account: name, detail: "sessions ended"))
    }

    /// Enables `name` again; returns false when it was enabled already (nothing is written).
    public func enable(_ name: AccountName, by actor: String) throws(NarrationError) -> Bool {
        var account = try account(name)
        guard !account.isEnabled else { return false }
        account.isEnabled = true
        _ = try store.saveAccount(account, endingSessions: false, audit: AuditEntry(at: clock(), actor: actor, action: .accountEnabled, account: name, detail: ""))
        return true
    }

    /// A new invitation for `name`: every earlier one stops working, the passphrase is forgotten
    /// and every session ended, so that a reset also shuts out whoever learnt the old
    /// passphrase. Returns the invitation and the number of sessions ended.
    public func reset(_ name: AccountName, by actor: String) throws(NarrationError) -> (invitation: Invitation, sessionsEnded: Int) {
        _ = try account(name)
        let now = clock()
        let (invitation, stored) = newInvitation(for: name, now: now)
        let ended = try store.resetAccount(
            name, invitation: stored,
            audit: AuditEntry(
                at: now, actor: actor, action: .accountReset, account: name,
                detail: "passphrase cleared, earlier invitations void, new invitation until \(AccountTime.utc(invitation.expiresAt))"))
        return (invitation, ended)
    }

    // MARK: Invitations

    /// Accepts the invitation `token` for the account `name` and sets its passphrase.
    /// - Throws: `usage` when the passphrase breaks `PassphraseRule`; `accountRefused` when the
    ///   invitation is not genuine, not this account's, used, expired, or the account disabled.
    ///   Nothing is changed by a refusal, and a refusal says nothing of whether the name exists.
    @discardableResult
    public func acceptInvitation(account name: String, token: String, passphrase: String) throws(NarrationError) -> Account {
        guard let account = try? AccountName(name), SecretToken.isWellFormed(token) else { throw .invitationNotValid }
        let tokenHash = SecretToken.hash(token)
        let now = clock()
        guard let invitation = try store.invitation(tokenHash: tokenHash), invitation.account == account else { throw .invitationNotValid }
        guard invitation.usedAt == nil else { throw .invitationUsed }
        guard invitation.expiresAt > now else { throw .invitationExpired(on: invitation.expiresAt) }
        guard try self.account(account).isEnabled else { throw .accountDisabled(account) }
        try PassphraseRule.check(passphrase, for: account)
        let hash = try PassphraseHash.make(passphrase, parameters: hashing)
        let accepted = try store.acceptInvitation(
            tokenHash: tokenHash, for: account, passphraseHash: hash, now: now,
            audit: AuditEntry(at: now, actor: account.rawValue, action: .passphraseSet, account: account, detail: "invitation accepted"))
        // Used or disabled between the checks above and the transaction.
        guard accepted else { throw .invitationUsed }
        return try self.account(account)
    }

    // MARK: Sessions

    /// The most of an address kept (an IPv6 address with its zone fits): longer text from
    /// outside is cut, so that it can neither fill the rate limit's memory nor the catalog.
    static let addressLength = 64

    /// A session begun by signing in: the secret for the cookie (shown once, stored as a hash).
    public struct SignedIn: Sendable {
        public let account: Account
        public let token: String
    }

    /// Signs `name` in with `passphrase` from `address` and begins a session.
    /// - Throws: `accountRefused`: a wrong name or passphrase (one sentence for both), too many
    ///   of them lately for the account or the address (`LoginRateLimit`), a disabled account.
    public func signIn(account name: String, passphrase: String, address: String) throws(NarrationError) -> SignedIn {
        let typed = String(name.prefix(AccountName.maximumLength + 1))
        let address = String(address.prefix(Self.addressLength))
        if case .wait(let until) = rateLimit.withLock({ $0.attempt(account: typed, address: address) }) { throw .signInWait(until: until) }
        var account: Account?
        var stored: String?
        if let name = try? AccountName(typed), let found = try store.account(named: name) {
            account = found
            stored = try store.passphraseHash(of: name)
        }
        // Unknown names and accounts without a passphrase are checked against a decoy, so that
        // they take as long as a wrong passphrase.
        let against: String
        if let stored { against = stored } else { against = try decoyHash() }
        let matches = try PassphraseHash.verify(String(passphrase.prefix(PassphraseRule.maximumLength)), against: against)
        let right = matches && stored != nil
        guard right, let account else { throw .signInWrong }
        rateLimit.withLock { $0.succeeded(account: typed, address: address) }
        guard account.isEnabled else { throw .accountDisabled(account.name) }
        let token = SecretToken.random()
        let now = clock()
        try store.addSession(StoredSession(tokenHash: SecretToken.hash(token), account: account.name, createdAt: now, lastSeenAt: now, address: address))
        return SignedIn(account: account, token: token)
    }

    /// The account whose session `token` is, marking the session used now unless `touching` is
    /// false (a check that the person did not cause, such as a server's periodic look at an open
    /// page, does not keep the session from going idle). The mark is written at most once a
    /// minute (`SessionPolicy.touchInterval`).
    /// - Throws: `sessionEnded` when the token is unknown, signed out, idle too long, too old or
    ///   its account disabled (an ended session is removed).
    public func session(_ token: String, touching: Bool = true) throws(NarrationError) -> Account {
        guard SecretToken.isWellFormed(token) else { throw .sessionEnded }
        let tokenHash = SecretToken.hash(token)
        guard let session = try store.session(tokenHash: tokenHash) else { throw .sessionEnded }
        let now = clock()
        guard sessionPolicy.verdict(createdAt: session.createdAt, lastSeenAt: session.lastSeenAt, now: now) == .live,
              let account = try store.account(named: session.account), account.isEnabled
        else {
            try store.endSession(tokenHash: tokenHash)
            throw .sessionEnded
        }
        if touching, sessionPolicy.touches(lastSeenAt: session.lastSeenAt, now: now) { try store.touchSession(tokenHash: tokenHash, at: now) }
        return account
    }

    /// Ends the session `token` (signing out on one device); an unknown token changes nothing.
    public func signOut(_ token: String) throws(NarrationError) {
        guard SecretToken.isWellFormed(token) else { return }
        try store.endSession(tokenHash: SecretToken.hash(token))
    }

    /// Ends every session of `name` ("sign out everywhere"); returns how many there were.
    public func signOutEverywhere(_ name: AccountName, by actor: String) throws(NarrationError) -> Int {
        _ = try account(name)
        let now = clock()
        return try store.endSessions(of: name, audit: AuditEntry(at: now, actor: actor, action: .signedOutEverywhere, account: name, detail: "all sessions ended"))
    }

    // MARK: Audit

    /// The audit log, oldest first: all of it, or what concerns `account`, from `since` on.
    public func auditLog(account: AccountName? = nil, since: Date? = nil) throws(NarrationError) -> [AuditEntry] {
        try store.auditLog(account: account, since: since)
    }

    // MARK: Secrets

    private func newInvitation(for name: AccountName, now: Date) -> (Invitation, StoredInvitation) {
        let token = SecretToken.random()
        let expires = now.addingTimeInterval(Invitation.lifetime)
        return (Invitation(account: name, token: token, expiresAt: expires),
                StoredInvitation(tokenHash: SecretToken.hash(token), account: name, createdAt: now, expiresAt: expires))
    }

    private func decoyHash() throws(NarrationError) -> String {
        if let made = decoy.withLock({ $0 }) { return made }
        let made = try PassphraseHash.make(SecretToken.random(), parameters: hashing)
        decoy.withLock { $0 = made }
        return made
    }
}
