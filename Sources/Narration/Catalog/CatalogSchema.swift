import Foundation
import SQLEngines

/// The catalog's tables, as the steps that make them, in the order narrate added them: the same
/// steps on SQLite and on PostgreSQL (`SQLMigrator`).
///
/// Each statement is written once, as SQLite is given it; `postgreSQL(_:)` says it PostgreSQL's
/// way. The first eight steps are the statements GRDB's migrator issued for them, word for word,
/// so a catalog made now has exactly the tables of one made before; catalogs that GRDB's
/// migrator made go on from the steps it recorded in `grdb_migrations`.
///
/// Names are written in camelCase in the older tables and snake_case in the service's; SQLite
/// keeps them as written, PostgreSQL folds them to lower case, and statements name them unquoted,
/// so both find them. Times in the older tables are GRDB's text (`yyyy-MM-dd HH:mm:ss.SSS`, UTC),
/// in the service's `BIGINT` seconds; booleans are 0 and 1 in both engines.
enum CatalogSchema {
    static let migrator: SQLMigrator = {
        var migrator = SQLMigrator(earlierRecords: .init(table: "grdb_migrations", column: "identifier"))
        for (name, statements) in steps {
            migrator.register(name) { dialect in dialect == .sqlite ? statements : statements.flatMap(postgreSQL) }
        }
        return migrator
    }()

