public import Foundation
public import NarrationCore
import SQLEngines

/// The catalog as a reading service's `AccountStore`, on either engine: four tables added by the
/// step `service-accounts` (snake_case names, `BIGINT` seconds since 1970, booleans as 0 and 1;
/// `CatalogSchema` gives PostgreSQL the audit log's row id and its append-only triggers its own way).
extension Catalog: AccountStore {
    /// The tables of accounts, invitations, sessions and the audit log, whose triggers refuse
    /// every UPDATE and DELETE of a line of the log.
    static let accountsSchema = [
        """
        CREATE TABLE account (
            name TEXT NOT NULL PRIMARY KEY,
            role TEXT NOT NULL CHECK (role IN ('volunteer', 'proof-listener', 'coordinator', 'admin')),
            enabled BOOLEAN NOT NULL,
            passphrase_hash TEXT,
            created_at BIGINT NOT NULL
        )
        """,
        """
        CREATE TABLE account_invitation (
            token_hash TEXT NOT NULL PRIMARY KEY,
            account_name TEXT NOT NULL REFERENCES account (name),
            created_at BIGINT NOT NULL,
            expires_at BIGINT NOT NULL,
            used_at BIGINT
        )
        """,
        "CREATE INDEX account_invitation_by_account ON account_invitation (account_name)",
        """
        CREATE TABLE account_session (
            token_hash TEXT NOT NULL PRIMARY KEY,
            account_name TEXT NOT NULL REFERENCES account (name),
            created_at BIGINT NOT NULL,
            last_seen_at BIGINT NOT NULL,
            address TEXT NOT NULL
        )
        """,
        "CREATE INDEX account_session_by_account ON account_session (account_name)",
        """
        CREATE TABLE audit_entry (
            sequence INTEGER PRIMARY KEY,
            at BIGINT NOT NULL,
            actor TEXT NOT NULL,
            action TEXT NOT NULL,
            account_name TEXT,
            detail TEXT NOT NULL
        )
        """,
        "CREATE INDEX audit_entry_by_account ON audit_entry (account_name, sequence)",
        """
        CREATE TRIGGER audit_entry_no_update BEFORE UPDATE ON audit_entry
        BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END
        """,
        """
        CREATE TRIGGER audit_entry_no_delete BEFORE DELETE ON audit_entry
        BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END
        """,
    ]

    public func accounts() throws(NarrationError) -> [Account] {
        try reading { sql in try sql.rows(Self.accountQuery + " ORDER BY a.name", []).map(Self.account) }
    }

    public func account(named name: AccountName) throws(NarrationError) -> Account? {
        try reading { sql in try Self.account(named: name, sql) }
    }

    public func addAccount(_ account: Account, invitation: StoredInvitation, audit: AuditEntry) throws(NarrationError) {
        try writing { sql in
            guard try Self.account(named: account.name, sql) == nil else {
                throw NarrationError.usage("There is already an account named \"\(account.name)\"; give another name.")
            }
            try sql.execute(
                "INSERT INTO account (name, role, enabled, passphrase_hash, created_at) VALUES (?, ?, ?, NULL, ?)",
                .text(account.name.rawValue), .text(account.role.rawValue), .boolean(account.isEnabled), Self.seconds(account.createdAt))
            try Self.insert(invitation, sql)
            try Self.append(audit, sql)
        }
    }

    public func saveAccount(_ account: Account, endingSessions: Bool, audit: AuditEntry) throws(NarrationError) -> Int {
        try writing { sql in
            let changed = try sql.execute(
                "UPDATE account SET role = ?, enabled = ? WHERE name = ?",
                .text(account.role.rawValue), .boolean(account.isEnabled), .text(account.name.rawValue))
            guard changed == 1 else { throw NarrationError.unknownAccount(account.name.rawValue) }
            let ended = endingSessions ? try Self.deleteSessions(of: account.name, sql) : 0
            try Self.append(audit, sql)
            return ended
        }
    }

