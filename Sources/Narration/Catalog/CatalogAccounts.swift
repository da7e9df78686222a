public import Foundation
import GRDB
public import NarrationCore

/// The catalog as a reading service's `AccountStore`: four tables added by the migration
/// `service-accounts`, written in SQL that SQLite and PostgreSQL both accept (snake_case names,
/// `BIGINT` seconds since 1970, `BOOLEAN`), except two things PostgreSQL spells its own way: the
/// audit log's `INTEGER PRIMARY KEY` (there `BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY`)
/// and its append-only triggers (there a trigger function that raises an exception).
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

    static func registerAccountsMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("service-accounts") { db in
            for statement in accountsSchema { try db.execute(sql: statement) }
        }
    }

    public func accounts() throws(NarrationError) -> [Account] {
        try read { db in try Row.fetchAll(db, sql: Self.accountQuery + " ORDER BY a.name").map(Self.account) }
    }

    public func account(named name: AccountName) throws(NarrationError) -> Account? {
        try read { db in try Self.account(named: name, db) }
    }

    public func addAccount(_ account: Account, invitation: StoredInvitation, audit: AuditEntry) throws(NarrationError) {
        try write { db in
            guard try Self.account(named: account.name, db) == nil else {
                throw NarrationError.usage("There is already an account named \"\(account.name)\"; give another name.")
            }
            try db.execute(
                sql: "INSERT INTO account (name, role, enabled, passphrase_hash, created_at) VALUES (?, ?, ?, NULL, ?)",
                arguments: [account.name.rawValue, account.role.rawValue, account.isEnabled, Self.seconds(account.createdAt)])
            try Self.insert(invitation, db)
            try Self.append(audit, db)
        }
    }

    public func saveAccount(_ account: Account, endingSessions: Bool, audit: AuditEntry) throws(NarrationError) -> Int {
        try write { db in
            try db.execute(
                sql: "UPDATE account SET role = ?, enabled = ? WHERE name = ?", arguments: [account.role.rawValue, account.isEnabled, account.name.rawValue])
            guard db.changesCount == 1 else { throw NarrationError.unknownAccount(account.name.rawValue) }
            let ended = endingSessions ? try Self.deleteSessions(of: account.name, db) : 0
            try Self.append(audit, db)
            return ended
        }
    }

    public func resetAccount(_ name: AccountName, invitation: StoredInvitation, audit: AuditEntry) throws(NarrationError) -> Int {
        try write { db in
            try db.execute(sql: "UPDATE account SET passphrase_hash = NULL WHERE name = ?", arguments: [name.rawValue])
            guard db.changesCount == 1 else { throw NarrationError.unknownAccount(name.rawValue) }
            try db.execute(sql: "DELETE FROM account_invitation WHERE account_name = ?", arguments: [name.rawValue])
            try Self.insert(invitation, db)
            let ended = try Self.deleteSessions(of: name, db)
            try Self.append(audit, db)
            return ended
        }
    }

    public func invitation(tokenHash: String) throws(NarrationError) -> StoredInvitation? {
        try read { db in
            try Row.fetchOne(
                db, sql: "SELECT token_hash, account_name, created_at, expires_at, used_at FROM account_invitation WHERE token_hash = ?",
                arguments: [tokenHash]
            ).map { row in
                StoredInvitation(
                    tokenHash: row[0], account: try Self.name(row[1]), createdAt: Self.date(row[2]), expiresAt: Self.date(row[3]),
                    usedAt: (row[4] as Int64?).map(Self.date))
            }
        }
    }

    public func acceptInvitation(
        tokenHash: String, for name: AccountName, passphraseHash: String, now: Date, audit: AuditEntry
    ) throws(NarrationError) -> Bool {
        try write { db in
            // The checks and the use in one statement, inside the transaction: of two acceptances
            // at once, one finds the invitation used.
            try db.execute(
                sql: """
                    UPDATE account_invitation SET used_at = ?
                    WHERE token_hash = ? AND account_name = ? AND used_at IS NULL AND expires_at > ?
                      AND EXISTS (SELECT 1 FROM account WHERE name = ? AND enabled = TRUE)
                    """,
                arguments: [Self.seconds(now), tokenHash, name.rawValue, Self.seconds(now), name.rawValue])
            guard db.changesCount == 1 else { return false }
            try db.execute(sql: "UPDATE account SET passphrase_hash = ? WHERE name = ?", arguments: [passphraseHash, name.rawValue])
            _ = try Self.deleteSessions(of: name, db)
            try Self.append(audit, db)
            return true
        }
    }

    public func passphraseHash(of name: AccountName) throws(NarrationError) -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT passphrase_hash FROM account WHERE name = ?", arguments: [name.rawValue]) }
    }

    public func addSession(_ session: StoredSession) throws(NarrationError) {
        try write { db in
            try db.execute(
                sql: "INSERT INTO account_session (token_hash, account_name, created_at, last_seen_at, address) VALUES (?, ?, ?, ?, ?)",
                arguments: [session.tokenHash, session.account.rawValue, Self.seconds(session.createdAt), Self.seconds(session.lastSeenAt), session.address])
        }
    }

    public func session(tokenHash: String) throws(NarrationError) -> StoredSession? {
        try read { db in
            try Row.fetchOne(
                db, sql: "SELECT token_hash, account_name, created_at, last_seen_at, address FROM account_session WHERE token_hash = ?",
                arguments: [tokenHash]
            ).map { row in
                StoredSession(
                    tokenHash: row[0], account: try Self.name(row[1]), createdAt: Self.date(row[2]), lastSeenAt: Self.date(row[3]), address: row[4])
            }
        }
    }

    public func touchSession(tokenHash: String, at time: Date) throws(NarrationError) {
        try write { db in
            try db.execute(sql: "UPDATE account_session SET last_seen_at = ? WHERE token_hash = ?", arguments: [Self.seconds(time), tokenHash])
        }
    }

    public func endSession(tokenHash: String) throws(NarrationError) {
        try write { db in try db.execute(sql: "DELETE FROM account_session WHERE token_hash = ?", arguments: [tokenHash]) }
    }

    public func endSessions(of name: AccountName, audit: AuditEntry?) throws(NarrationError) -> Int {
        try write { db in
            let ended = try Self.deleteSessions(of: name, db)
            if let audit { try Self.append(audit, db) }
            return ended
        }
    }

    public func auditLog(account: AccountName?, since: Date?) throws(NarrationError) -> [AuditEntry] {
        var conditions: [String] = []
        var arguments: StatementArguments = []
        if let account {
            conditions.append("account_name = ?")
            _ = arguments.append(contentsOf: [account.rawValue])
        }
        if let since {
            conditions.append("at >= ?")
            _ = arguments.append(contentsOf: [Self.seconds(since)])
        }
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        let sql = "SELECT sequence, at, actor, action, account_name, detail FROM audit_entry\(filter) ORDER BY sequence"
        return try read { db in
            try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
                guard let action = AuditEntry.Action(rawValue: row[3]) else {
                    throw NarrationError(.catalogCorrupt, "The audit log holds an action narrate never writes (\(Self.quoted(row[3]))). \(Self.damagedFix)")
                }
                return AuditEntry(
                    sequence: row[0], at: Self.date(row[1]), actor: row[2], action: action, account: try (row[4] as String?).map(Self.name),
                    detail: row[5])
            }
        }
    }

    // MARK: Rows

    /// An account with the expiry of its unused invitation, if it has one.
    private static let accountQuery = """
        SELECT a.name, a.role, a.enabled, a.passphrase_hash IS NOT NULL, a.created_at,
               (SELECT MAX(i.expires_at) FROM account_invitation i WHERE i.account_name = a.name AND i.used_at IS NULL)
        FROM account a
        """

    private static func account(named name: AccountName, _ db: Database) throws -> Account? {
        try Row.fetchOne(db, sql: accountQuery + " WHERE a.name = ?", arguments: [name.rawValue]).map(account)
    }

    private static func account(_ row: Row) throws -> Account {
        guard let role = Role(rawValue: row[1]) else {
            throw NarrationError(.catalogCorrupt, "The catalog holds an account role narrate never writes (\(quoted(row[1]))). \(damagedFix)")
        }
        return Account(
            name: try name(row[0]), role: role, isEnabled: row[2], hasPassphrase: row[3], createdAt: date(row[4]),
            invitationExpiresAt: (row[5] as Int64?).map(date))
    }

    /// A stored name, checked again: storage another program can write is outside input.
    private static func name(_ text: String) throws -> AccountName {
        do { return try AccountName(text) } catch {
            throw NarrationError(.catalogCorrupt, "The catalog holds an account name narrate never writes (\(quoted(text))). \(damagedFix)")
        }
    }

    private static func insert(_ invitation: StoredInvitation, _ db: Database) throws {
        try db.execute(
            sql: "INSERT INTO account_invitation (token_hash, account_name, created_at, expires_at, used_at) VALUES (?, ?, ?, ?, NULL)",
            arguments: [invitation.tokenHash, invitation.account.rawValue, seconds(invitation.createdAt), seconds(invitation.expiresAt)])
    }

    private static func deleteSessions(of name: AccountName, _ db: Database) throws -> Int {
        try db.execute(sql: "DELETE FROM account_session WHERE account_name = ?", arguments: [name.rawValue])
        return db.changesCount
    }

    /// Adds a line to the audit log: the only statement that writes to it.
    static func append(_ entry: AuditEntry, _ db: Database) throws {
        try db.execute(
            sql: "INSERT INTO audit_entry (at, actor, action, account_name, detail) VALUES (?, ?, ?, ?, ?)",
            arguments: [seconds(entry.at), entry.actor, entry.action.rawValue, entry.account?.rawValue, entry.detail])
    }

    private static func seconds(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.down)) }
    private static func date(_ seconds: Int64) -> Date { Date(timeIntervalSince1970: TimeInterval(seconds)) }
}
