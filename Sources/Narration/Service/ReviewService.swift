public import Foundation
public import NarrationCore

/// Review in a reading service: the notes a proof-listener pins to an article, sending it back
/// with them as pickups, the volunteer marking each pickup done, and what changed since.
///
/// It knows nothing of the article's state: each call takes the acting account and how the
/// article stands to it (`ArticleRelation`), asks `Permissions.may`, and refuses with one
/// sentence, writing nothing, when the answer is no. The state changes belong to the desk; the
/// order of calls around them:
/// 1. In "ready for review", `pin` for each note (relation `readyForReview`).
/// 2. `sendBack`, then the desk's move to "pickups requested". `sendBack` refuses when no note
///    waits, and then the desk must not move: the article stays in review.
/// 3. The volunteer (relation `assignedToThem` or `claimedByThem`) sees `pickups`, records the
///    take or punch, and after it is committed calls `markPickupDone` with its edit's number.
/// 4. When `allPickupsDone` is true, the desk's move back to "ready for review"; the
///    proof-listener then hears `changesSinceSendBack`, and approves or goes to 1 again.
public final class ReviewService: Sendable {
    public let store: any ReviewStore
    private let clock: @Sendable () -> Date
    private let channel: String?

    /// A service over `store`; `channel` is how its accounts reach it when the audit log should
    /// say so ("command line (user root)"), nil for the service's own pages.
    public init(store: any ReviewStore, clock: @escaping @Sendable () -> Date = { Date() }, channel: String? = nil) {
        self.store = store
        self.clock = clock
        self.channel = channel
    }

    /// Who the audit log names for a change `account` makes: its name, and the channel when there is one.
    private func actor(_ account: Account) -> String {
        channel.map { "\(account.name) via \($0)" } ?? account.name.rawValue
    }

    /// A line of the audit log for `account`'s `action` now, as this service names its actors.
    func auditLine(_ action: AuditEntry.Action, by account: Account, detail: String) -> AuditEntry {
        AuditEntry(at: clock(), actor: actor(account), action: action, account: nil, detail: detail)
    }

    /// An article sent back: the send-back as stored, and its pickups.
    public struct SentBack: Sendable, Equatable {
        public let sendBack: ReviewSendBack
        public let pickups: [ReviewPickup]
    }

    // MARK: The proof-listener

    /// Pins a note on `article` at paragraph `paragraph` and `seconds` into its audio; a
    /// proof-listener's, on an article ready for review.
    /// - Throws: `reviewNotAllowed`; `usage` for a paragraph or time outside the article.
    public func pin(
        _ content: ReviewNote.Content, paragraph: Int, seconds: Double, on article: ReviewedArticle, by account: Account,
        relation: ArticleRelation
    ) throws(NarrationError) -> ReviewNote {
        try require(account, .review, relation)
        let now = clock()
        let note = try ReviewNote.checked(
            article: article.id, paragraph: paragraph, seconds: seconds, content: content, author: account.name, createdAt: now,
            paragraphCount: article.paragraphCount, articleSeconds: article.seconds)
        return try store.addNote(
            note,
            audit: AuditEntry(
                at: now, actor: actor(account), action: .reviewNotePinned, account: nil,
                detail: "article \(article.id), paragraph \(paragraph) at \(ReviewNote.shown(note.seconds)) s: \(note.summary)"))
    }

    /// Sends `article` back with the notes pinned since it was last sent back, keeping its chunk
    /// list as it is now; returns the pickups. The proof-listener's, on an article ready for review.
    /// - Throws: `reviewNotAllowed`; `noNotesToSendBack` when no note waits (nothing is written).
    public func sendBack(_ article: ReviewedArticle, by account: Account, relation: ArticleRelation) throws(NarrationError) -> SentBack {
        try require(account, .approve, relation)
        let now = clock()
        let actor = actor(account)
        let (sendBack, notes) = try store.recordSendBack(
            ReviewSendBack(article: article.id, by: account.name, at: now, lastEdit: article.lastEdit, chunks: article.chunks),
            audit: { [id = article.id] pickups in
                AuditEntry(
                    at: now, actor: actor, action: .reviewSentBack, account: nil,
                    detail: "article \(id), \(pickups.count) \(pickups.count == 1 ? "pickup" : "pickups"): notes \(pickups.map { String($0.id) }.joined(separator: ", "))")
            })
        let chunks = article.pickupChunks
        return SentBack(
            sendBack: sendBack, pickups: notes.map { ReviewPickup(note: $0, target: PickupTarget.of($0, chunks: chunks, sampleRate: article.sampleRate)) })
    }

