import Foundation
import SQLEngines
public import NarrationCore

/// A take check as the catalog stores it.
struct TakeCheckRow: CatalogRecord {
    static let table = "takeCheck"
    static let key = ["chunkId"]
    var chunkId: String
    var report: String
    var wordsPerMinute: Double?
    var checkedAt: Date
    var dismissed: Bool
    /// The numbers (indices into the report's cuts) of the cuts dismissed, joined by commas.
    var dismissedCuts: String

    /// `dismissedCuts` as numbers; what is not a number is left out.
    var dismissedCutNumbers: Set<Int> { Set(dismissedCuts.split(separator: ",").compactMap { Int($0) }) }

    static func joined(_ numbers: Set<Int>) -> String { numbers.sorted().map(String.init).joined(separator: ",") }
}

/// The check of a take an edit replaced (trim, punch, a cut), kept while the take waits in the
/// article's trash, so that undo brings the take back with its check.
struct TakeCheckTrashRow: CatalogRecord {
    static let table = "takeCheckTrash"
    static let key = ["chunkId"]
    var chunkId: String
    var articleId: String
    var report: String
    var wordsPerMinute: Double?
    var checkedAt: Date
    var dismissed: Bool
    var dismissedCuts: String
}

extension Catalog {
    /// Keeps the check of `chunk` aside before its row goes (the check would go with it).
    func setAsideTakeCheck(of chunk: ChunkID, in article: ArticleID, _ sql: any SQLTransaction) throws {
        guard let row = try TakeCheckRow.one(sql, key: .text(chunk.rawValue)) else { return }
        _ = try TakeCheckTrashRow.delete(sql, key: .text(chunk.rawValue))
        try TakeCheckTrashRow(
            chunkId: row.chunkId, articleId: article.rawValue, report: row.report, wordsPerMinute: row.wordsPerMinute, checkedAt: row.checkedAt,
            dismissed: row.dismissed, dismissedCuts: row.dismissedCuts
        ).insert(sql)
    }

    /// Puts back the check kept aside for `chunk`, now that undo brought the chunk back.
    func restoreTakeCheck(of chunk: ChunkID, _ sql: any SQLTransaction) throws {
        guard let row = try TakeCheckTrashRow.one(sql, key: .text(chunk.rawValue)) else { return }
        _ = try TakeCheckTrashRow.delete(sql, key: .text(chunk.rawValue))
        guard try !TakeCheckRow.exists(sql, key: .text(chunk.rawValue)) else { return }
        try TakeCheckRow(
            chunkId: row.chunkId, report: row.report, wordsPerMinute: row.wordsPerMinute, checkedAt: row.checkedAt, dismissed: row.dismissed,
            dismissedCuts: row.dismissedCuts
        ).insert(sql)
    }

    /// The checks of the article's takes, by chunk.
    public func takeChecks(of article: ArticleID) throws(NarrationError) -> [ChunkID: TakeCheck] {
        let rows = try reading { sql in
            try sql.rows(
                "SELECT takeCheck.* FROM takeCheck JOIN chunk ON chunk.id = takeCheck.chunkId WHERE chunk.articleId = ?", .text(article.rawValue)
            ).map { try TakeCheckRow(decoding: $0) }
        }
        var checks: [ChunkID: TakeCheck] = [:]
        for row in rows {
            // A report this narrate cannot read (written by a newer one) is left out, not fatal.
            guard let report = try? JSONDecoder().decode(TakeCheckReport.self, from: Data(row.report.utf8)) else { continue }
            checks[ChunkID(row.chunkId)] = TakeCheck(
                chunk: ChunkID(row.chunkId), report: report, dismissed: row.dismissed, dismissedCuts: row.dismissedCutNumbers)
        }
        return checks
    }

