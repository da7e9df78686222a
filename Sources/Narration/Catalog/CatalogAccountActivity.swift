import Foundation
public import NarrationCore
import SQLEngines

/// The catalog as a reading service's `AccountActivityStore`, on either engine: the table
/// `account_activity`, added by the step `service-activity` (`CatalogSchema` gives PostgreSQL
/// its row id and its append-only triggers its own way, as for the audit log).
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

    public func appendActivity(_ record: ActivityRecord) throws(NarrationError) {
        try writing { sql in
            guard try sql.row("SELECT name FROM account WHERE name = ?", .text(record.account.rawValue)) != nil else {
                throw NarrationError.unknownAccount(record.account.rawValue)
            }
            try sql.execute(
                "INSERT INTO account_activity (account_name, kind, milliseconds, article_id, at) VALUES (?, ?, ?, ?, ?)",
                .text(record.account.rawValue), .text(record.kind.rawValue), .integer(record.length.milliseconds),
                record.article.map { .text($0.rawValue) } ?? .null, Self.seconds(record.at))
        }
    }

    public func activity(of account: AccountName?) throws(NarrationError) -> [ActivityRecord] {
        let filter = account == nil ? "" : " WHERE account_name = ?"
        let arguments: [SQLValue] = account.map { [.text($0.rawValue)] } ?? []
        return try reading { sql in
            try sql.rows("SELECT account_name, kind, milliseconds, article_id, at FROM account_activity\(filter) ORDER BY sequence", arguments)
                .map(Self.activityRecord)
        }
    }

    /// The latest time a record may hold: the last second of 9999, as far as calendars reach.
    private static let latestActivity: Int64 = 253_402_300_799

    /// A stored record, each value checked again: storage another program can write is outside
    /// input, and SQLite keeps whatever type it is given.
    private static func activityRecord(_ row: SQLRow) throws -> ActivityRecord {
        let nameText = row.checked { try $0.text("account_name") }, kindText = row.checked { try $0.text("kind") }
        let milliseconds = row.checked { try $0.integer("milliseconds") }, seconds = row.checked { try $0.integer("at") }
        let article = row.checked { try $0.optionalText("article_id") }
        guard let nameText, let name = try? AccountName(nameText), let kindText, let kind = ActivityRecord.Kind(rawValue: kindText),
              let milliseconds, let length = ActivitySeconds(storedMilliseconds: milliseconds),
              let seconds, (0...latestActivity).contains(seconds), let article
        else {
            let shown = row.values.map { quoted($0.description) }.joined(separator: ", ")
            throw NarrationError(.catalogCorrupt, "The activity log holds a record narrate never writes (\(shown)). \(damagedFix)")
        }
        return ActivityRecord(account: name, kind: kind, length: length, article: article.map(ArticleID.init), at: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
}
