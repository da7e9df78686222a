import NarrationCore
public import SQLEngines

/// Background work (exports, take checks, deliveries, feed changes, books) as a queue in the
/// catalog, shared by every host of a reading service: a host takes a job with a lease, renews
/// it while it works, and finishes it, fails it (to be tried again later, each time twice as
/// late) or hands it back when it stops.
///
/// - A job is taken by one host at a time: the row is taken with `FOR UPDATE SKIP LOCKED` on
///   PostgreSQL (SQLite has one writer at a time), and marked with its taker and its attempt.
/// - A host that dies leaves its lease to run out; another host then takes the job again. What
///   the dead host might still say about it (finished, failed) is refused, since the job's
///   attempt moved on: the job's effect is made once, by the host that holds it.
/// - The same work asked for twice while it waits or runs is one job (`kind` and `subject`).
///
/// Times are seconds since 1970 given by the caller (`now:`), so tests can pass a clock.
public struct WorkQueue: Sendable {
    let engine: any SQLEngine

    /// How a failed job is tried again: after `firstRetry` seconds, doubling each time up to
    /// `longestRetry`, at most `attempts` times in all.
    public struct Retry: Sendable, Equatable {
        public var firstRetry: Double
        public var longestRetry: Double
        public var attempts: Int

        public init(firstRetry: Double = 10, longestRetry: Double = 3600, attempts: Int = 10) {
            precondition(firstRetry > 0 && longestRetry >= firstRetry && attempts > 0, "a retry waits and tries at least once")
            self.firstRetry = firstRetry
            self.longestRetry = longestRetry
            self.attempts = attempts
        }

        /// How long to wait after the `attempt`th try failed (1 is the first).
        public func delay(after attempt: Int) -> Double {
            min(longestRetry, firstRetry * Double(1 << min(max(attempt - 1, 0), 30)))
        }
    }

    /// A job taken by a host.
    public struct Job: Sendable, Equatable {
        public let id: String
        public let kind: String
        public let subject: String
        /// The account whose request the job carries out (a volunteer's send), as `enqueue` was
        /// told; nil for the service's own work.
        public let asker: String?
        /// 1 for the first try.
        public let attempt: Int
        public let host: String
    }

    /// How many jobs wait, run and have failed for good.
    public struct Depth: Sendable, Equatable {
        public var waiting = 0
        public var running = 0
        public var failed = 0

        public init(waiting: Int = 0, running: Int = 0, failed: Int = 0) {
            self.waiting = waiting
            self.running = running
            self.failed = failed
        }
    }

    public let retry: Retry

    /// The queue in `engine`'s catalog, its table made if it is not there yet.
    public init(engine: any SQLEngine, retry: Retry = Retry()) throws(SQLEngineError) {
        self.engine = engine
        self.retry = retry
        try Self.migrator.migrate(engine)
    }

    static var migrator: SQLMigrator {
        var migrator = SQLMigrator()
        migrator.register("work_job v1") { dialect in
            [
                """
                CREATE TABLE work_job (id TEXT PRIMARY KEY, kind TEXT NOT NULL, subject TEXT NOT NULL, state TEXT NOT NULL,
                attempts BIGINT NOT NULL DEFAULT 0, dueAt \(dialect.realType) NOT NULL, takenBy TEXT, leaseUntil \(dialect.realType),
                lastError TEXT, createdAt \(dialect.realType) NOT NULL, doneAt \(dialect.realType))
                """,
                "CREATE UNIQUE INDEX work_job_open ON work_job (kind, subject) WHERE state IN ('waiting', 'taken')",
                "CREATE INDEX work_job_due ON work_job (state, dueAt)",
            ]
        }
        migrator.register("work_job asker") { _ in ["ALTER TABLE work_job ADD COLUMN asker TEXT"] }
        return migrator
    }

    /// Asks for `kind` of work on `subject` (an article's id, a feed's name), due at `due`, for
    /// `asker` (the account whose request it carries out; nil for the service's own work).
    /// - Returns: the job's id; the one already waiting or running when there is one (with the
    ///   asker it was asked for by).
    @discardableResult
    public func enqueue(_ kind: String, subject: String, asker: String? = nil, due: Double, now: Double) throws(SQLEngineError) -> String {
        try engine.write { sql throws(SQLEngineError) -> String in
            if let open = try sql.row("SELECT id FROM work_job WHERE kind = ? AND subject = ? AND state IN ('waiting', 'taken')", .text(kind), .text(subject)) {
                return try open.text("id")
            }
            let id = Identifier.random(length: 16)
            try sql.execute(
                "INSERT INTO work_job (id, kind, subject, asker, state, dueAt, createdAt) VALUES (?, ?, ?, ?, 'waiting', ?, ?)",
                .text(id), .text(kind), .text(subject), asker.map(SQLValue.text) ?? .null, .real(due), .real(now))
            return id
        }
    }

    /// The next job due, taken by `host` for `lease` seconds: one waiting, or one whose host's
    /// lease ran out; nil when none is due.
    public func take(host: String, lease: Double, now: Double, kinds: [String]? = nil) throws(SQLEngineError) -> Job? {
        try engine.write { sql throws(SQLEngineError) -> Job? in
            var query = "SELECT id, kind, subject, asker, attempts FROM work_job WHERE ((state = 'waiting' AND dueAt <= ?) OR (state = 'taken' AND leaseUntil < ?))"
            var arguments: [SQLValue] = [.real(now), .real(now)]
            if let kinds {
                guard !kinds.isEmpty else { return nil }
                query += " AND kind IN (" + kinds.map { _ in "?" }.joined(separator: ", ") + ")"
                arguments += kinds.map(SQLValue.text)
            }
            query += " ORDER BY dueAt, id LIMIT 1" + engine.dialect.takeRowsNoOtherHolds
            guard let row = try sql.rows(query, arguments).first else { return nil }
            let job = try Self.job(row, host: host)
            try sql.execute(
                "UPDATE work_job SET state = 'taken', takenBy = ?, leaseUntil = ?, attempts = ? WHERE id = ?",
                .text(host), .real(now + lease), .integer(job.attempt), .text(job.id))
            return job
        }
    }

