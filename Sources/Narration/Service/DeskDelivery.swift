public import Foundation
public import NarrationCore

/// How an article on the desk reaches listeners: exported from its chunks as they stand and
/// delivered through the outbox exactly as `submit` delivers (checked at its destination, feed
/// last), and only once the delivery is recorded does the desk say Published.
///
/// - With review on, by a proof-listener's approval (`approveAndDeliver`): the desk moves the
///   article to Approved first, so listeners never hear an article no proof-listener approved,
///   nor an export older than the approval.
/// - With review off, by its volunteer's send (`sendAndDeliver`), as a job that carries the
///   volunteer's account (`SentDelivery`).
///
/// The desk decides first: a step it refuses (wrong state, wrong role) exports and sends nothing.
/// A delivery that fails leaves the article where it was (Approved, or Recording) with its job
/// waiting in the outbox and the error said; it is not Published.
public struct DeskDelivery: Sendable {
    public let library: NarrationLibrary
    public let desk: DeskService

    public init(library: NarrationLibrary, desk: DeskService) {
        self.library = library
        self.desk = desk
    }

    /// What one delivery made: the delivered job and the article's desk record, Published.
    public struct Delivered: Sendable {
        public let job: OutboxJob
        public let entry: DeskEntry
    }

    /// What a delivery needs besides the article: where, in which profile, with which retries.
    public struct Sending: Sendable {
        public var destination: Destination
        public var profile: DeliveryProfile?
        public var fallback: DeliveryProfile
        public var language: String
        public var retry: RetrySchedule

        public init(destination: Destination, profile: DeliveryProfile?, fallback: DeliveryProfile, language: String, retry: RetrySchedule) {
            self.destination = destination
            self.profile = profile
            self.fallback = fallback
            self.language = language
            self.retry = retry
        }
    }

    /// Approves `article` as `actor`, then exports and delivers it and marks it Published, as a
    /// job of the catalog's queue (`ApprovedDelivery`) that this process does at once: should it
    /// die on the way, another host of the service does the job once its lease runs out.
    /// - Parameters:
    ///   - runner: the host's runner (`narrate serve`); nil for one of this call's own.
    ///   - recordings: the service's recordings store, which holds the chunks other hosts recorded.
    /// - Returns: the delivered job and the article's desk record, Published; or nil when the
    ///   delivery is already another host's to do (the article stays Approved until it is done).
    /// - Throws: `notPermitted` and `deskRefused` before anything is exported; the export's and
    ///   the delivery's errors after the approval (the article stays Approved, its job in the
    ///   outbox, and the queue tries again later).
    public func approveAndDeliver(
        _ article: Article, by actor: ServiceActor, sending: Sending, runner: WorkRunner? = nil, recordings: RecordingStore? = nil,
        onRetry: @escaping @Sendable (NarrationError, Double) -> Void = { _, _ in }
    ) async throws(NarrationError) -> ApprovedDelivery.Delivered? {
        try desk.approve(article.id, by: actor)
        let delivery = ApprovedDelivery(library: library, desk: desk, sending: sending, recordings: recordings)
        let own: WorkRunner
        if let runner { own = runner } else { own = try WorkRunner(library: library) }
        let done = try await own.perform(ApprovedDelivery.kind, subject: article.id.rawValue) { _ throws(NarrationError) in
            try await delivery.deliver(article.id.rawValue, onRetry: onRetry)
        }
        return done ?? nil
    }

