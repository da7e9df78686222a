import Foundation
import SQLEngines
import NarrationCore
import ObjectStorage

/// What an edit did to the article's export: it is withdrawn, whether it was still waiting or
/// had been delivered (a delivered file stays at its destination until a newer one replaces it).
public enum WithdrawnExport: Sendable, Equatable {
    case queued
    case delivered

    /// The sentence that tells the volunteer, after an edit of `title`.
    public static func sentence(_ withdrawn: WithdrawnExport, title: String) -> String {
        switch withdrawn {
        case .queued:
            "The queued export of \"\(title)\" was withdrawn, so the old version will not be sent; queue or submit the article again when it is ready."
        case .delivered:
            "\"\(title)\" had been delivered before this change; submit it again to replace the delivered file."
        }
    }
}

/// How recording a delivery ended.
enum DeliveryRecord {
    /// Recorded; the article's file that this one replaced at the destination, if it lay elsewhere.
    case recorded(replaced: DeliveryRow?)
    /// The job stopped being the article's export while it was sent: nothing was recorded.
    case stale(OutboxRow)
}

/// The outbox and the deliveries in the catalog: one current export per article, retired when the
/// article changes or is queued again, and one current file per article at each destination.
extension Catalog {
    /// Jobs that count as the article's export (queued or delivered), or are being exported.
    static let liveStates = [OutboxJob.State.exporting, .queued, .delivered].map(\.rawValue)

    // MARK: Fingerprints

    /// What an export is made from, as one SHA-256: the article's tags and format, its chunks
    /// in order with their lengths and paragraphs, and its text. Any edit of the chunks, the text
    /// or the article changes it.
    func fingerprint(of article: ArticleID, _ sql: any SQLTransaction) throws -> String {
        guard let row = try ArticleRow.one(sql, key: .text(article.rawValue)) else { return "" }
        var text = "\(row.title)\n\(row.publication)\n\(row.narrator)\n\(row.sampleRate) \(row.channels) \(row.bitsPerSample)\n"
        for chunk in try sql.rows("SELECT id, frames, paragraphId FROM chunk WHERE articleId = ? ORDER BY position", .text(article.rawValue)) {
            let paragraph = chunk.checked({ try $0.text("paragraphId") }).map { " \($0)" } ?? ""
            text += "\(chunk.checked({ try $0.text("id") }) ?? "?") \(chunk.checked({ try $0.int("frames") }) ?? -1)\(paragraph)\n"
        }
        // The text titles the chapters and makes the transcript; an article without one keeps
        // the fingerprint it had before texts existed.
        for paragraph in try ParagraphRow.all(sql, where: "articleId = ? ORDER BY position", .text(article.rawValue)) {
            text += "¶ \(paragraph.id) \(paragraph.kind) \(paragraph.text)\n"
        }
        // Likewise the date listeners see, once the volunteer set one.
        if let date = row.listenerDate { text += "date \(date)\n" }
        return Digest.sha256Hex(Data(text.utf8))
    }

    func fingerprint(of article: ArticleID) throws(NarrationError) -> String {
        try reading { sql in try self.fingerprint(of: article, sql) }
    }

    // MARK: The article's export

    /// Retires the article's current export, inside an edit's transaction, and opens the article.
    func withdrawExport(of article: ArticleID, _ sql: any SQLTransaction) throws -> WithdrawnExport? {
        let retired = try retireCurrentJobs(of: article, reason: .edited, sql)
        try sql.execute(
            "UPDATE article SET state = ? WHERE id = ? AND state != ?",
            .text(ArticleState.open.rawValue), .text(article.rawValue), .text(ArticleState.open.rawValue))
        if retired.contains(where: { $0.state == OutboxJob.State.delivered.rawValue }) { return .delivered }
        return retired.isEmpty ? nil : .queued
    }

    /// Retires every queued or delivered job of the article; returns them as they were.
    private func retireCurrentJobs(of article: ArticleID, reason: OutboxJob.RetirementReason, except keep: String? = nil, _ sql: any SQLTransaction) throws -> [OutboxRow] {
        let rows = try OutboxRow.all(
            sql, where: "articleId = ? AND state IN (?, ?)",
            .text(article.rawValue), .text(OutboxJob.State.queued.rawValue), .text(OutboxJob.State.delivered.rawValue)
        ).filter { $0.id != keep }
        for var row in rows {
            try retire(&row, reason: reason, sql)
        }
        return rows
    }

    private func retire(_ row: inout OutboxRow, reason: OutboxJob.RetirementReason, _ sql: any SQLTransaction) throws {
        row.state = OutboxJob.State.retired.rawValue
        row.retiredReason = reason.rawValue
        try row.update(sql)
    }

