import Foundation
import Narration
import NarrationCore
import NarrationTestSupport
import Testing

/// The volunteer's pickups done, over stores in memory: where each pickup is after an earlier
/// punch changed a chunk's length, which takes cover which pickups, the last one done sending a
/// desk article back to review, and refusals that write nothing. The real parts (catalog, a
/// real punch, the binary, the browser) are in RecordAsAccountTests and test_service_life.py.
@Suite("Pickups done: where they are, what covers them, back to review")
struct PickupCompletionTests {
    let clock = HandClock()
    let reviewStore = InMemoryReviewStore()
    let deskStore = InMemoryDeskStore()
    let completion: PickupCompletion
    let ann = Account(name: try! AccountName("ann"), role: .volunteer, createdAt: Date(timeIntervalSince1970: 0))
    let dora = Account(name: try! AccountName("dora"), role: .proofListener, createdAt: Date(timeIntervalSince1970: 0))
    let cora = Account(name: try! AccountName("cora"), role: .coordinator, createdAt: Date(timeIntervalSince1970: 0))
    /// Chunk c1 (4 s) reads paragraph 1, c2 (6 s) paragraph 2, at 1,000 frames a second.
    let heard = ReviewStoreContractTests.article()

    init() throws {
        completion = PickupCompletion(
            review: ReviewService(store: reviewStore, clock: clock.function), desk: DeskService(store: deskStore, clock: clock.function))
        try deskStore.addEntry(
            DeskEntry(
                article: heard.id, title: "Harbour", publication: "Daily Post", state: .pickupsRequested, assignee: ann.name, taking: .assigned,
                addedAt: clock.date),
            audit: AuditEntry(at: clock.date, actor: "test", action: .articleAdded, account: nil, detail: "added"))
        let review = completion.review
        let remark = ReviewNote.Content.remark(ReviewStoreContractTests.text("a door slams"))
        // Note 1 at 3 s in c1 (paragraph 1), note 2 at 5 s: 1 s into c2 (paragraph 2).
        _ = try review.pin(remark, paragraph: 1, seconds: 3, on: heard, by: dora, relation: .readyForReview)
        _ = try review.pin(remark, paragraph: 2, seconds: 5, on: heard, by: dora, relation: .readyForReview)
        _ = try review.sendBack(heard, by: dora, relation: .readyForReview)
    }

    /// The article after c1 was punched into c1b, 2.5 s longer.
    var punchedFirst: ReviewedArticle {
        ReviewStoreContractTests.article(
            chunks: [
                ReviewChunk(id: ChunkID("c1b"), frames: 6_500, paragraph: ParagraphID("p1")),
                ReviewChunk(id: ChunkID("c2"), frames: 6_000, paragraph: ParagraphID("p2")),
            ], lastEdit: 3)
    }

