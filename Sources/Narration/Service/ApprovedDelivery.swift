public import NarrationCore
import SQLEngines

/// The background work that takes an Approved article to listeners: exported from its chunks as
/// they stand, delivered as `submit` delivers, and Published on the desk once the delivery is
/// checked. A job of the catalog's queue (`WorkQueue`, kind `kind`, subject the article's id),
/// so that any host of a reading service can do it, and one does it again when the host doing it
/// dies (its lease runs out).
///
/// Done twice, it shows listeners one article, once: the second export goes to the same path at
/// the destination (a file of the same chunks, in its place), a delivery is recorded only while
/// its job is the article's current export made from the chunks as they are, and the desk moves
/// an article to Published once (a second `publish` of a Published article is refused, so the
/// job finds nothing left to do).
public struct ApprovedDelivery: Sendable {
    /// The queue's name for this work.
    public static let kind = "deliver-approved"

    public let library: NarrationLibrary
    public let desk: DeskService
    public let sending: DeskDelivery.Sending
    /// The service's recordings store, where this host finds the chunks another host recorded.
    public let recordings: RecordingStore?

    public init(library: NarrationLibrary, desk: DeskService, sending: DeskDelivery.Sending, recordings: RecordingStore? = nil) {
        self.library = library
        self.desk = desk
        self.sending = sending
        self.recordings = recordings
    }

    /// What one delivery made: the delivered job and the article's desk record, Published.
    public typealias Delivered = DeskDelivery.Delivered

    /// Delivers the article `subject` names if it is still Approved, and marks it Published.
    /// - Returns: nil when there is nothing to do: the article was Published already (by a host
    ///   before this one), or left Approved another way (withdrawn, expired).
    /// - Throws: `catalogCorrupt` for a subject that is not an article's id; the export's and the
    ///   delivery's errors (the article stays Approved, and the queue tries again later).
    public func deliver(
        _ subject: String, onRetry: @escaping @Sendable (NarrationError, Double) -> Void = { _, _ in }
    ) async throws(NarrationError) -> Delivered? {
        guard Identifier.isWellFormed(subject) else {
            throw NarrationError(.catalogCorrupt, "The catalog's queue of work names an article \"\(Catalog.quoted(subject))\" that narrate never makes. \(Catalog.damagedFix)")
        }
        let id = ArticleID(subject)
        guard try desk.entry(id, by: .service).state == .approved else { return nil }
        if let recordings { try await library.bringChunksHome(of: id, from: recordings) }
        let article = try library.article(subject)
        let job = try await DeskDelivery(library: library, desk: desk).exportAndDeliver(article, sending: sending, onRetry: onRetry)
        return Delivered(job: job, entry: try desk.publish(id, by: .service))
    }

    /// Has `runner` do this work whenever a job of it is due (a dead host's, or one waiting to be tried again).
    public func handled(by runner: WorkRunner) {
        runner.handle(Self.kind) { job throws(NarrationError) in _ = try await deliver(job.subject) }
    }

    /// Asks for the delivery of every Approved article that has no job waiting or running (one
    /// approved by a process that died before it asked), for a host's runner to do.
    /// - Returns: how many articles are Approved, each with its job now.
    @discardableResult
    public func askForEveryApproved(in queue: WorkQueue, now: Double) throws(NarrationError) -> Int {
        let approved = try desk.list(DeskFilter(state: .approved), by: .service)
        for entry in approved {
            do throws(SQLEngineError) {
                try queue.enqueue(Self.kind, subject: entry.article.rawValue, due: now, now: now)
            } catch {
                throw Catalog.translate(error, path: library.catalog.path, dialect: library.catalog.engine.dialect)
            }
        }
        return approved.count
    }
}