    /// Keeps a take's check; false when the chunk left the article meanwhile, or when another
    /// process checked it first (the background check after a take and `script --check` may
    /// both check it): the first check stays, with its hints dismissed if they were.
    func storeTakeCheck(_ report: TakeCheckReport, for chunk: ChunkID) throws(NarrationError) -> Bool {
        try writing { sql in
            guard try ChunkRow.exists(sql, key: .text(chunk.rawValue)), try !TakeCheckRow.exists(sql, key: .text(chunk.rawValue)) else { return false }
            try Self.takeCheckRow(report, for: chunk).save(sql)
            return true
        }
    }

    /// The row that keeps `report` for `chunk`, as checked now.
    static func takeCheckRow(_ report: TakeCheckReport, for chunk: ChunkID, dismissed: Bool = false, dismissedCuts: Set<Int> = []) -> TakeCheckRow {
        let json = String(decoding: (try? JSONEncoder().encode(report)) ?? Data(), as: UTF8.self)
        return TakeCheckRow(
            chunkId: chunk.rawValue, report: json, wordsPerMinute: report.rate.wordsPerMinute, checkedAt: Date(), dismissed: dismissed,
            dismissedCuts: TakeCheckRow.joined(dismissedCuts))
    }

    /// Keeps the check of a take made from a checked one (accepting cuts moves its check with
    /// the audio); false when the chunk is gone or was checked first.
    @discardableResult
    func keepTakeCheck(_ report: TakeCheckReport, for chunk: ChunkID, dismissed: Bool, dismissedCuts: Set<Int>) throws(NarrationError) -> Bool {
        try writing { sql in
            guard try ChunkRow.exists(sql, key: .text(chunk.rawValue)), try !TakeCheckRow.exists(sql, key: .text(chunk.rawValue)) else { return false }
            try Self.takeCheckRow(report, for: chunk, dismissed: dismissed, dismissedCuts: dismissedCuts).save(sql)
            return true
        }
    }

    /// Dismisses cut `number` of the chunk's check, with the audit line `audit` when one is given
    /// (a proof-listener's), in one transaction; false when the take has no such cut open (no
    /// check, no such cut, or dismissed already), and then nothing is written.
    func dismissCut(_ number: Int, of chunk: ChunkID, audit: AuditEntry? = nil) throws(NarrationError) -> Bool {
        try writing { sql in
            guard var row = try TakeCheckRow.one(sql, key: .text(chunk.rawValue)),
                let report = try? JSONDecoder().decode(TakeCheckReport.self, from: Data(row.report.utf8)),
                report.cuts.indices.contains(number), !row.dismissed
            else { return false }
            var dismissed = row.dismissedCutNumbers
            guard dismissed.insert(number).inserted else { return false }
            row.dismissedCuts = TakeCheckRow.joined(dismissed)
            try row.save(sql)
            if let audit { try Self.append(audit, sql) }
            return true
        }
    }

    /// The narrator's median speaking rate over their latest 200 checked takes other than `chunk`; nil with
    /// fewer than `SpeakingRate.takesForMedian`.
    func medianWordsPerMinute(narrator: String, excluding chunk: ChunkID) throws(NarrationError) -> Double? {
        let rates = try reading { sql in
            try sql.rows(
                """
                    SELECT takeCheck.wordsPerMinute FROM takeCheck JOIN chunk ON chunk.id = takeCheck.chunkId
                    JOIN article ON article.id = chunk.articleId
                    WHERE article.narrator = ? AND takeCheck.chunkId != ? AND takeCheck.wordsPerMinute IS NOT NULL
                    ORDER BY takeCheck.checkedAt DESC LIMIT 200
                    """,
                .text(narrator), .text(chunk.rawValue)
            ).map { try $0.real("wordsPerMinute") }
        }
        return SpeakingRate.median(of: rates)
    }

    func dismissTakeChecks(_ chunks: [ChunkID]) throws(NarrationError) -> Int {
        try writing { sql in
            var count = 0
            for chunk in chunks {
                count += try sql.execute("UPDATE takeCheck SET dismissed = 1 WHERE chunkId = ? AND dismissed = 0", .text(chunk.rawValue))
            }
            return count
        }
    }
}