    public func resetAccount(_ name: AccountName, invitation: StoredInvitation, audit: AuditEntry) throws(NarrationError) -> Int {
        try writing { sql in
            let changed = try sql.execute("UPDATE account SET passphrase_hash = NULL WHERE name = ?", .text(name.rawValue))
            guard changed == 1 else { throw NarrationError.unknownAccount(name.rawValue) }
            try sql.execute("DELETE FROM account_invitation WHERE account_name = ?", .text(name.rawValue))
            try Self.insert(invitation, sql)
            let ended = try Self.deleteSessions(of: name, sql)
            try Self.append(audit, sql)
            return ended
        }
    }

    public func invitation(tokenHash: String) throws(NarrationError) -> StoredInvitation? {
        try reading { sql in
            try sql.row(
                "SELECT token_hash, account_name, created_at, expires_at, used_at FROM account_invitation WHERE token_hash = ?", .text(tokenHash)
            ).map { row in
                StoredInvitation(
                    tokenHash: try row.text("token_hash"), account: try Self.name(try row.text("account_name")),
                    createdAt: Self.date(try row.integer("created_at")), expiresAt: Self.date(try row.integer("expires_at")),
                    usedAt: try row.optionalInteger("used_at").map(Self.date))
            }
        }
    }

    public func acceptInvitation(
        tokenHash: String, for name: AccountName, passphraseHash: String, now: Date, audit: AuditEntry
    ) throws(NarrationError) -> Bool {
        try writing { sql in
            // The checks and the use in one statement, inside the transaction: of two acceptances
            // at once, one finds the invitation used.
            let used = try sql.execute(
                """
                UPDATE account_invitation SET used_at = ?
                WHERE token_hash = ? AND account_name = ? AND used_at IS NULL AND expires_at > ?
                  AND EXISTS (SELECT 1 FROM account WHERE name = ? AND enabled = 1)
                """,
                Self.seconds(now), .text(tokenHash), .text(name.rawValue), Self.seconds(now), .text(name.rawValue))
            guard used == 1 else { return false }
            try sql.execute("UPDATE account SET passphrase_hash = ? WHERE name = ?", .text(passphraseHash), .text(name.rawValue))
            _ = try Self.deleteSessions(of: name, sql)
            try Self.append(audit, sql)
            return true
        }
    }

    public func passphraseHash(of name: AccountName) throws(NarrationError) -> String? {
        try reading { sql in
            try sql.row("SELECT passphrase_hash FROM account WHERE name = ?", .text(name.rawValue))?.optionalText("passphrase_hash")
        }
    }

    public func addSession(_ session: StoredSession) throws(NarrationError) {
        try writing { sql in
            try sql.execute(
                "INSERT INTO account_session (token_hash, account_name, created_at, last_seen_at, address) VALUES (?, ?, ?, ?, ?)",
                .text(session.tokenHash), .text(session.account.rawValue), Self.seconds(session.createdAt), Self.seconds(session.lastSeenAt),
                .text(session.address))
        }
    }

    public func session(tokenHash: String) throws(NarrationError) -> StoredSession? {
        try reading { sql in
            try sql.row(
                "SELECT token_hash, account_name, created_at, last_seen_at, address FROM account_session WHERE token_hash = ?", .text(tokenHash)
            ).map { row in
                StoredSession(
                    tokenHash: try row.text("token_hash"), account: try Self.name(try row.text("account_name")),
                    createdAt: Self.date(try row.integer("created_at")), lastSeenAt: Self.date(try row.integer("last_seen_at")),
                    address: try row.text("address"))
            }
        }
    }

    public func touchSession(tokenHash: String, at time: Date) throws(NarrationError) {
        try writing { sql in
            try sql.execute("UPDATE account_session SET last_seen_at = ? WHERE token_hash = ?", Self.seconds(time), .text(tokenHash))
        }
    }

    public func endSession(tokenHash: String) throws(NarrationError) {
        try writing { sql in try sql.execute("DELETE FROM account_session WHERE token_hash = ?", .text(tokenHash)) }
    }

    public func endSessions(of name: AccountName, audit: AuditEntry?) throws(NarrationError) -> Int {
        try writing { sql in
            let ended = try Self.deleteSessions(of: name, sql)
            if let audit { try Self.append(audit, sql) }
            return ended
        }
    }