    @Test("a later pickup stays where it was heard after an earlier punch made a chunk longer")
    func placedAsHeard() throws {
        #expect(try completion.pickups(of: heard, for: ann, relation: .assignedToThem).map(\.target) == [
            .punch(chunk: 1, seconds: 3), .punch(chunk: 2, seconds: 1),
        ])
        // In the article as it is now note 2's 5 s lies in c1b, paragraph 1: read as it was heard, it is still 1 s into c2.
        #expect(try completion.pickups(of: punchedFirst, for: ann, relation: .assignedToThem).map(\.target) == [
            .punch(chunk: 1, seconds: 3), .punch(chunk: 2, seconds: 1),
        ])
        // The review's own list (narrate review notes) places them the same way.
        #expect(try completion.review.pickups(of: punchedFirst, for: ann, relation: .assignedToThem).map(\.target) == [
            .punch(chunk: 1, seconds: 3), .punch(chunk: 2, seconds: 1),
        ])
    }

    @Test("a punch covers the pickups heard in the chunk it made anew; a take of another paragraph covers none")
    func covering() throws {
        let notes = try reviewStore.notes(of: heard.id)
        let sentBack = try #require(try reviewStore.latestSendBack(of: heard.id))
        let placed = notes.map { PickupCompletion.target(of: $0, sentBack: sentBack, in: punchedFirst) }
        #expect(placed.map(\.heardIn) == [ChunkID("c1"), ChunkID("c2")])
        #expect(PickupCompletion.covers(notes[0], heardIn: placed[0].heardIn, made: [ChunkID("c1b")], in: punchedFirst))
        #expect(!PickupCompletion.covers(notes[1], heardIn: placed[1].heardIn, made: [ChunkID("c1b")], in: punchedFirst))
        // A new chunk for paragraph 2 while c2 still stands (a take appended) does not fix the slip heard in c2.
        let appended = ReviewStoreContractTests.article(
            chunks: heard.chunks + [ReviewChunk(id: ChunkID("c3"), frames: 1_000, paragraph: ParagraphID("p2"))], lastEdit: 3)
        #expect(!PickupCompletion.covers(notes[1], heardIn: ChunkID("c2"), made: [ChunkID("c3")], in: appended))
        // A paragraph to read again is covered by any new chunk that reads it.
        #expect(PickupCompletion.covers(notes[1], heardIn: nil, made: [ChunkID("c3")], in: appended))
    }

    @Test("the punches mark their pickups done with their edits; the last sends the article back to review")
    func markCovered() throws {
        let first = try completion.markCovered(by: [ChunkID("c1b")], of: punchedFirst, by: ann, relation: .assignedToThem, actor: .account(ann))
        #expect(first.done.map(\.id) == [1] && !first.allDone && !first.backInReview)
        #expect(try deskStore.entry(heard.id)?.state == .pickupsRequested)
        let both = ReviewStoreContractTests.article(
            chunks: [
                ReviewChunk(id: ChunkID("c1b"), frames: 6_500, paragraph: ParagraphID("p1")),
                ReviewChunk(id: ChunkID("c2b"), frames: 5_000, paragraph: ParagraphID("p2")),
            ], lastEdit: 4)
        let last = try completion.markCovered(by: [ChunkID("c2b")], of: both, by: ann, relation: .assignedToThem, actor: .account(ann))
        #expect(last.done.map(\.id) == [2] && last.allDone && last.backInReview)
        #expect(last.done.first?.pickup == .done(edit: 4, by: ann.name, at: clock.date))
        #expect(try reviewStore.notes(of: heard.id).first?.pickup == .done(edit: 3, by: ann.name, at: clock.date))
        #expect(try deskStore.entry(heard.id)?.state == .readyForReview)
        #expect(AccountTake.sentence(last) == "Pickup 2 is done with this take. All pickups are done: sent back to review.")
        #expect(AccountTake.sentence(first) == "Pickup 1 is done with this take.")
    }

    @Test("marking done by note and edit, as narrate review done does: the last moves the desk")
    func markDone() throws {
        let once = try completion.markDone(1, of: punchedFirst, edit: 3, by: ann, relation: .assignedToThem, actor: .account(ann))
        #expect(!once.allDone && !once.backInReview)
        let twice = try completion.markDone(2, of: punchedFirst, edit: 3, by: ann, relation: .assignedToThem, actor: .account(ann))
        #expect(twice.allDone && twice.backInReview)
        #expect(try deskStore.entry(heard.id)?.state == .readyForReview)
    }

    @Test("someone else, a proof-listener or a coordinator may not mark; a coordinator may look; nothing is written")
    func refusals() throws {
        let (notes, audit, entry) = (try reviewStore.notes(of: heard.id), reviewStore.audit, try deskStore.entry(heard.id))
        for (account, relation) in [(ann, ArticleRelation.someoneElses), (dora, .readyForReview), (cora, .someoneElses)] {
            #expect(throws: NarrationError.reviewNotAllowed) {
                try completion.markCovered(by: [ChunkID("c1b")], of: punchedFirst, by: account, relation: relation, actor: .account(account))
            }
            #expect(throws: NarrationError.reviewNotAllowed) {
                try completion.markDone(1, of: punchedFirst, edit: 3, by: account, relation: relation, actor: .account(account))
            }
        }
        #expect(throws: NarrationError.reviewNotAllowed) { try completion.pickups(of: heard, for: dora, relation: .readyForReview) }
        #expect(throws: NarrationError.reviewNotAllowed) { try completion.pickups(of: heard, for: ann, relation: .someoneElses) }
        #expect(try completion.pickups(of: heard, for: cora, relation: .someoneElses).count == 2)
        #expect(try reviewStore.notes(of: heard.id) == notes && reviewStore.audit == audit && deskStore.entry(heard.id) == entry)
    }
}
