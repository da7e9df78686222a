-- table article
CREATE TABLE "article" ("id" TEXT PRIMARY KEY NOT NULL, "title" TEXT NOT NULL, "publication" TEXT NOT NULL, "narrator" TEXT NOT NULL, "sampleRate" INTEGER NOT NULL, "channels" INTEGER NOT NULL, "bitsPerSample" INTEGER NOT NULL, "createdAt" DATETIME NOT NULL, "state" TEXT NOT NULL, "listenerDate" TEXT, "deletedAt" DATETIME);
-- table chunk
CREATE TABLE "chunk" ("id" TEXT PRIMARY KEY NOT NULL, "articleId" TEXT NOT NULL REFERENCES "article"("id") ON DELETE CASCADE, "position" INTEGER NOT NULL, "frames" INTEGER NOT NULL, "peakDBFS" DOUBLE NOT NULL, "rmsDBFS" DOUBLE NOT NULL, "overruns" INTEGER NOT NULL, "recovered" BOOLEAN NOT NULL, "recordedAt" DATETIME NOT NULL, "paragraphId" TEXT REFERENCES "paragraph"("id") ON DELETE SET NULL);
-- index chunk_on_articleId
CREATE INDEX "chunk_on_articleId" ON "chunk"("articleId");
-- table pendingTake
CREATE TABLE "pendingTake" ("chunkId" TEXT PRIMARY KEY NOT NULL, "articleId" TEXT NOT NULL REFERENCES "article"("id") ON DELETE CASCADE, "placement" TEXT NOT NULL, "targetChunkId" TEXT, "startedAt" DATETIME NOT NULL, "paragraphId" TEXT);
-- table setting
CREATE TABLE "setting" ("key" TEXT PRIMARY KEY NOT NULL, "value" TEXT NOT NULL);
-- table outbox
CREATE TABLE "outbox" ("id" TEXT PRIMARY KEY NOT NULL, "articleId" TEXT NOT NULL REFERENCES "article"("id") ON DELETE CASCADE, "file" TEXT NOT NULL, "sidecar" TEXT NOT NULL, "sha256" TEXT NOT NULL, "bytes" INTEGER NOT NULL, "profile" TEXT NOT NULL, "queuedAt" DATETIME NOT NULL, "state" TEXT NOT NULL, "destination" TEXT, "attempts" INTEGER NOT NULL, "lastError" TEXT, "deliveredAt" DATETIME, "remotePath" TEXT, "endpoint" TEXT, "region" TEXT, "pathStyle" BOOLEAN, "credentialsFile" TEXT, "credentialsProfile" TEXT, "uploadId" TEXT, "uploadKey" TEXT, "fileName" TEXT, "deliveryPath" TEXT, "fingerprint" TEXT, "retiredReason" TEXT);
-- index outbox_on_articleId
CREATE INDEX "outbox_on_articleId" ON "outbox"("articleId");
-- table attempt
CREATE TABLE "attempt" ("jobId" TEXT NOT NULL, "destination" TEXT NOT NULL, "audioLocation" TEXT NOT NULL, "sha256" TEXT NOT NULL, PRIMARY KEY ("jobId", "destination"));
-- table delivery
CREATE TABLE "delivery" ("articleId" TEXT NOT NULL REFERENCES "article"("id") ON DELETE CASCADE, "destination" TEXT NOT NULL, "jobId" TEXT NOT NULL, "audioLocation" TEXT NOT NULL, "sidecarLocation" TEXT NOT NULL, "sha256" TEXT NOT NULL, "bytes" INTEGER NOT NULL, "deliveredAt" DATETIME NOT NULL, "endpoint" TEXT, "region" TEXT, "pathStyle" BOOLEAN, "credentialsFile" TEXT, "credentialsProfile" TEXT, PRIMARY KEY ("articleId", "destination"));
-- table paragraph
CREATE TABLE "paragraph" ("id" TEXT PRIMARY KEY NOT NULL, "articleId" TEXT NOT NULL REFERENCES "article"("id") ON DELETE CASCADE, "position" INTEGER NOT NULL, "kind" TEXT NOT NULL, "text" TEXT NOT NULL, "words" INTEGER NOT NULL, "skipped" BOOLEAN NOT NULL DEFAULT 0);
-- index paragraph_by_article
CREATE INDEX "paragraph_by_article" ON "paragraph"("articleId", "position");
-- table takeCheck
CREATE TABLE "takeCheck" ("chunkId" TEXT PRIMARY KEY NOT NULL REFERENCES "chunk"("id") ON DELETE CASCADE, "report" TEXT NOT NULL, "wordsPerMinute" DOUBLE, "checkedAt" DATETIME NOT NULL, "dismissed" BOOLEAN NOT NULL DEFAULT 0, "dismissedCuts" TEXT NOT NULL DEFAULT '');
-- table edit
CREATE TABLE "edit" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "articleId" TEXT NOT NULL REFERENCES "article"("id") ON DELETE CASCADE, "kind" TEXT NOT NULL, "summary" TEXT NOT NULL, "madeAt" DATETIME NOT NULL, "chunksBefore" TEXT NOT NULL, "chunksAfter" TEXT NOT NULL, "detailsBefore" TEXT, "detailsAfter" TEXT, "undoneAt" DATETIME, "skipsBefore" TEXT, "skipsAfter" TEXT);
-- table sqlite_sequence
CREATE TABLE sqlite_sequence(name,seq);
-- index edit_on_articleId
CREATE INDEX "edit_on_articleId" ON "edit"("articleId");
-- table chunkMeasure
CREATE TABLE "chunkMeasure" ("chunkId" TEXT PRIMARY KEY NOT NULL REFERENCES "chunk"("id") ON DELETE CASCADE, "data" BLOB NOT NULL);
-- table account
CREATE TABLE account (
    name TEXT NOT NULL PRIMARY KEY,
    role TEXT NOT NULL CHECK (role IN ('volunteer', 'proof-listener', 'coordinator', 'admin')),
    enabled BOOLEAN NOT NULL,
    passphrase_hash TEXT,
    created_at BIGINT NOT NULL
);
-- table account_invitation
CREATE TABLE account_invitation (
    token_hash TEXT NOT NULL PRIMARY KEY,
    account_name TEXT NOT NULL REFERENCES account (name),
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at BIGINT
);
-- index account_invitation_by_account
CREATE INDEX account_invitation_by_account ON account_invitation (account_name);
-- table account_session
CREATE TABLE account_session (
    token_hash TEXT NOT NULL PRIMARY KEY,
    account_name TEXT NOT NULL REFERENCES account (name),
    created_at BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL,
    address TEXT NOT NULL
);
-- index account_session_by_account
CREATE INDEX account_session_by_account ON account_session (account_name);
-- table audit_entry
CREATE TABLE audit_entry (
    sequence INTEGER PRIMARY KEY,
    at BIGINT NOT NULL,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    account_name TEXT,
    detail TEXT NOT NULL
);
-- index audit_entry_by_account
CREATE INDEX audit_entry_by_account ON audit_entry (account_name, sequence);
-- trigger audit_entry_no_update
CREATE TRIGGER audit_entry_no_update BEFORE UPDATE ON audit_entry
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
-- trigger audit_entry_no_delete
CREATE TRIGGER audit_entry_no_delete BEFORE DELETE ON audit_entry
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
-- table account_activity
CREATE TABLE account_activity (
    sequence INTEGER PRIMARY KEY,
    account_name TEXT NOT NULL REFERENCES account (name),
    kind TEXT NOT NULL CHECK (kind IN ('preparation', 'take', 'pickup', 'review')),
    milliseconds BIGINT NOT NULL CHECK (milliseconds >= 0),
    article_id TEXT,
    at BIGINT NOT NULL
);
-- index account_activity_by_account
CREATE INDEX account_activity_by_account ON account_activity (account_name, sequence);
-- trigger account_activity_no_update
CREATE TRIGGER account_activity_no_update BEFORE UPDATE ON account_activity
BEGIN SELECT RAISE(ABORT, 'the activity log is append-only'); END;
-- trigger account_activity_no_delete
CREATE TRIGGER account_activity_no_delete BEFORE DELETE ON account_activity
BEGIN SELECT RAISE(ABORT, 'the activity log is append-only'); END;
-- table desk_article
CREATE TABLE desk_article (
    article_id TEXT NOT NULL PRIMARY KEY REFERENCES article (id) ON DELETE CASCADE,
    section TEXT NOT NULL,
    deadline_at BIGINT,
    deadline_has_time BOOLEAN NOT NULL,
    listen_until_at BIGINT,
    listen_until_has_time BOOLEAN NOT NULL,
    priority INTEGER NOT NULL CHECK (priority BETWEEN 0 AND 3),
    state TEXT NOT NULL CHECK (state IN ('open', 'assigned', 'recording', 'ready-for-review', 'pickups-requested', 'approved', 'published', 'expired', 'withdrawn')),
    assignee TEXT REFERENCES account (name),
    taking TEXT CHECK (taking IN ('assigned', 'claimed')),
    added_at BIGINT NOT NULL,
    changed_at BIGINT NOT NULL,
    version BIGINT NOT NULL,
    CHECK ((assignee IS NULL) = (taking IS NULL))
);
-- index desk_article_by_state
CREATE INDEX desk_article_by_state ON desk_article (state);
-- index desk_article_by_assignee
CREATE INDEX desk_article_by_assignee ON desk_article (assignee);
-- index desk_article_by_deadline
CREATE INDEX desk_article_by_deadline ON desk_article (deadline_at);
-- table review_send_back
CREATE TABLE review_send_back (
    id INTEGER PRIMARY KEY,
    article_id TEXT NOT NULL,
    sent_by TEXT NOT NULL,
    at BIGINT NOT NULL,
    last_edit BIGINT NOT NULL CHECK (last_edit >= 0),
    chunks TEXT NOT NULL
);
-- index review_send_back_by_article
CREATE INDEX review_send_back_by_article ON review_send_back (article_id, id);
-- table review_note
CREATE TABLE review_note (
    id INTEGER PRIMARY KEY,
    article_id TEXT NOT NULL,
    paragraph INTEGER NOT NULL CHECK (paragraph >= 1),
    milliseconds BIGINT NOT NULL CHECK (milliseconds >= 0),
    kind TEXT NOT NULL CHECK (kind IN ('said-should-be', 'remark')),
    said TEXT,
    should_be TEXT,
    remark TEXT,
    author TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    send_back_id BIGINT REFERENCES review_send_back (id),
    done_edit BIGINT,
    done_by TEXT,
    done_at BIGINT
);
-- index review_note_by_article
CREATE INDEX review_note_by_article ON review_note (article_id, id);
-- trigger review_note_no_delete
CREATE TRIGGER review_note_no_delete BEFORE DELETE ON review_note
BEGIN SELECT RAISE(ABORT, 'review notes are never deleted'); END;
-- trigger review_send_back_no_update
CREATE TRIGGER review_send_back_no_update BEFORE UPDATE ON review_send_back
BEGIN SELECT RAISE(ABORT, 'a send-back is never changed'); END;
-- trigger review_send_back_no_delete
CREATE TRIGGER review_send_back_no_delete BEFORE DELETE ON review_send_back
BEGIN SELECT RAISE(ABORT, 'a send-back is never changed'); END;
-- index desk_article_by_urgency
CREATE INDEX desk_article_by_urgency ON desk_article (priority DESC, (deadline_at IS NULL), deadline_at, added_at, article_id);
-- table take_upload
CREATE TABLE take_upload (
    upload_key TEXT NOT NULL PRIMARY KEY,
    chunk_id TEXT NOT NULL UNIQUE,
    article_id TEXT NOT NULL REFERENCES article (id) ON DELETE CASCADE,
    account TEXT,
    started_at BIGINT NOT NULL
);
-- index take_upload_by_article
CREATE INDEX take_upload_by_article ON take_upload (article_id);
-- table chunk_copy
CREATE TABLE chunk_copy (
    chunk_id TEXT NOT NULL PRIMARY KEY,
    article_id TEXT NOT NULL REFERENCES article (id) ON DELETE CASCADE,
    object_key TEXT NOT NULL,
    bytes BIGINT NOT NULL,
    sha256 TEXT NOT NULL,
    stored_at BIGINT NOT NULL
);
-- index chunk_copy_by_article
CREATE INDEX chunk_copy_by_article ON chunk_copy (article_id);
-- table article_lease
CREATE TABLE article_lease (
    article_id TEXT NOT NULL PRIMARY KEY REFERENCES article (id) ON DELETE CASCADE,
    host TEXT NOT NULL,
    expires_ms BIGINT NOT NULL
);
-- table takeCheckTrash
CREATE TABLE "takeCheckTrash" ("chunkId" TEXT PRIMARY KEY NOT NULL, "articleId" TEXT NOT NULL REFERENCES "article"("id") ON DELETE CASCADE, "report" TEXT NOT NULL, "wordsPerMinute" DOUBLE, "checkedAt" DATETIME NOT NULL, "dismissed" BOOLEAN NOT NULL DEFAULT 0, "dismissedCuts" TEXT NOT NULL DEFAULT '');
