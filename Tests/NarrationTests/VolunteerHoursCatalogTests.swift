import Foundation
@testable import Narration
import NarrationCore
import NarrationTestSupport
import SQLEngines
import Testing

/// A catalog written row by row with a known timeline (takes' times cannot be set through
/// recording), read back by `Catalog.activity()` and reported in UTC.
@Suite("Volunteer hours from a real catalog")
struct VolunteerHoursCatalogTests {
    static let utc = TimeZone(identifier: "UTC")!

    static func at(_ text: String) -> Date { utcMinute(text) }

    static func chunk(_ id: String, of article: String, _ position: Int, seconds: Int, kept: String) -> ChunkRow {
        ChunkRow(Chunk(
            id: ChunkID(id), articleID: ArticleID(article), frames: seconds * 44_100, format: .speech, peak: Decibels(-6), rms: Decibels(-20),
            overruns: 0, recovered: false, recordedAt: at(kept), paragraphID: nil), position: position)
    }

    static func edit(_ kind: Edit.Kind, of article: String, at time: String, before: [ChunkRow], after: [ChunkRow], _ sql: any SQLTransaction) throws {
        func json(_ rows: [ChunkRow], changed: [ChunkRow]) throws -> String {
            String(decoding: try JSONEncoder().encode(ChunkListSide(order: rows.map(\.id), rows: changed)), as: UTF8.self)
        }
        let row = EditRow(
            id: nil, articleId: article, kind: kind.rawValue, summary: "\(kind.label)", madeAt: at(time),
            chunksBefore: try json(before, changed: before.filter { !after.contains($0) }),
            chunksAfter: try json(after, changed: after.filter { !before.contains($0) }),
            detailsBefore: nil, detailsAfter: nil, undoneAt: nil)
        try row.insert(sql)
    }

    @Test("a session across midnight, an idle gap, a trimmed take, a delivery and a chunk older than the history", arguments: CatalogEngines.Kind.allCases)
    func timeline(_ kind: CatalogEngines.Kind) throws {
        let folder = TemporaryFolder("narrate-hours")
        let catalog = try kind == .sqlite ? TestCatalogs.sqlite(folder) : TestCatalogs.postgreSQL(folder)
        let ann = "aaaa0001", none = "bbbb0001"
        for (id, narrator) in [(ann, "Ann"), (none, "")] {
            try catalog.add(Article(
                id: ArticleID(id), title: "Article \(id)", publication: "Post", narrator: narrator, format: .speech, createdAt: Self.at("2026-11-23 23:00")))
        }
        let c1 = Self.chunk("cccc0001", of: ann, 0, seconds: 300, kept: "2026-11-23 23:45")  // 23:40–23:45
        let c2 = Self.chunk("cccc0002", of: ann, 1, seconds: 120, kept: "2026-11-23 23:55")  // 23:53–23:55
        let c3 = Self.chunk("cccc0003", of: ann, 1, seconds: 100, kept: "2026-11-23 23:55")  // c2 trimmed at 00:05
        let c4 = Self.chunk("cccc0004", of: ann, 2, seconds: 60, kept: "2026-11-24 00:20")  // 00:19–00:20
        let c5 = Self.chunk("cccc0005", of: ann, 3, seconds: 300, kept: "2026-11-24 10:05")  // 10:00–10:05, after a gap
        let old = Self.chunk("dddd0001", of: none, 0, seconds: 60, kept: "2026-11-24 12:05")  // no history
        try catalog.writing { sql in
            try c1.insert(sql)
            try Self.edit(.record, of: ann, at: "2026-11-23 23:45", before: [], after: [c1], sql)
            try c2.insert(sql)
            try Self.edit(.record, of: ann, at: "2026-11-23 23:55", before: [c1], after: [c1, c2], sql)
            try c2.delete(sql)
            try c3.insert(sql)
            try Self.edit(.trim, of: ann, at: "2026-11-24 00:05", before: [c1, c2], after: [c1, c3], sql)
            try c4.insert(sql)
            try Self.edit(.record, of: ann, at: "2026-11-24 00:20", before: [c1, c3], after: [c1, c3, c4], sql)
            // Queued 40 minutes after the last take: outside any session. It holds c1, c3, c4: 460 s.
            try OutboxRow(
                id: "job00001", articleId: ann, file: "", sidecar: "", sha256: "ff", bytes: 10, profile: "archive",
                queuedAt: Self.at("2026-11-24 01:00"), state: "delivered", attempts: 1, deliveredAt: Self.at("2026-11-24 10:10")
            ).insert(sql)
            try c5.insert(sql)
            try Self.edit(.record, of: ann, at: "2026-11-24 10:05", before: [c1, c3, c4], after: [c1, c3, c4, c5], sql)
            try old.insert(sql)
        }

        let rows = VolunteerHours.report(try catalog.activity(), timeZone: Self.utc)
        let lines = rows.map {
            "\($0.day),\($0.narrator),\(VolunteerDay.minutes($0.volunteerSeconds)),\($0.sessions),\($0.takes),"
                + "\(VolunteerDay.minutes($0.recordedSeconds)),\(VolunteerDay.minutes($0.deliveredSeconds))"
        }
        #expect(lines == [
            // 23:40–00:20 split at midnight; the trimmed c2 still counts as a take of 2 minutes.
            "2026-11-23,Ann,20.0,1,2,7.0,0.0",
            "2026-11-24,(no narrator),1.0,1,1,1.0,0.0",
            // 20 minutes after midnight, then 10:00–10:10 (the delivery extends the session); 460 s delivered.
            "2026-11-24,Ann,30.0,1,2,6.0,7.7",
        ])
        let filtered = VolunteerHours.report(
            try catalog.activity(), filter: .init(from: CalendarDay("2026-11-24"), narrator: "ANN"), timeZone: Self.utc)
        #expect(filtered.map(\.volunteerSeconds) == [30 * 60])
    }
}
