import Foundation
import GRDB
public import NarrationCore

/// The catalog as a reading service's `AccountActivityStore`: the table `account_activity`, added
/// by the migration `service-activity`, in SQL that SQLite and PostgreSQL both accept, except, as
/// for the audit log, its `INTEGER PRIMARY KEY` and its append-only triggers.
extension Catalog: AccountActivityStore {
    /// The activity log, whose triggers refuse every UPDATE and DELETE of a record.
    static let activitySchema = [
        """
        CREATE TABLE account_activity (
            sequence INTEGER PRIMARY KEY,
            account_name TEXT NOT NULL REFERENCES account (name),
            kind TEXT NOT NULL CHECK (kind IN ('preparation', 'take', 'pickup', 'review')),
            milliseconds BIGINT NOT NULL CHECK (milliseconds >= 0),
            article_id TEXT,
            at BIGINT NOT NULL
        )
        """,
        "CREATE INDEX account_activity_by_account ON account_activity (account_name, sequence)",
        """
        CREATE TRIGGER account_activity_no_update BEFORE UPDATE ON account_activity
        BEGIN SELECT RAISE(ABORT, 'the activity log is append-only'); END
        """,
        """
        CREATE TRIGGER account_activity_no_delete BEFORE DELETE ON account_activity
        BEGIN SELECT RAISE(ABORT, 'the activity log is append-only'); END
        """,
    ]

    static func registerActivityMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("service-activity") { db in
            for statement in activitySchema { try db.execute(sql: statement) }
        }
    }

    public func appendActivity(_ record: ActivityRecord) throws(NarrationError) {
        try write { db in
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM account WHERE name = ?)", arguments: [record.account.rawValue]) == true else {
                throw NarrationError.unknownAccount(record.account.rawValue)
            }
            try db.execute(
                sql: "INSERT INTO account_activity (account_name, kind, milliseconds, article_id, at) VALUES (?, ?, ?, ?, ?)",
                arguments: [
                    record.account.rawValue, record.kind.rawValue, record.length.milliseconds, record.article?.rawValue,
                    Int64(record.at.timeIntervalSince1970.rounded(.down)),
                ])
        }
    }

    public func activity(of account: AccountName?) throws(NarrationError) -> [ActivityRecord] {
        let filter = account == nil ? "" : " WHERE account_name = ?"
        let arguments: StatementArguments = account.map { [$0.rawValue] } ?? []
        return try read { db in
            try Row.fetchAll(db, sql: "SELECT account_name, kind, milliseconds, article_id, at FROM account_activity\(filter) ORDER BY sequence", arguments: arguments)
                .map(Self.activityRecord)
        }
    }

    /// The latest time a record may hold: the last second of 9999, as far as calendars reach.
    private static let latestActivity: Int64 = 253_402_300_799

    /// A stored record, each value checked again: storage another program can write is outside
    /// input, and SQLite keeps whatever type it is given.
    private static func activityRecord(_ row: Row) throws -> ActivityRecord {
        let values = (0..<5).map { row[$0] as DatabaseValue }
        let article = values[3].isNull ? Optional<String?>.some(nil) : String.fromDatabaseValue(values[3]).map(Optional.some)
        guard let nameText = String.fromDatabaseValue(values[0]), let name = try? AccountName(nameText),
              let kindText = String.fromDatabaseValue(values[1]), let kind = ActivityRecord.Kind(rawValue: kindText),
              let milliseconds = Int64.fromDatabaseValue(values[2]), let length = ActivitySeconds(storedMilliseconds: milliseconds),
              let seconds = Int64.fromDatabaseValue(values[4]), (0...latestActivity).contains(seconds),
              let article
        else {
            let shown = values.map { quoted($0.description) }.joined(separator: ", ")
            throw NarrationError(.catalogCorrupt, "The activity log holds a record narrate never writes (\(shown)). \(damagedFix)")
        }
        return ActivityRecord(account: name, kind: kind, length: length, article: article.map(ArticleID.init), at: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
}