    /// With review off: sends `article` as its volunteer `actor`, straight to listeners: the
    /// desk judges the send first, the article is exported and delivered, then the desk says
    /// Published. With review on this is refused: the send goes to review (`DeskService.send`).
    ///
    /// A volunteer's send is a job of the catalog's queue (`SentDelivery`, which carries the
    /// account) that this process does at once: should it die on the way, another host of the
    /// service does the job once its lease runs out. The operator's own send (no account) is
    /// done here alone.
    /// - Parameters:
    ///   - runner: the host's runner (`narrate serve`); nil for one of this call's own.
    ///   - recordings: the service's recordings store, which holds the chunks other hosts recorded.
    /// - Returns: the delivered job and the article's desk record, Published; or nil when the
    ///   send is already another host's to deliver (the article stays Recording until it is done).
    /// - Throws: `deskRefused` with review on or in a state that cannot be sent, `notPermitted`,
    ///   both before anything is exported, and again when the desk or the account changed
    ///   between that check and the job (`refusalAfterTheFact`); the export's and the delivery's
    ///   errors after (the article stays Recording, its job in the outbox, and the queue tries
    ///   again later).
    public func sendAndDeliver(
        _ article: Article, by actor: ServiceActor, sending: Sending, accounts: AccountService, runner: WorkRunner? = nil,
        recordings: RecordingStore? = nil, onRetry: @escaping @Sendable (NarrationError, Double) -> Void = { _, _ in }
    ) async throws(NarrationError) -> (job: OutboxJob, entry: DeskEntry)? {
        let entry = try desk.entry(article.id, by: actor)
        guard !desk.reviewIsOn else {
            throw NarrationError(.deskRefused, "\(entry.naming) goes to a proof-listener before listeners: it is sent for review, not delivered.")
        }
        guard actor.may(DeskEvent.send.action, entry.relation(to: actor.account?.name)) else {
            throw .notPermitted(actor, DeskEvent.send.action, article: article.id)
        }
        _ = try entry.state.after(.send, reviewIsOn: false, naming: entry.naming)
        guard let account = actor.account?.name.rawValue else {
            let delivered = try await exportAndDeliver(article, sending: sending, onRetry: onRetry)
            return (delivered, try desk.send(article.id, by: actor))
        }
        let delivery = SentDelivery(library: library, desk: desk, accounts: accounts, sending: sending, recordings: recordings)
        let own: WorkRunner
        if let runner { own = runner } else { own = try WorkRunner(library: library) }
        let done = try await own.perform(SentDelivery.kind, subject: article.id.rawValue, asker: account) { job throws(NarrationError) in
            try await delivery.deliver(job.subject, asker: job.asker, actor: actor, onRetry: onRetry)
        }
        switch done {
        case .none: return nil  // the job is another host's
        case .some(.none): throw refusalAfterTheFact(article.id, by: actor, accounts: accounts)
        case .some(.some(let delivered)): return (delivered.job, delivered.entry)
        }
    }

    /// Why a send the desk let through a moment before was then not delivered: between the
    /// check and the job, the account was removed or disabled, the article given to another
    /// volunteer, or sent, withdrawn or expired (by another page or host). Nothing was delivered.
    func refusalAfterTheFact(_ article: ArticleID, by actor: ServiceActor, accounts: AccountService) -> NarrationError {
        if let name = actor.account?.name, ((try? accounts.store.account(named: name)) ?? nil)?.isEnabled != true {
            return NarrationError(.notPermitted, "The account \(name) was removed or disabled while the article was being sent: nothing was delivered.")
        }
        do throws(NarrationError) {
            let entry = try desk.entry(article, by: .service)
            _ = try entry.state.after(.send, reviewIsOn: desk.reviewIsOn, naming: entry.naming)
            if let name = actor.account?.name, let account = try accounts.store.account(named: name),
               !ServiceActor.account(account).may(DeskEvent.send.action, entry.relation(to: name)) {
                return .notPermitted(.account(account), DeskEvent.send.action, article: article)
            }
            return NarrationError(.deskRefused, "\(entry.naming) was not delivered: the desk changed while it was being sent. Look at it on the desk, then send it again.")
        } catch {
            return error
        }
    }

    /// The export of the chunks as they stand, and its delivery as `submit` makes it.
    func exportAndDeliver(
        _ article: Article, sending: Sending, onRetry: (NarrationError, Double) -> Void
    ) async throws(NarrationError) -> OutboxJob {
        let library = self.library
        // The reading plan was the volunteer's to finish before sending; a reviewed or sent
        // article goes as it stands, skipped paragraphs and all.
        let (job, _) = try await BlockingWork.run(named: "narrate-desk-export") { () throws(NarrationError) in
            try library.exportForDelivery(article, profile: sending.profile, fallback: sending.fallback, language: sending.language, sendingUnread: true)
        }
        return try await library.deliver(job, to: sending.destination, retrying: sending.retry, onRetry: onRetry)
    }
}