    static let steps: [(String, [String])] = [
        ("v1", [
            #"CREATE TABLE "article" ("id" TEXT PRIMARY KEY NOT NULL, "title" TEXT NOT NULL, "publication" TEXT NOT NULL, "narrator" TEXT NOT NULL, "sampleRate" INTEGER NOT NULL, "channels" INTEGER NOT NULL, "bitsPerSample" INTEGER NOT NULL, "createdAt" DATETIME NOT NULL, "state" TEXT NOT NULL)"#,
            #"CREATE TABLE "chunk" ("id" TEXT PRIMARY KEY NOT NULL, "articleId" TEXT NOT NULL REFERENCES "article"("id") ON DELETE CASCADE, "position" INTEGER NOT NULL, "frames" INTEGER NOT NULL, "peakDBFS" DOUBLE NOT NULL, "rmsDBFS" DOUBLE NOT NULL, "overruns" INTEGER NOT NULL, "recovered" BOOLEAN NOT NULL, "recordedAt" DATETIME NOT NULL)"#,
            #"CREATE INDEX "chunk_on_articleId" ON "chunk"("articleId")"#,
            #"CREATE TABLE "pendingTake" ("chunkId" TEXT PRIMARY KEY NOT NULL, "articleId" TEXT NOT NULL REFERENCES "article"("id") ON DELETE CASCADE, "placement" TEXT NOT NULL, "targetChunkId" TEXT, "startedAt" DATETIME NOT NULL)"#,
            #"CREATE TABLE "setting" ("key" TEXT PRIMARY KEY NOT NULL, "value" TEXT NOT NULL)"#,
        ]),
        ("v2-outbox", [
            #"CREATE TABLE "outbox" ("id" TEXT PRIMARY KEY NOT NULL, "articleId" TEXT NOT NULL REFERENCES "article"("id") ON DELETE CASCADE, "file" TEXT NOT NULL, "sidecar" TEXT NOT NULL, "sha256" TEXT NOT NULL, "bytes" INTEGER NOT NULL, "profile" TEXT NOT NULL, "queuedAt" DATETIME NOT NULL, "state" TEXT NOT NULL, "destination" TEXT, "attempts" INTEGER NOT NULL, "lastError" TEXT, "deliveredAt" DATETIME, "remotePath" TEXT)"#,
            #"CREATE INDEX "outbox_on_articleId" ON "outbox"("articleId")"#,
        ]),
        ("v3-object-storage", [
            #"ALTER TABLE "outbox" ADD COLUMN "endpoint" TEXT"#,
            #"ALTER TABLE "outbox" ADD COLUMN "region" TEXT"#,
            #"ALTER TABLE "outbox" ADD COLUMN "pathStyle" BOOLEAN"#,
            #"ALTER TABLE "outbox" ADD COLUMN "credentialsFile" TEXT"#,
            #"ALTER TABLE "outbox" ADD COLUMN "credentialsProfile" TEXT"#,
            #"ALTER TABLE "outbox" ADD COLUMN "uploadId" TEXT"#,
            #"ALTER TABLE "outbox" ADD COLUMN "uploadKey" TEXT"#,
        ]),
        // One article, one current export: jobs know what they were made from and own their
        // names; deliveries are kept per destination. Jobs of older versions shared one sidecar
        // per article and cannot be checked against the chunks, so they are retired, and their
        // articles reopened when they had not been delivered yet.
        ("v4-article-life", [
            #"ALTER TABLE "outbox" ADD COLUMN "fileName" TEXT"#,
            #"ALTER TABLE "outbox" ADD COLUMN "deliveryPath" TEXT"#,
            #"ALTER TABLE "outbox" ADD COLUMN "fingerprint" TEXT"#,
            #"ALTER TABLE "outbox" ADD COLUMN "retiredReason" TEXT"#,
            #"CREATE TABLE "attempt" ("jobId" TEXT NOT NULL, "destination" TEXT NOT NULL, "audioLocation" TEXT NOT NULL, "sha256" TEXT NOT NULL, PRIMARY KEY ("jobId", "destination"))"#,
            #"CREATE TABLE "delivery" ("articleId" TEXT NOT NULL REFERENCES "article"("id") ON DELETE CASCADE, "destination" TEXT NOT NULL, "jobId" TEXT NOT NULL, "audioLocation" TEXT NOT NULL, "sidecarLocation" TEXT NOT NULL, "sha256" TEXT NOT NULL, "bytes" INTEGER NOT NULL, "deliveredAt" DATETIME NOT NULL, "endpoint" TEXT, "region" TEXT, "pathStyle" BOOLEAN, "credentialsFile" TEXT, "credentialsProfile" TEXT, PRIMARY KEY ("articleId", "destination"))"#,
            "UPDATE article SET state = 'open' WHERE state = 'queued'",
            "UPDATE article SET state = 'delivered' WHERE state = 'submitted'",
            "UPDATE outbox SET state = 'retired', retiredReason = 'older' WHERE state != 'retired'",
        ]),
        // The article's text: paragraphs in order, each chunk bound to the paragraph it reads;
        // what the take check found for a chunk (JSON), its speaking rate for the narrator's
        // median, and whether the volunteer dismissed its hints.
        ("v5-script", [
            #"CREATE TABLE "paragraph" ("id" TEXT PRIMARY KEY NOT NULL, "articleId" TEXT NOT NULL REFERENCES "article"("id") ON DELETE CASCADE, "position" INTEGER NOT NULL, "kind" TEXT NOT NULL, "text" TEXT NOT NULL, "words" INTEGER NOT NULL)"#,
            #"CREATE INDEX "paragraph_by_article" ON "paragraph"("articleId", "position")"#,
            #"ALTER TABLE "chunk" ADD COLUMN "paragraphId" TEXT REFERENCES "paragraph"("id") ON DELETE SET NULL"#,
            #"ALTER TABLE "pendingTake" ADD COLUMN "paragraphId" TEXT"#,
            #"CREATE TABLE "takeCheck" ("chunkId" TEXT PRIMARY KEY NOT NULL REFERENCES "chunk"("id") ON DELETE CASCADE, "report" TEXT NOT NULL, "wordsPerMinute" DOUBLE, "checkedAt" DATETIME NOT NULL, "dismissed" BOOLEAN NOT NULL DEFAULT 0)"#,
        ]),
        // The history of edits, for undo; articles in the trash; the date listeners see.
        ("v6-history", [
            #"CREATE TABLE "edit" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "articleId" TEXT NOT NULL REFERENCES "article"("id") ON DELETE CASCADE, "kind" TEXT NOT NULL, "summary" TEXT NOT NULL, "madeAt" DATETIME NOT NULL, "chunksBefore" TEXT NOT NULL, "chunksAfter" TEXT NOT NULL, "detailsBefore" TEXT, "detailsAfter" TEXT, "undoneAt" DATETIME)"#,
            #"CREATE INDEX "edit_on_articleId" ON "edit"("articleId")"#,
            #"ALTER TABLE "article" ADD COLUMN "listenerDate" TEXT"#,
            #"ALTER TABLE "article" ADD COLUMN "deletedAt" DATETIME"#,
        ]),
        // Each chunk's measures for the waveform and the level checks (`ChunkMeasure`, bytes).
        ("v7-measures", [
            #"CREATE TABLE "chunkMeasure" ("chunkId" TEXT PRIMARY KEY NOT NULL REFERENCES "chunk"("id") ON DELETE CASCADE, "data" BLOB NOT NULL)"#,
        ]),
        // Paragraphs the volunteer chose not to read, and the skips each edit changed, for undo.
        ("v8-paragraph-skips", [
            #"ALTER TABLE "paragraph" ADD COLUMN "skipped" BOOLEAN NOT NULL DEFAULT 0"#,
            #"ALTER TABLE "edit" ADD COLUMN "skipsBefore" TEXT"#,
            #"ALTER TABLE "edit" ADD COLUMN "skipsAfter" TEXT"#,
        ]),
        ("service-accounts", Catalog.accountsSchema),
        ("service-activity", Catalog.activitySchema),
        ("service-desk", Catalog.deskSchema),
        ("service-review", Catalog.reviewSchema),
        // After every other step, so that catalogs that had the desk already get the index too.
        ("service-desk-urgency", [Catalog.deskUrgencyIndex]),
        ("take-uploads", Catalog.takeUploadSchema),
        ("chunk-copies", Catalog.chunkCopySchema),
        ("article-leases", Catalog.articleLeaseSchema),
        // The proposed cuts of a take the volunteer dismissed, by their numbers in its report
        // ("0,2"); the checks of takes an edit replaced, kept for undo to bring back with them.
        ("take-cuts", [
            #"ALTER TABLE "takeCheck" ADD COLUMN "dismissedCuts" TEXT NOT NULL DEFAULT ''"#,
            #"CREATE TABLE "takeCheckTrash" ("chunkId" TEXT PRIMARY KEY NOT NULL, "articleId" TEXT NOT NULL REFERENCES "article"("id") ON DELETE CASCADE, "report" TEXT NOT NULL, "wordsPerMinute" DOUBLE, "checkedAt" DATETIME NOT NULL, "dismissed" BOOLEAN NOT NULL DEFAULT 0, "dismissedCuts" TEXT NOT NULL DEFAULT '')"#,
        ]),
    ]