    public func auditLog(account: AccountName?, since: Date?) throws(NarrationError) -> [AuditEntry] {
        var conditions: [String] = []
        var arguments: [SQLValue] = []
        if let account {
            conditions.append("account_name = ?")
            arguments.append(.text(account.rawValue))
        }
        if let since {
            conditions.append("at >= ?")
            arguments.append(Self.seconds(since))
        }
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        let query = "SELECT sequence, at, actor, action, account_name, detail FROM audit_entry\(filter) ORDER BY sequence"
        return try reading { sql in
            try sql.rows(query, arguments).map { row in
                let actionText = try row.text("action")
                guard let action = AuditEntry.Action(rawValue: actionText) else {
                    throw NarrationError(.catalogCorrupt, "The audit log holds an action narrate never writes (\(Self.quoted(actionText))). \(Self.damagedFix)")
                }
                return AuditEntry(
                    sequence: try row.integer("sequence"), at: Self.date(try row.integer("at")), actor: try row.text("actor"), action: action,
                    account: try row.optionalText("account_name").map(Self.name), detail: try row.text("detail"))
            }
        }
    }

    // MARK: Rows

    /// An account with the expiry of its unused invitation, if it has one.
    private static let accountQuery = """
        SELECT a.name, a.role, a.enabled, CASE WHEN a.passphrase_hash IS NULL THEN 0 ELSE 1 END AS has_passphrase, a.created_at,
               (SELECT MAX(i.expires_at) FROM account_invitation i WHERE i.account_name = a.name AND i.used_at IS NULL) AS invitation_expires_at
        FROM account a
        """

    private static func account(named name: AccountName, _ sql: any SQLTransaction) throws -> Account? {
        try sql.row(accountQuery + " WHERE a.name = ?", .text(name.rawValue)).map(account)
    }

    private static func account(_ row: SQLRow) throws -> Account {
        let roleText = try row.text("role")
        guard let role = Role(rawValue: roleText) else {
            throw NarrationError(.catalogCorrupt, "The catalog holds an account role narrate never writes (\(quoted(roleText))). \(damagedFix)")
        }
        return Account(
            name: try name(try row.text("name")), role: role, isEnabled: try row.boolean("enabled"), hasPassphrase: try row.boolean("has_passphrase"),
            createdAt: date(try row.integer("created_at")), invitationExpiresAt: try row.optionalInteger("invitation_expires_at").map(date))
    }

    /// A stored name, checked again: storage another program can write is outside input.
    static func name(_ text: String) throws -> AccountName {
        do { return try AccountName(text) } catch {
            throw NarrationError(.catalogCorrupt, "The catalog holds an account name narrate never writes (\(quoted(text))). \(damagedFix)")
        }
    }

    private static func insert(_ invitation: StoredInvitation, _ sql: any SQLTransaction) throws {
        try sql.execute(
            "INSERT INTO account_invitation (token_hash, account_name, created_at, expires_at, used_at) VALUES (?, ?, ?, ?, NULL)",
            .text(invitation.tokenHash), .text(invitation.account.rawValue), seconds(invitation.createdAt), seconds(invitation.expiresAt))
    }

    private static func deleteSessions(of name: AccountName, _ sql: any SQLTransaction) throws -> Int {
        try sql.execute("DELETE FROM account_session WHERE account_name = ?", .text(name.rawValue))
    }

    /// Adds a line to the audit log: the only statement that writes to it.
    static func append(_ entry: AuditEntry, _ sql: any SQLTransaction) throws {
        try sql.execute(
            "INSERT INTO audit_entry (at, actor, action, account_name, detail) VALUES (?, ?, ?, ?, ?)",
            seconds(entry.at), .text(entry.actor), .text(entry.action.rawValue), entry.account.map { .text($0.rawValue) } ?? .null, .text(entry.detail))
    }

    /// A time as the service's tables keep it: whole seconds since 1970.
    static func seconds(_ date: Date) -> SQLValue { .integer(Int64(date.timeIntervalSince1970.rounded(.down))) }
    static func date(_ seconds: Int64) -> Date { Date(timeIntervalSince1970: TimeInterval(seconds)) }
}
