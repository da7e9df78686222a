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
}

extension Catalog {
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
            checks[ChunkID(row.chunkId)] = TakeCheck(chunk: ChunkID(row.chunkId), report: report, dismissed: row.dismissed)
        }
        return checks
    }

    /// Keeps a take's check; false when the chunk left the article meanwhile, or when another
    /// process checked it first (the background check after a take and `script --check` may
    /// both check it): the first check stays, with its hints dismissed if they were.
    func storeTakeCheck(_ report: TakeCheckReport, for chunk: ChunkID) throws(NarrationError) -> Bool {
        let json = String(decoding: (try? JSONEncoder().encode(report)) ?? Data(), as: UTF8.self)
        return try writing { sql in
            guard try ChunkRow.exists(sql, key: .text(chunk.rawValue)), try !TakeCheckRow.exists(sql, key: .text(chunk.rawValue)) else { return false }
            try TakeCheckRow(chunkId: chunk.rawValue, report: json, wordsPerMinute: report.rate.wordsPerMinute, checkedAt: Date(), dismissed: false)
                .save(sql)
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