    /// `statement`, written for SQLite, as PostgreSQL takes it: names unquoted; SQLite's types as
    /// PostgreSQL's (`INTEGER` as `BIGINT`, as SQLite's integers are 64 bits; `BOOLEAN` as
    /// `BIGINT` holding 0 and 1; `DATETIME` as the `TEXT` GRDB wrote; `DOUBLE`; `BLOB` as
    /// `BYTEA`); a row id key as an identity column; and a trigger that refuses a change
    /// (`SELECT RAISE(ABORT, '…')`) as a trigger function that raises the same sentence.
    static func postgreSQL(_ statement: String) -> [String] {
        if let refusal = refusingTrigger(statement) {
            let function = "\(refusal.name)_refuse"
            return [
                "CREATE FUNCTION \(function)() RETURNS trigger LANGUAGE plpgsql AS $body$ BEGIN RAISE EXCEPTION '\(refusal.message)'; END $body$",
                "CREATE TRIGGER \(refusal.name) BEFORE \(refusal.event) ON \(refusal.table) FOR EACH ROW EXECUTE FUNCTION \(function)()",
            ]
        }
        var text = statement.replacingOccurrences(of: "\"", with: "")
        let replacements: [(String, String)] = [
            (#"\bINTEGER PRIMARY KEY AUTOINCREMENT\b"#, "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"),
            (#"\bINTEGER PRIMARY KEY\b"#, "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"),
            (#"\bINTEGER\b"#, "BIGINT"),
            (#"\bBOOLEAN\b"#, "BIGINT"),
            (#"\bDATETIME\b"#, "TEXT"),
            (#"\bDOUBLE\b"#, "DOUBLE PRECISION"),
            (#"\bBLOB\b"#, "BYTEA"),
        ]
        for (pattern, replacement) in replacements {
            text = text.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
        }
        return [text]
    }

    /// The parts of `CREATE TRIGGER name BEFORE event ON table BEGIN SELECT RAISE(ABORT, 'message'); END`.
    private static func refusingTrigger(_ statement: String) -> (name: String, event: String, table: String, message: String)? {
        let words = statement.split(whereSeparator: \.isWhitespace).map(String.init)
        guard words.count > 7, words[0] == "CREATE", words[1] == "TRIGGER", words[3] == "BEFORE", words[5] == "ON",
              let start = statement.range(of: "RAISE(ABORT, '"), let end = statement.range(of: "');", range: start.upperBound..<statement.endIndex)
        else { return nil }
        return (words[2], words[4], words[6], String(statement[start.upperBound..<end.lowerBound]))
    }
}