    // MARK: Both

    /// Every note of the article, oldest first: for a proof-listener on an article ready for
    /// review, and for the volunteer whose article it is.
    public func notes(of article: ArticleID, for account: Account, relation: ArticleRelation) throws(NarrationError) -> [ReviewNote] {
        try requireEither(account, relation)
        return try store.notes(of: article)
    }

    /// The pickups of the article's last send-back, each with where to pick it up in the
    /// article as it is now (found in the chunks the proof-listener heard, as the studio finds
    /// them: `PickupCompletion.target`); empty when it was never sent back.
    public func pickups(of article: ReviewedArticle, for account: Account, relation: ArticleRelation) throws(NarrationError) -> [ReviewPickup] {
        try requireEither(account, relation)
        guard let last = try store.latestSendBack(of: article.id) else { return [] }
        return try store.notes(of: article.id).filter { $0.sendBack == last.id }.map {
            ReviewPickup(note: $0, target: PickupCompletion.target(of: $0, sentBack: last, in: article).0)
        }
    }

    /// Whether every pickup of the article's last send-back is done (true when it was never
    /// sent back: nothing is asked of the volunteer).
    public func allPickupsDone(of article: ArticleID, for account: Account, relation: ArticleRelation) throws(NarrationError) -> Bool {
        try requireEither(account, relation)
        guard let last = try store.latestSendBack(of: article) else { return true }
        return try store.notes(of: article).allSatisfy { $0.sendBack != last.id || !$0.isOpen }
    }

    /// What changed since the article was last sent back, in its audio now; nil when it never was.
    public func changesSinceSendBack(of article: ReviewedArticle, for account: Account, relation: ArticleRelation) throws(NarrationError) -> ReviewChanges? {
        try requireEither(account, relation)
        guard let last = try store.latestSendBack(of: article.id) else { return nil }
        return Self.changes(of: article, since: last)
    }

    /// What changed in `article` (as it is now) since the send-back `last`. Asks no permission:
    /// for callers that asked already.
    public static func changes(of article: ReviewedArticle, since last: ReviewSendBack) -> ReviewChanges {
        let punched = Set(article.punches.filter { $0.edit > last.lastEdit }.map(\.chunk))
        return ReviewChanges(
            before: last.chunks, after: article.chunks, punched: punched, paragraphNumbers: article.paragraphNumbers, sampleRate: article.sampleRate)
    }

    // MARK: The volunteer

    /// Marks the pickup `note` done with the edit `edit` (the take or punch that did it, an edit
    /// of the article made since it was sent back and not undone); the volunteer's, on their own
    /// article. Returns the note as it now is.
    /// - Throws: `reviewNotAllowed`; `noSuchEdit` for an edit not made since the send-back;
    ///   `noOpenPickup` when the note is not an open pickup of the last send-back (nothing is written).
    @discardableResult
    public func markPickupDone(
        _ note: Int64, of article: ReviewedArticle, edit: Int, by account: Account, relation: ArticleRelation
    ) throws(NarrationError) -> ReviewNote {
        try require(account, .record, relation)
        guard let last = try store.latestSendBack(of: article.id) else { throw .noOpenPickup(note) }
        guard edit > last.lastEdit, article.standingEdits.contains(edit) else { throw .noSuchEdit(edit) }
        let now = clock()
        let marked = try store.markPickupDone(
            note, of: article.id, edit: edit, by: account.name, at: now,
            audit: AuditEntry(
                at: now, actor: actor(account), action: .reviewPickupDone, account: nil,
                detail: "article \(article.id), note \(note) by edit \(edit)"))
        guard marked, let done = try store.notes(of: article.id).first(where: { $0.id == note }) else { throw .noOpenPickup(note) }
        return done
    }

    // MARK: Permissions

    private func require(_ account: Account, _ action: ServiceAction, _ relation: ArticleRelation) throws(NarrationError) {
        guard Permissions.may(account, action, relation) else { throw .reviewNotAllowed }
    }

    /// The proof-listener reviewing the article, or the volunteer recording it.
    private func requireEither(_ account: Account, _ relation: ArticleRelation) throws(NarrationError) {
        guard Permissions.may(account, .review, relation) || Permissions.may(account, .record, relation) else { throw .reviewNotAllowed }
    }
}
