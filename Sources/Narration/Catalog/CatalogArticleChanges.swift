import Foundation
public import NarrationCore
import SQLEngines

/// A number per article that changes whenever its chunks, its text, its details or its takes'
/// checks change, whoever changed them: how a studio notices what another host or command did
/// to its article (`Studio`'s `CatalogWatch`).
///
/// SQLite has one such number for the whole file, `PRAGMA data_version`, which changes for
/// another connection's writes. PostgreSQL has none, and one counter for the whole catalog
/// would make every host's writes wait on one row; so on PostgreSQL triggers keep a row per
/// article in `article_change` (the migration `article-changes`, PostgreSQL's alone), upserted
/// in the transaction that changes the article. Rows are small and are not removed with their
/// article (a deleted article's chunks are changed after it).
extension Catalog {
    /// The migration's statements on PostgreSQL: the table, the function the triggers share (its
    /// argument names the row's column that holds the article, or `chunkid` for a row of a
    /// chunk), and one trigger per table.
    static let articleChangeSchema: [String] = [
        "CREATE TABLE article_change (article_id TEXT PRIMARY KEY, number BIGINT NOT NULL)",
        """
        CREATE FUNCTION article_changed() RETURNS trigger LANGUAGE plpgsql AS $body$
        DECLARE
            changed TEXT;
        BEGIN
            IF TG_OP = 'DELETE' THEN changed := to_jsonb(OLD) ->> TG_ARGV[0]; ELSE changed := to_jsonb(NEW) ->> TG_ARGV[0]; END IF;
            IF TG_ARGV[0] = 'chunkid' THEN
                SELECT articleid INTO changed FROM chunk WHERE id = changed;
            END IF;
            IF changed IS NOT NULL THEN
                INSERT INTO article_change (article_id, number) VALUES (changed, 1)
                ON CONFLICT (article_id) DO UPDATE SET number = article_change.number + 1;
            END IF;
            RETURN NULL;
        END $body$
        """,
        "CREATE TRIGGER article_changed AFTER INSERT OR UPDATE OR DELETE ON article FOR EACH ROW EXECUTE FUNCTION article_changed('id')",
        "CREATE TRIGGER chunk_changed AFTER INSERT OR UPDATE OR DELETE ON chunk FOR EACH ROW EXECUTE FUNCTION article_changed('articleid')",
        "CREATE TRIGGER paragraph_changed AFTER INSERT OR UPDATE OR DELETE ON paragraph FOR EACH ROW EXECUTE FUNCTION article_changed('articleid')",
        "CREATE TRIGGER take_check_changed AFTER INSERT OR UPDATE ON takecheck FOR EACH ROW EXECUTE FUNCTION article_changed('chunkid')",
    ]

    /// A number that changes whenever the catalog changes in a way a studio open on `article`
    /// must show. SQLite: `PRAGMA data_version`, for the whole file, changed by another
    /// connection's writes (no table is read). PostgreSQL: `article`'s row of `article_change`
    /// (0 before its first change), changed by every write to it, this process's own included.
    public func changeNumber(of article: ArticleID?) throws(NarrationError) -> Int {
        guard engine.dialect == .postgreSQL else { return try dataVersion() }
        guard let article else { return 0 }
        return try reading { sql in
            try sql.row("SELECT number FROM article_change WHERE article_id = ?", .text(article.rawValue)).map { try $0.int("number") } ?? 0
        }
    }
}
