import Foundation
import NarrationCore
import SQLEngines

/// Which host of a reading service records into an article (`ArticleLease`): the table
/// `article_lease` added by the migration `article-leases`, at most one row per article, naming
/// the host and when its hold runs out (milliseconds since 1970). A host renews its row while
/// its take records and deletes it when the take is committed or set aside; a host that dies
/// leaves the row to run out, and another host may then take the article. In SQL that SQLite
/// and PostgreSQL both accept.
extension Catalog {
    static let articleLeaseSchema = [
        """
        CREATE TABLE article_lease (
            article_id TEXT NOT NULL PRIMARY KEY REFERENCES article (id) ON DELETE CASCADE,
            host TEXT NOT NULL,
            expires_ms BIGINT NOT NULL
        )
        """
    ]

    /// Whether several hosts may share this catalog (it is in PostgreSQL), so that an article's
    /// takes are held through `article_lease` and not by a file lock alone.
    var isShared: Bool { engine.dialect == .postgreSQL }

    /// Another host's live hold on an article.
    struct LeaseHolder: Equatable {
        var host: String
        var expiresAt: Date
    }

    /// Takes or renews `host`'s hold on `article` until `until`: granted when no host holds it,
    /// `host` does, or the holder's time ran out, in one statement, so two hosts asking at once
    /// never both get it.
    /// - Returns: nil when `host` holds it now; else the host that does.
    func takeLease(on article: ArticleID, host: String, until: Date, now: Date) throws(NarrationError) -> LeaseHolder? {
        try writing { sql -> LeaseHolder? in
            try sql.execute(
                """
                INSERT INTO article_lease (article_id, host, expires_ms) VALUES (?, ?, ?)
                ON CONFLICT (article_id) DO UPDATE SET host = excluded.host, expires_ms = excluded.expires_ms
                WHERE article_lease.host = excluded.host OR article_lease.expires_ms < ?
                """,
                .text(article.rawValue), .text(host), .integer(Self.milliseconds(until)), .integer(Self.milliseconds(now)))
            guard let row = try sql.row("SELECT host, expires_ms FROM article_lease WHERE article_id = ?", .text(article.rawValue)) else {
                return nil
            }
            let holder = try row.text("host")
            return holder == host ? nil : LeaseHolder(host: holder, expiresAt: Date(timeIntervalSince1970: Double(try row.int("expires_ms")) / 1000))
        }
    }

    /// Moves `host`'s hold on `article` on to `until`.
    /// - Returns: false when `host` no longer holds it (its time ran out and another host took it).
    func renewLease(on article: ArticleID, host: String, until: Date) throws(NarrationError) -> Bool {
        try writing { sql -> Bool in
            try sql.execute(
                "UPDATE article_lease SET expires_ms = ? WHERE article_id = ? AND host = ?",
                .integer(Self.milliseconds(until)), .text(article.rawValue), .text(host)) > 0
        }
    }

    /// Ends `host`'s hold on `article`, if it still has it.
    func endLease(on article: ArticleID, host: String) throws(NarrationError) {
        try writing { sql in
            try sql.execute("DELETE FROM article_lease WHERE article_id = ? AND host = ?", .text(article.rawValue), .text(host))
        }
    }

    /// The host other than `host` whose hold on `article` has not run out at `now`; nil when none.
    func leaseHolder(of article: ArticleID, other host: String, now: Date) throws(NarrationError) -> LeaseHolder? {
        try reading { sql -> LeaseHolder? in
            guard
                let row = try sql.row(
                    "SELECT host, expires_ms FROM article_lease WHERE article_id = ? AND host <> ? AND expires_ms >= ?",
                    .text(article.rawValue), .text(host), .integer(Self.milliseconds(now)))
            else { return nil }
            return LeaseHolder(host: try row.text("host"), expiresAt: Date(timeIntervalSince1970: Double(try row.int("expires_ms")) / 1000))
        }
    }

    private static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }
}