    /// Adds a job being exported; its files are made after this, so the outbox never holds a
    /// folder that the catalog does not know.
    func addExportingJob(_ row: OutboxRow) throws(NarrationError) {
        try writing { sql in try row.insert(sql) }
    }

    /// Forgets a job whose export failed.
    func deleteJob(_ id: String) throws(NarrationError) {
        try writing { sql in try OutboxRow.delete(sql, key: .text(id)) }
    }

    /// Makes an exported job the article's export: queued, the earlier export retired, the
    /// article queued and (if asked) no longer the current article.
    /// - Returns: the jobs retired.
    func finishQueuing(_ row: OutboxRow, clearCurrent: Bool) throws(NarrationError) -> [OutboxRow] {
        try writing(holding: ArticleID(row.articleId)) { sql in
            let retired = try self.retireCurrentJobs(of: ArticleID(row.articleId), reason: .requeued, except: row.id, sql)
            try row.update(sql)
            try sql.execute("UPDATE article SET state = ? WHERE id = ?", .text(ArticleState.queued.rawValue), .text(row.articleId))
            if clearCurrent {
                try sql.execute("DELETE FROM setting WHERE key = ? AND value = ?", .text(Self.currentArticleKey), .text(row.articleId))
            }
            return retired
        }
    }

    /// Retires one job (`outbox remove`, or a job found stale when it was about to be sent). The
    /// article is open again if it was its export.
    /// - Returns: the job as it was, or nil if there is none.
    func retireJob(_ id: String, reason: OutboxJob.RetirementReason) throws(NarrationError) -> OutboxRow? {
        try writing { sql in
            // The job's article is held before the job is read, as every change of its jobs does.
            guard let article = try sql.row("SELECT articleId FROM outbox WHERE id = ?", .text(id))?.text("articleId") else { return nil }
            try self.hold(ArticleID(article), sql)
            guard var row = try OutboxRow.one(sql, key: .text(id)) else { return nil }
            let before = row
            guard row.state != OutboxJob.State.retired.rawValue else { return before }
            try self.retire(&row, reason: reason, sql)
            try sql.execute(
                "UPDATE article SET state = ? WHERE id = ? AND state IN (?, ?)",
                .text(ArticleState.open.rawValue), .text(row.articleId), .text(ArticleState.queued.rawValue), .text(ArticleState.delivered.rawValue))
            return before
        }
    }

    func outboxRow(id: String) throws(NarrationError) -> OutboxRow? {
        try reading { sql in try OutboxRow.one(sql, key: .text(id)) }
    }

    /// Every job, oldest first.
    func outbox() throws(NarrationError) -> [OutboxRow] {
        try reading { sql in try OutboxRow.all(sql, orderedBy: "queuedAt, id") }
    }

    /// Stores what an attempt changed (attempts, error, destination, upload under way), unless
    /// the job changed state meanwhile (retired by an edit, say): an attempt never undoes that.
    func updateOutbox(_ row: OutboxRow) throws(NarrationError) {
        try writing(holding: ArticleID(row.articleId)) { sql in
            guard let stored = try OutboxRow.one(sql, key: .text(row.id)), stored.state == row.state else { return }
            var row = row
            row.retiredReason = stored.retiredReason
            try row.update(sql)
        }
    }

    /// Stores what an attempt is about to do, before its first byte: the attempt counted and
    /// where it writes the job's file at `destination`.
    func beginAttempt(_ row: OutboxRow, destination: String, audioLocation: String) throws(NarrationError) {
        try writing(holding: ArticleID(row.articleId)) { sql in
            guard let stored = try OutboxRow.one(sql, key: .text(row.id)), stored.state == row.state else { return }
            var row = row
            row.retiredReason = stored.retiredReason
            try row.update(sql)
            try AttemptRow(jobId: row.id, destination: destination, audioLocation: audioLocation, sha256: row.sha256).save(sql)
        }
    }

    // MARK: Deliveries

