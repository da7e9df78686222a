public import Foundation
public import NarrationCore

/// Review together with the desk: the sequences in which a proof-listener's steps change both
/// the review's records (`ReviewService`) and the article's place in its life (`DeskService`),
/// so that the command line (`narrate review`) and the review page take the same steps in the
/// same order.
///
/// - `context`: what every step works on, read in one go, with how the article stands to the
///   account (`relation(of:on:)`).
/// - `sendBack(_:)`: the desk's state is judged first, then the notes go out as pickups, then the
///   desk moves to Pickups requested; a refusal at the first two writes nothing.
/// - `approve`: Approved, delivered as `submit` delivers, then Published (`DeskDelivery`).
/// - `heard`: a proof-listener's listening, counted to their hours (`AccountActivity.review`).
public struct ReviewDesk: Sendable {
    public let library: NarrationLibrary
    public let review: ReviewService
    public let desk: DeskService

    /// Review over `library`'s review store and `desk`; `channel` is how the accounts reach it
    /// when the audit log should say so (see `ReviewService`), nil for the service's own pages.
    public init(library: NarrationLibrary, desk: DeskService, channel: String? = nil, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.library = library
        self.desk = desk
        self.review = ReviewService(store: library.reviewStore, clock: clock, channel: channel)
    }

    /// What every review step works on.
    public struct Context: Sendable {
        public let service: ReviewService
        public let account: Account
        public let article: Article
        public let reviewed: ReviewedArticle
        /// How the article stands to the account (see `relation(of:on:)`).
        public let relation: ArticleRelation
        /// The desk, and the article's record on it (nil for an article not on the desk).
        public let desk: DeskService
        public let entry: DeskEntry?
        /// The account as the desk's audit log names it.
        public let actor: ServiceActor
    }

    /// What a review step of `account` (acting as `actor`) on `article` works on, as the
    /// catalog has it now.
    public func context(_ article: Article, account: Account, actor: ServiceActor) throws(NarrationError) -> Context {
        let entry = try desk.store.entry(article.id)
        return Context(
            service: review, account: account, article: article, reviewed: try library.reviewedArticle(article),
            relation: Self.relation(of: account, on: entry), desk: desk, entry: entry, actor: actor)
    }

    /// How an article stands to `account` in review: for an article on the desk, what its desk
    /// record says (`DeskEntry.relation(to:)`), so review follows the article's life. An article
    /// not on the desk (the personal library's) belongs to the server's operator, trusted as
    /// `narrate accounts` is: the account meets it as its role meets an article in review, ready
    /// for review for a proof-listener and their own for anyone else. `Permissions.may` decides
    /// by the role either way and refuses a disabled account.
    public static func relation(of account: Account, on entry: DeskEntry?) -> ArticleRelation {
        if let entry { return entry.relation(to: account.name) }
        return account.role == .proofListener ? .readyForReview : .assignedToThem
    }

    /// Sends the article back with the notes pinned since it was last sent back as pickups,
    /// and, on the desk, moves it to Pickups requested.
    /// - Throws: the desk's refusal of its state before the notes go out (nothing is written);
    ///   `reviewNotAllowed`, `noNotesToSendBack` (nothing is written).
    public static func sendBack(_ context: Context) throws(NarrationError) -> ReviewService.SentBack {
        // The desk's state is judged before the notes go out, so that a refusal sends nothing.
        if let entry = context.entry { _ = try entry.state.after(.sendBack, reviewIsOn: context.desk.reviewIsOn, naming: entry.naming) }
        let sent = try context.service.sendBack(context.reviewed, by: context.account, relation: context.relation)
        if context.entry != nil { try context.desk.sendBack(context.article.id, by: context.actor) }
        return sent
    }

    /// Approves `article` (on the desk) as `actor`, delivers it and marks it Published
    /// (`DeskDelivery.approveAndDeliver`, through the catalog's queue of work).
    /// - Returns: the delivery; nil when another host of the service is delivering it.
    /// - Throws: as `DeskDelivery.approveAndDeliver`: refusals before anything is exported, the
    ///   export's and delivery's errors after the approval (the article stays Approved).
    public func approve(
        _ article: Article, by actor: ServiceActor, sending: DeskDelivery.Sending, runner: WorkRunner? = nil, recordings: RecordingStore? = nil,
        onRetry: @escaping @Sendable (NarrationError, Double) -> Void = { _, _ in }
    ) async throws(NarrationError) -> ApprovedDelivery.Delivered? {
        try await DeskDelivery(library: library, desk: desk).approveAndDeliver(
            article, by: actor, sending: sending, runner: runner, recordings: recordings, onRetry: onRetry)
    }

    /// What the review page shows of the article of `context`: its notes, oldest first, and what
    /// changed since it was last sent back (nil when it never was). For anyone who may see the
    /// article (`view`): the proof-listener reviewing it, and coordinators and admins looking.
    /// - Throws: `reviewNotAllowed` for anyone else.
    public static func looked(_ context: Context) throws(NarrationError) -> (notes: [ReviewNote], changes: ReviewChanges?) {
        guard Permissions.may(context.account, .view, context.relation) else { throw .reviewNotAllowed }
        let store = context.service.store
        let changes = try store.latestSendBack(of: context.article.id).map { ReviewService.changes(of: context.reviewed, since: $0) }
        return (try store.notes(of: context.article.id), changes)
    }

    /// The proof-listener of `context` heard `seconds` of the article's audio (one stretch of
    /// listening, ended now): counted to their hours as review (`AccountActivity.review`).
    /// - Throws: `reviewNotAllowed` unless the account may review the article; `usage` for
    ///   seconds that are not a number from 0 to the article's length.
    public static func heard(_ seconds: Double, in context: Context, activity: AccountActivity) throws(NarrationError) {
        guard Permissions.may(context.account, .review, context.relation) else { throw .reviewNotAllowed }
        let length = context.reviewed.seconds
        guard seconds.isFinite, seconds >= 0, seconds <= length else {
            throw .usage(
                "The time heard must be a number of seconds from 0 to the article's length, \(Timecode.tenths(length)) (\(ReviewNote.shown(length)) s); \(ReviewNote.shown(seconds)) is not.")
        }
        try activity.review(by: context.account.name, article: context.article.id, secondsHeard: seconds)
    }
}
