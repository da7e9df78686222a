public import Foundation
public import NarrationCore

/// A proof-listener's approval and what follows it: the desk moves the article to Approved, the
/// article is exported from its chunks as they stand now and delivered through the outbox
/// exactly as `submit` delivers (checked at its destination, feed last), and only once the
/// delivery is recorded does the desk say Published. Listeners never hear an article before a
/// proof-listener approved it, and never an export older than the approval.
///
/// The order is the desk's decision first: an approval the desk refuses (not ready for review,
/// not a proof-listener) exports and sends nothing. A delivery that fails leaves the article
/// Approved with its job waiting in the outbox and the error said; it is not Published.
public struct ApprovedDelivery: Sendable {
    public let library: NarrationLibrary
    public let desk: DeskService

    public init(library: NarrationLibrary, desk: DeskService) {
        self.library = library
        self.desk = desk
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

    /// Approves `article` as `actor`, exports and delivers it, and marks it Published.
    /// - Returns: the delivered job and the article's desk record, Published.
    /// - Throws: `notPermitted` and `deskRefused` before anything is exported; the export's
    ///   and the delivery's errors after the approval (the article stays Approved, its job in
    ///   the outbox).
    public func approveAndDeliver(
        _ article: Article, by actor: ServiceActor, sending: Sending,
        onRetry: (NarrationError, Double) -> Void = { _, _ in }
    ) async throws(NarrationError) -> (job: OutboxJob, entry: DeskEntry) {
        try desk.approve(article.id, by: actor)
        let library = self.library
        // The reading plan was checked when the volunteer sent it for review; an approved
        // article goes as it was heard, skipped paragraphs and all.
        let (job, _) = try await BlockingWork.run(named: "narrate-approved-export") { () throws(NarrationError) in
            try library.exportForDelivery(article, profile: sending.profile, fallback: sending.fallback, language: sending.language, sendingUnread: true)
        }
        let delivered = try await library.deliver(job, to: sending.destination, retrying: sending.retry, onRetry: onRetry)
        let entry = try desk.publish(article.id, by: .service)
        return (delivered, entry)
    }
}
