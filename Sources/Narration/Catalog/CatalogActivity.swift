import Foundation
public import NarrationCore

extension Catalog {
    /// Every narrator's activity the catalog records, for `VolunteerHours`, read in one
    /// transaction; articles in the trash included (their work was done).
    ///
    /// - Takes: each chunk a take added (record, insert, re-record, read again, recovered), found
    ///   in the history's chunk lists, so takes later replaced, deleted or undone still count;
    ///   chunks of a catalog older than the history count as takes too. A take's time is
    ///   `recordedAt`, when it was kept; it began its length earlier.
    /// - Edits: each edit's time, and the time it was undone.
    /// - Queues and deliveries: each outbox job's `queuedAt` and `deliveredAt`. A job delivered
    ///   to several destinations counts once, at its last delivery; its length is that of the
    ///   article's chunks as they stood when it was queued, rebuilt from the history.
    ///
    /// Limits of what the catalog records: the narrator is the article's current one (a change of
    /// narrator applies to its whole past); a punch counts as an edit, not a take, since only the
    /// joined chunk's length is kept; the time a take waited before its first sound is not known.
    /// - Throws: `catalogCorrupt` when the history holds chunk lists narrate never writes.
    public func activity() throws(NarrationError) -> [VolunteerHours.Event] {
        try reading { sql in
            let articles = try ArticleRow.all(sql)
            let narrators = Dictionary(uniqueKeysWithValues: articles.map { ($0.id, $0.narrator) })
            let rates = Dictionary(uniqueKeysWithValues: articles.map { ($0.id, max(1, $0.sampleRate)) })
            let current = try ChunkRow.all(sql)
            let edits = try EditRow.all(sql, orderedBy: "id")
            let decoder = JSONDecoder()
            var events: [VolunteerHours.Event] = []
            var frames: [String: Int] = [:]
            for row in current { frames[row.id] = row.frames }
            var seen: Set<String> = []
            var orders: [String: [(time: Date, order: [String])]] = [:]
            var firstOrder: [String: [String]] = [:]
            let takeKinds = Set([Edit.Kind.record, .insert, .rerecord, .reread, .recover].map(\.rawValue))
            for edit in edits {
                let before = try decoder.decode(ChunkListSide.self, from: Data(edit.chunksBefore.utf8))
                let after = try decoder.decode(ChunkListSide.self, from: Data(edit.chunksAfter.utf8))
                for row in before.rows + after.rows { frames[row.id] = row.frames; seen.insert(row.id) }
                seen.formUnion(before.order + after.order)
                let narrator = narrators[edit.articleId] ?? ""
                if takeKinds.contains(edit.kind) {
                    let old = Set(before.order)
                    for row in after.rows where !old.contains(row.id) {
                        events.append(.init(narrator: narrator, time: row.recordedAt, kind: .take(seconds: Self.seconds(row.frames, rates[row.articleId]))))
                    }
                } else {
                    events.append(.init(narrator: narrator, time: edit.madeAt, kind: .edit))
                }
                if let undone = edit.undoneAt { events.append(.init(narrator: narrator, time: undone, kind: .edit)) }
                if firstOrder[edit.articleId] == nil { firstOrder[edit.articleId] = before.order }
                orders[edit.articleId, default: []].append((edit.madeAt, after.order))
                if let undone = edit.undoneAt { orders[edit.articleId, default: []].append((undone, before.order)) }
            }
            // Chunks of a catalog older than the history: takes the history never saw.
            for row in current where !seen.contains(row.id) {
                events.append(.init(narrator: narrators[row.articleId] ?? "", time: row.recordedAt, kind: .take(seconds: Self.seconds(row.frames, rates[row.articleId]))))
            }
            let currentOrders = Dictionary(grouping: current.sorted { $0.position < $1.position }, by: \.articleId).mapValues { $0.map(\.id) }
            for job in try OutboxRow.all(sql) {
                let narrator = narrators[job.articleId] ?? ""
                events.append(.init(narrator: narrator, time: job.queuedAt, kind: .queue))
                guard let delivered = job.deliveredAt else { continue }
                // The chunk list when the job was queued: the last edit (or undo) before it.
                let order = orders[job.articleId, default: []].sorted { $0.time < $1.time }.last { $0.time <= job.queuedAt }?.order
                    ?? firstOrder[job.articleId] ?? currentOrders[job.articleId] ?? []
                let length = order.reduce(0) { $0 + (frames[$1] ?? 0) }
                events.append(.init(narrator: narrator, time: delivered, kind: .delivery(seconds: Self.seconds(length, rates[job.articleId]))))
            }
            return events
        }
    }

    private static func seconds(_ frames: Int, _ rate: Int?) -> Double {
        Double(frames) / Double(rate ?? 44_100)
    }
}
