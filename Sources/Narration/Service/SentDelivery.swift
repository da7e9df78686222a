public import NarrationCore

/// The background work that takes an article its volunteer sent, with review off, to listeners:
/// exported from its chunks as they stand, delivered as `submit` delivers, and sent on the desk
/// (Recording → Published) in the volunteer's name once the delivery is checked. A job of the
/// catalog's queue (`WorkQueue`, kind `kind`, subject the article's id, asker the volunteer's
/// account), so that when the host doing it dies, another host does it once its lease runs out.
///
/// With review on, the desk's Approved state remembers that an article is to be delivered
/// (`ApprovedDelivery`); with review off nothing does until the send is done, so the job carries
/// who sent it, and the desk judges that account's send again before anything is exported.
///
/// Done twice, it shows listeners one article, as `ApprovedDelivery` does: the same path at the
/// destination, a delivery recorded only while its job is current, and the desk's send made
/// once (a second send of a Published article is refused, so the job finds nothing to do).
public struct SentDelivery: Sendable {
    /// The queue's name for this work.
    public static let kind = "deliver-sent"

    public let library: NarrationLibrary
    public let desk: DeskService
    public let accounts: AccountService
    public let sending: DeskDelivery.Sending
    /// The service's recordings store, where this host finds the chunks another host recorded.
    public let recordings: RecordingStore?

    public init(library: NarrationLibrary, desk: DeskService, accounts: AccountService, sending: DeskDelivery.Sending, recordings: RecordingStore? = nil) {
        self.library = library
        self.desk = desk
        self.accounts = accounts
        self.sending = sending
        self.recordings = recordings
    }

    /// What one delivery made: the delivered job and the article's desk record, Published.
    public typealias Delivered = DeskDelivery.Delivered

    /// Delivers the article `subject` names as `asker`'s send, if the desk still lets that
    /// account send it, and sends it on the desk (Published): in the name of `actor` when the
    /// process that asked does it (the audit keeps "as ann" of the command line), else of the
    /// account.
    /// - Returns: the delivered job and the desk record; nil when there is nothing to do: the
    ///   article was Published already (by a host before this one), withdrawn or expired,
    ///   review was turned on meanwhile, or the account may no longer send it (removed,
    ///   disabled, or the article given to another volunteer).
    /// - Throws: `catalogCorrupt` for a subject or asker narrate never makes; the export's and
    ///   the delivery's errors (the queue tries again later).
    public func deliver(
        _ subject: String, asker: String?, actor asking: ServiceActor? = nil, onRetry: @escaping @Sendable (NarrationError, Double) -> Void = { _, _ in }
    ) async throws(NarrationError) -> Delivered? {
        guard Identifier.isWellFormed(subject), let asker, let name = try? AccountName(asker) else {
            let named = "\"\(Catalog.quoted(subject))\" for \"\(Catalog.quoted(asker ?? ""))\""
            throw NarrationError(.catalogCorrupt, "The catalog's queue of work names a send \(named) that narrate never makes. \(Catalog.damagedFix)")
        }
        let id = ArticleID(subject)
        // Judged by the account as the catalog has it now, never by the caller's copy of it: one
        // removed or disabled since, or whose article went to another volunteer, no longer sends it.
        guard let account = try accounts.store.account(named: name), account.isEnabled else { return nil }
        let entry = try desk.entry(id, by: .service)
        guard !desk.reviewIsOn, (try? entry.state.after(.send, reviewIsOn: false, naming: entry.naming)) != nil,
              ServiceActor.account(account).may(DeskEvent.send.action, entry.relation(to: name))
        else { return nil }
        let actor: ServiceActor
        if let asking, asking.account?.name == name { actor = asking } else { actor = .account(account) }
        if let recordings { try await library.bringChunksHome(of: id, from: recordings) }
        let article = try library.article(subject)
        let job = try await DeskDelivery(library: library, desk: desk).exportAndDeliver(article, sending: sending, onRetry: onRetry)
        return Delivered(job: job, entry: try desk.send(id, by: actor))
    }

    /// Has `runner` do this work whenever a job of it is due (a dead host's, or one waiting to be tried again).
    public func handled(by runner: WorkRunner) {
        runner.handle(Self.kind) { job throws(NarrationError) in _ = try await deliver(job.subject, asker: job.asker) }
    }
}
