public import NarrationCore

/// What a reading service's catalog holds that its operator watches (`GET /metrics`): takes
/// whose pages are still sending their audio, exports waiting to be delivered or being made, and
/// chunks not yet copied to the recordings store.
/// Counted in the catalog, so every host of a service reports the same.
public struct ServiceFigures: Sendable, Equatable {
    public let takesUploading: Int
    public let exportsQueued: Int
    public let exportsBeingMade: Int
    /// Chunks in articles' lists with no checked copy in the recordings store yet.
    public let chunksAwaitingCopy: Int
}

extension NarrationLibrary {
    /// Where the catalog is kept: "sqlite" (the data folder's file) or "postgresql" (a server
    /// several hosts share), as a service's log names it.
    public var catalogKind: String { catalog.engine.dialect == .postgreSQL ? "postgresql" : "sqlite" }

    /// The figures now, read in one transaction of the catalog.
    public func serviceFigures() throws(NarrationError) -> ServiceFigures {
        try catalog.reading { sql in
            let uploading = try sql.row("SELECT COUNT(*) AS n FROM take_upload u JOIN pendingTake p ON p.chunkId = u.chunk_id")?.int("n") ?? 0
            var states: [String: Int] = [:]
            for row in try sql.rows("SELECT state, COUNT(*) AS n FROM outbox WHERE state IN (?, ?) GROUP BY state",
                                    .text(OutboxJob.State.queued.rawValue), .text(OutboxJob.State.exporting.rawValue)) {
                states[try row.text("state")] = try row.int("n")
            }
            let awaiting = try sql.row("SELECT COUNT(*) AS n \(Catalog.awaitingCopy)")?.int("n") ?? 0
            return ServiceFigures(
                takesUploading: uploading, exportsQueued: states[OutboxJob.State.queued.rawValue] ?? 0,
                exportsBeingMade: states[OutboxJob.State.exporting.rawValue] ?? 0, chunksAwaitingCopy: awaiting)
        }
    }
}