    /// Records a verified delivery, if the job is still the article's export and the article has
    /// not changed since it was queued: the job delivered, the article delivered, and `delivery`
    /// the article's file at its destination.
    func recordDelivery(_ row: OutboxRow, _ delivery: DeliveryRow) throws(NarrationError) -> DeliveryRecord {
        try writing(holding: ArticleID(row.articleId)) { sql in
            guard let stored = try OutboxRow.one(sql, key: .text(row.id)) else { return .stale(row) }
            let isCurrent = [OutboxJob.State.queued.rawValue, OutboxJob.State.delivered.rawValue].contains(stored.state)
            guard isCurrent, stored.fingerprint == (try self.fingerprint(of: ArticleID(row.articleId), sql)) else { return .stale(stored) }
            try row.update(sql)
            try AttemptRow.delete(sql, key: .text(row.id), .text(delivery.destination))
            let earlier = try DeliveryRow.one(sql, key: .text(delivery.articleId), .text(delivery.destination))
            try delivery.save(sql)
            try sql.execute("UPDATE article SET state = ? WHERE id = ?", .text(ArticleState.delivered.rawValue), .text(row.articleId))
            let replaced = earlier.flatMap { $0.audioLocation == delivery.audioLocation ? nil : $0 }
            return .recorded(replaced: replaced)
        }
    }

    /// The article's current file at each destination it was delivered to.
    func deliveries(of article: ArticleID) throws(NarrationError) -> [DeliveryRow] {
        try reading { sql in try DeliveryRow.all(sql, where: "articleId = ? ORDER BY deliveredAt", .text(article.rawValue)) }
    }

    /// Every article's current file at every destination.
    func allDeliveries() throws(NarrationError) -> [DeliveryRow] {
        try reading { sql in try DeliveryRow.all(sql, orderedBy: "deliveredAt") }
    }

    /// Copies that attempts of retired jobs may have left at `destination` and that must go:
    /// each with its article, and whether the article's current file there is that very file
    /// (the same place and the same SHA-256: then it stays).
    func strayCopies(at destination: String) throws(NarrationError) -> [(attempt: AttemptRow, article: String, isDelivered: Bool)] {
        try reading { sql in
            let rows = try sql.rows(
                """
                    SELECT attempt.jobId, attempt.audioLocation, attempt.sha256, outbox.articleId,
                        EXISTS (SELECT 1 FROM delivery WHERE delivery.articleId = outbox.articleId AND delivery.destination = attempt.destination
                            AND delivery.audioLocation = attempt.audioLocation AND delivery.sha256 = attempt.sha256) AS isDelivered
                    FROM attempt JOIN outbox ON outbox.id = attempt.jobId
                    WHERE attempt.destination = ? AND outbox.state = ?
                    """,
                .text(destination), .text(OutboxJob.State.retired.rawValue))
            return try rows.map { row in
                (AttemptRow(jobId: try row.text("jobId"), destination: destination, audioLocation: try row.text("audioLocation"), sha256: try row.text("sha256")),
                 try row.text("articleId"), try row.boolean("isDelivered"))
            }
        }
    }

    /// The multipart uploads that attempts of retired jobs began at `destination` and never
    /// completed: each job's id, with the upload's id and key.
    func abandonedUploads(at destination: String) throws(NarrationError) -> [(job: String, upload: (id: String, key: String))] {
        try reading { sql in
            try sql.rows(
                """
                    SELECT outbox.id, outbox.uploadId, outbox.uploadKey FROM outbox JOIN attempt ON attempt.jobId = outbox.id
                    WHERE attempt.destination = ? AND outbox.state = ? AND outbox.uploadId IS NOT NULL AND outbox.uploadKey IS NOT NULL
                    """,
                .text(destination), .text(OutboxJob.State.retired.rawValue)
            ).map { row in (try row.text("id"), (try row.text("uploadId"), try row.text("uploadKey"))) }
        }
    }

    /// Forgets the upload a retired job's attempt began, once it is given up.
    func forgetUpload(of job: String) throws(NarrationError) {
        try writing { sql in
            try sql.execute("UPDATE outbox SET uploadId = NULL, uploadKey = NULL WHERE id = ? AND state = ?", .text(job), .text(OutboxJob.State.retired.rawValue))
        }
    }

    /// Forgets an attempt whose copy is gone (or is the delivered file).
    func endAttempt(job: String, destination: String) throws(NarrationError) {
        try writing { sql in try AttemptRow.delete(sql, key: .text(job), .text(destination)) }
    }

    /// Forgets an article's chunks and marks it pruned, in one transaction, if its export is
    /// still `fingerprint` (nothing changed while its delivery was being checked).
    /// - Returns: false, changing nothing, when the article changed.
    func forgetChunks(of article: ArticleID, ifStill fingerprint: String) throws(NarrationError) -> Bool {
        try writing(holding: article) { sql in
            guard try self.fingerprint(of: article, sql) == fingerprint else { return false }
            try sql.execute("DELETE FROM chunk WHERE articleId = ?", .text(article.rawValue))
            try sql.execute("UPDATE article SET state = ? WHERE id = ?", .text(ArticleState.pruned.rawValue), .text(article.rawValue))
            return true
        }
    }
}
