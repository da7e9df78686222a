public import Foundation
public import NarrationCore

/// A volunteer's pickups of one article done: each marked done with the edit that did it, and
/// the last one sending a desk article back to review. The command line (`narrate review done`,
/// `narrate record --as`), the service's routes (`POST /api/pickups/ID/NOTE/done`) and an
/// article's studio in the service all come here, so the sequence is written once:
/// 1. `ReviewService.markPickupDone` for each pickup (it checks `record` on the article and the edit);
/// 2. `ReviewService.allPickupsDone`;
/// 3. when all are done and the article is Pickups requested on the desk, `DeskService.pickupsDone`.
///
/// Where each pickup is now (`target(of:sentBack:in:)`) and which pickups a take or punch covers
/// (`covers`, from the chunks it made) are decided here too, so that the studio marks a pickup
/// done when the take that fixes it is kept, never on a page's word alone.
public struct PickupCompletion: Sendable {
    public let review: ReviewService
    public let desk: DeskService

    public init(review: ReviewService, desk: DeskService) {
        self.review = review
        self.desk = desk
    }

    /// What marking pickups done came to.
    public struct Outcome: Sendable, Equatable {
        /// The pickups marked done, as they now are (empty when a take covered none).
        public let done: [ReviewNote]
        /// Whether every pickup of the last send-back is done now.
        public let allDone: Bool
        /// Whether the last pickup done moved the article on the desk back to Ready for review.
        public let backInReview: Bool

        public init(done: [ReviewNote], allDone: Bool, backInReview: Bool) {
            self.done = done
            self.allDone = allDone
            self.backInReview = backInReview
        }
    }

    /// The pickups of `article`'s last send-back, each with its target in the article as it is
    /// now (`target(of:sentBack:in:)`): for the volunteer whose article it is (`record`), and
    /// for coordinators and admins looking in (`view`, with `manage-articles` on the service).
    /// - Throws: `reviewNotAllowed` for anyone else.
    public func pickups(of article: ReviewedArticle, for account: Account, relation: ArticleRelation) throws(NarrationError) -> [ReviewPickup] {
        let looking = Permissions.may(account, .view, relation) && Permissions.may(account, .manageArticles, nil)
        guard Permissions.may(account, .record, relation) || looking else { throw .reviewNotAllowed }
        return try placed(article).map { ReviewPickup(note: $0.note, target: $0.target) }
    }

    /// A pickup of the last send-back placed in the article as it is now, with the chunk the
    /// proof-listener heard it in (nil when the note lies in no chunk of its paragraph).
    struct Placed {
        let note: ReviewNote
        let target: PickupTarget
        let heardIn: ChunkID?
    }

    /// The last send-back's pickups, placed (none when the article was never sent back).
    private func placed(_ article: ReviewedArticle) throws(NarrationError) -> [Placed] {
        guard let last = try review.store.latestSendBack(of: article.id) else { return [] }
        return try review.store.notes(of: article.id).filter { $0.sendBack == last.id }.map { note in
            let (target, heardIn) = Self.target(of: note, sentBack: last, in: article)
            return Placed(note: note, target: target, heardIn: heardIn)
        }
    }

    /// Where `note` is picked up now. It is found in the article as the proof-listener heard it
    /// (the send-back's chunks), so that a punch for an earlier note, which changes that
    /// chunk's length, moves no later note; then placed in the article as it is now: the same
    /// chunk and second where that chunk still is; where the note lies now when that chunk was
    /// made anew since. Also returns the chunk it was heard in (nil for a paragraph to read again).
    public static func target(of note: ReviewNote, sentBack: ReviewSendBack, in article: ReviewedArticle) -> (PickupTarget, heardIn: ChunkID?) {
        let heard = sentBack.chunks.map { PickupTarget.Chunk(frames: $0.frames, paragraph: $0.paragraph.flatMap { article.paragraphNumbers[$0] }) }
        let then = PickupTarget.of(note, chunks: heard, sampleRate: article.sampleRate)
        guard case .punch(let position, let seconds) = then, sentBack.chunks.indices.contains(position - 1) else { return (then, nil) }
        let chunk = sentBack.chunks[position - 1].id
        if let now = article.chunks.firstIndex(where: { $0.id == chunk }) { return (.punch(chunk: now + 1, seconds: seconds), chunk) }
        return (PickupTarget.of(note, chunks: article.pickupChunks, sampleRate: article.sampleRate), chunk)
    }

    /// Marks the pickup `note` done with the edit `edit`; the last one done moves a desk
    /// article in Pickups requested back to Ready for review, as `actor`.
    /// - Throws: what `ReviewService.markPickupDone` throws (nothing is written), or the desk's refusal.
    public func markDone(
        _ note: Int64, of article: ReviewedArticle, edit: Int, by account: Account, relation: ArticleRelation, actor: ServiceActor
    ) throws(NarrationError) -> Outcome {
        let done = try review.markPickupDone(note, of: article, edit: edit, by: account, relation: relation)
        return try finished([done], of: article.id, by: account, relation: relation, actor: actor)
    }

    /// Marks done every open pickup that a take kept just now covers (`covers`): `made` are
    /// the chunks the take made (`article` is read after it was kept), and its edit is the
    /// article's last. A take that covers none marks nothing.
    /// - Throws: `reviewNotAllowed` when `account` may not record the article; the desk's refusal.
    public func markCovered(
        by made: Set<ChunkID>, of article: ReviewedArticle, by account: Account, relation: ArticleRelation, actor: ServiceActor
    ) throws(NarrationError) -> Outcome {
        guard Permissions.may(account, .record, relation) else { throw .reviewNotAllowed }
        let covered = try placed(article).filter { $0.note.isOpen && Self.covers($0.note, heardIn: $0.heardIn, made: made, in: article) }
        guard !covered.isEmpty else { return Outcome(done: [], allDone: false, backInReview: false) }
        var done: [ReviewNote] = []
        for pickup in covered {
            done.append(try review.markPickupDone(pickup.note.id, of: article, edit: article.lastEdit, by: account, relation: relation))
        }
        return try finished(done, of: article.id, by: account, relation: relation, actor: actor)
    }

    /// Whether a take that made the chunks `made` does what `note` asks, in `article` as it is
    /// after the take: it made a chunk that reads the note's paragraph, and, for a note heard in
    /// a chunk (`heardIn`, a punch-and-roll's target), that chunk is no longer in the article
    /// (the punch made it anew). A take of another paragraph does none of its pickups.
    public static func covers(_ note: ReviewNote, heardIn: ChunkID?, made: Set<ChunkID>, in article: ReviewedArticle) -> Bool {
        let readsParagraph = article.chunks.contains { chunk in
            made.contains(chunk.id) && chunk.paragraph.flatMap { article.paragraphNumbers[$0] } == note.paragraph
        }
        guard readsParagraph else { return false }
        guard let heardIn else { return true }
        return !article.chunks.contains { $0.id == heardIn }
    }

    /// After pickups were marked: whether all are, and the desk's move back to review when so.
    private func finished(
        _ done: [ReviewNote], of article: ArticleID, by account: Account, relation: ArticleRelation, actor: ServiceActor
    ) throws(NarrationError) -> Outcome {
        let allDone = try review.allPickupsDone(of: article, for: account, relation: relation)
        guard allDone, try desk.store.entry(article)?.state == .pickupsRequested else {
            return Outcome(done: done, allDone: allDone, backInReview: false)
        }
        try desk.pickupsDone(article, by: actor)
        return Outcome(done: done, allDone: allDone, backInReview: true)
    }
}
