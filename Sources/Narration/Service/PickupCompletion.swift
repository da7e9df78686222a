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
/// Which pickups a take or punch covers is decided here too (`covers`), from the chunks it made,
/// so that the studio marks a pickup done when the take that fixes it is kept, never on a
/// page's word alone.
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
    /// now: for the volunteer whose article it is (`record`), and for coordinators and admins
    /// looking in (`view`, with `manage-articles` on the service).
    /// - Throws: `reviewNotAllowed` for anyone else.
    public func pickups(of article: ReviewedArticle, for account: Account, relation: ArticleRelation) throws(NarrationError) -> [ReviewPickup] {
        let looking = Permissions.may(account, .view, relation) && Permissions.may(account, .manageArticles, nil)
        guard Permissions.may(account, .record, relation) || looking else { throw .reviewNotAllowed }
        guard let last = try review.store.latestSendBack(of: article.id) else { return [] }
        let chunks = article.pickupChunks
        return try review.store.notes(of: article.id).filter { $0.sendBack == last.id }.map {
            ReviewPickup(note: $0, target: PickupTarget.of($0, chunks: chunks, sampleRate: article.sampleRate))
        }
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

    /// Marks done every open pickup that a take kept just now covers: `made` are the chunks the
    /// take made (`article` is read after it was kept), and its edit is the article's last.
    /// A take that covers none marks nothing.
    /// - Throws: `reviewNotAllowed` when `account` may not record the article; the desk's refusal.
    public func markCovered(
        by made: Set<ChunkID>, of article: ReviewedArticle, by account: Account, relation: ArticleRelation, actor: ServiceActor
    ) throws(NarrationError) -> Outcome {
        guard !made.isEmpty else { return Outcome(done: [], allDone: false, backInReview: false) }
        let covered = try review.pickups(of: article, for: account, relation: relation)
            .filter { $0.note.isOpen && Self.covers($0, made: made, in: article) }
        guard !covered.isEmpty else { return Outcome(done: [], allDone: false, backInReview: false) }
        var done: [ReviewNote] = []
        for pickup in covered {
            done.append(try review.markPickupDone(pickup.note.id, of: article, edit: article.lastEdit, by: account, relation: relation))
        }
        return try finished(done, of: article.id, by: account, relation: relation, actor: actor)
    }

    /// Whether a take that made the chunks `made` does what `pickup` asks, in `article` as it is
    /// after the take: a punch target's chunk is one it made (a punch-and-roll makes the chunk
    /// anew); a paragraph to read again has a chunk it made bound to that paragraph.
    public static func covers(_ pickup: ReviewPickup, made: Set<ChunkID>, in article: ReviewedArticle) -> Bool {
        switch pickup.target {
        case .punch(let chunk, _):
            return article.chunks.indices.contains(chunk - 1) && made.contains(article.chunks[chunk - 1].id)
        case .reread(let paragraph):
            return article.chunks.contains { chunk in
                made.contains(chunk.id) && chunk.paragraph.flatMap { article.paragraphNumbers[$0] } == paragraph
            }
        }
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