    /// Takes the job `id` for `host` for `lease` seconds, whenever it is due: the job one asked
    /// for to do it at once (`enqueue` with a later `due`, so that no other host takes it first).
    /// - Returns: nil when it is done, failed for good, gone, or held by a host whose lease runs on.
    public func take(_ id: String, host: String, lease: Double, now: Double) throws(SQLEngineError) -> Job? {
        try engine.write { sql throws(SQLEngineError) -> Job? in
            let query = "SELECT id, kind, subject, asker, attempts FROM work_job WHERE id = ? AND (state = 'waiting' OR (state = 'taken' AND leaseUntil < ?))"
            guard let row = try sql.rows(query + engine.dialect.takeRowsNoOtherHolds, [.text(id), .real(now)]).first else { return nil }
            let job = try Self.job(row, host: host)
            try sql.execute(
                "UPDATE work_job SET state = 'taken', takenBy = ?, leaseUntil = ?, attempts = ? WHERE id = ?",
                .text(host), .real(now + lease), .integer(job.attempt), .text(job.id))
            return job
        }
    }

    /// Where a job stands, as the catalog has it now.
    public struct Status: Sendable, Equatable {
        public enum State: String, Sendable {
            case waiting, taken, done, failed
        }
        public let state: State
        /// Tries begun so far.
        public let attempts: Int
        /// The host that holds it, or held it last.
        public let host: String?
        /// Why its last try failed.
        public let lastError: String?
    }

    /// The job `id` as it stands; nil when there is none.
    public func status(of id: String) throws(SQLEngineError) -> Status? {
        try engine.read { sql throws(SQLEngineError) -> Status? in
            guard let row = try sql.row("SELECT state, attempts, takenBy, lastError FROM work_job WHERE id = ?", .text(id)) else { return nil }
            let state = try row.text("state")
            guard let known = Status.State(rawValue: state) else { throw .unexpectedValue(column: "work_job.state", found: state) }
            return Status(state: known, attempts: try row.int("attempts"), host: try row.optionalText("takenBy"), lastError: try row.optionalText("lastError"))
        }
    }

    /// Keeps `job` for `lease` more seconds. - Returns: false when the job is no longer this
    /// host's (its lease ran out and another host took it): stop working on it.
    public func renew(_ job: Job, lease: Double, now: Double) throws(SQLEngineError) -> Bool {
        try change(job, "leaseUntil = ?", [.real(now + lease)])
    }

    /// `job` is done. - Returns: false when it was no longer this host's: its effect is the other host's to make.
    public func finish(_ job: Job, now: Double) throws(SQLEngineError) -> Bool {
        try change(job, "state = 'done', doneAt = ?, leaseUntil = NULL", [.real(now)])
    }

    /// `job` failed with `problem`: it waits `retry.delay(after:)` to be tried again, or after
    /// its last attempt stays failed (shown to the operator). - Returns: false when it was no longer this host's.
    public func fail(_ job: Job, problem: String, now: Double) throws(SQLEngineError) -> Bool {
        if job.attempt >= retry.attempts {
            return try change(job, "state = 'failed', lastError = ?, leaseUntil = NULL", [.text(problem)])
        }
        return try change(job, "state = 'waiting', lastError = ?, dueAt = ?, leaseUntil = NULL", [.text(problem), .real(now + retry.delay(after: job.attempt))])
    }

    /// Gives `job` back untried (the host is stopping): another host takes it at once, and
    /// this attempt does not count.
    public func handBack(_ job: Job, now: Double) throws(SQLEngineError) -> Bool {
        try change(job, "state = 'waiting', dueAt = ?, attempts = ?, leaseUntil = NULL", [.real(now), .integer(job.attempt - 1)])
    }

    /// The jobs waiting, running and failed, for the operator's metrics.
    public func depth() throws(SQLEngineError) -> Depth {
        try engine.read { sql throws(SQLEngineError) -> Depth in
            var depth = Depth()
            for row in try sql.rows("SELECT state, COUNT(*) AS n FROM work_job WHERE state <> 'done' GROUP BY state") {
                switch try row.text("state") {
                case "waiting": depth.waiting = try row.int("n")
                case "taken": depth.running = try row.int("n")
                case "failed": depth.failed = try row.int("n")
                default: break
                }
            }
            return depth
        }
    }

    /// The job a row of `work_job` holds, taken by `host` for its next attempt.
    private static func job(_ row: SQLRow, host: String) throws(SQLEngineError) -> Job {
        Job(
            id: try row.text("id"), kind: try row.text("kind"), subject: try row.text("subject"), asker: try row.optionalText("asker"),
            attempt: try row.int("attempts") + 1, host: host)
    }

    /// Changes `job`'s row if this host still holds this attempt of it.
    private func change(_ job: Job, _ assignments: String, _ arguments: [SQLValue]) throws(SQLEngineError) -> Bool {
        try engine.write { sql throws(SQLEngineError) -> Bool in
            try sql.execute(
                "UPDATE work_job SET \(assignments) WHERE id = ? AND state = 'taken' AND takenBy = ? AND attempts = ?",
                arguments + [.text(job.id), .text(job.host), .integer(job.attempt)]) == 1
        }
    }
}
