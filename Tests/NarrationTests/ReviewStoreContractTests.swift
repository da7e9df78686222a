import Foundation
import GRDB
import Narration
import NarrationCore
import NarrationTestSupport
import Testing

/// Review on both stores, the catalog and the in-memory stand-in: the same notes, send-backs
/// and pickups back, the same refusals, the same audit lines, nothing written by a refusal.
@Suite("Review notes and send-backs on every ReviewStore")
struct ReviewStoreContractTests {
    enum Kind: String, CaseIterable { case catalog, postgreSQL, memory }

    /// A review service on a store of `kind`, its clock, the audit log it writes, and the folder
    /// that keeps a catalog alive.
    struct Fixture {
        let review: ReviewService
        let clock: HandClock
        let folder: TemporaryFolder
        let catalogPath: String
        let audit: () throws -> [AuditEntry]

        init(_ kind: Kind) throws {
            folder = TemporaryFolder("narrate-review-store")
            clock = HandClock(utcMinute("2026-11-26 09:00"))
            catalogPath = folder.file("catalog.sqlite").path
            switch kind {
            case .catalog, .postgreSQL:
                let catalog = kind == .catalog ? try TestCatalogs.sqlite(folder) : try TestCatalogs.postgreSQL(folder)
                review = ReviewService(store: catalog, clock: clock.function)
                audit = { try catalog.auditLog(account: nil, since: nil) }
            case .memory:
                let memory = InMemoryReviewStore()
                review = ReviewService(store: memory, clock: clock.function)
                audit = { memory.audit }
            }
        }
    }

    static let dora = Account(name: try! AccountName("dora"), role: .proofListener, hasPassphrase: true, createdAt: Date(timeIntervalSince1970: 0))
    static let ann = Account(name: try! AccountName("ann"), role: .volunteer, hasPassphrase: true, createdAt: Date(timeIntervalSince1970: 0))

    /// An article of two paragraphs at 1000 frames a second: chunk 1 (0–4 s) reads paragraph 1,
    /// chunk 2 (4–10 s) paragraph 2.
    static func article(chunks: [ReviewChunk] = [
        ReviewChunk(id: ChunkID("c1"), frames: 4_000, paragraph: ParagraphID("p1")), ReviewChunk(id: ChunkID("c2"), frames: 6_000, paragraph: ParagraphID("p2")),
    ], lastEdit: Int = 2, standingEdits: [Int]? = nil) -> ReviewedArticle {
        ReviewedArticle(
            id: ArticleID("k3f9x2ab"), sampleRate: 1_000, paragraphCount: 2, paragraphNumbers: [ParagraphID("p1"): 1, ParagraphID("p2"): 2],
            chunks: chunks, lastEdit: lastEdit, standingEdits: standingEdits ?? Array(1...lastEdit), punches: [])
    }

    static func text(_ text: String) -> ReviewNoteText { try! ReviewNoteText(text, field: "remark", limit: 1_000) }

    @Test("notes come back as pinned; a send-back makes them its pickups with their targets; marking one done keeps it, done", arguments: Kind.allCases)
    func lifeOfANote(kind: Kind) throws {
        let fixture = try Fixture(kind)
        let article = Self.article()
        let slip = ReviewNote.Content.saidShouldBe(said: Self.text("there"), shouldBe: Self.text("their"))
        let first = try fixture.review.pin(slip, paragraph: 2, seconds: 5.25, on: article, by: Self.dora, relation: .readyForReview)
        fixture.clock.advance(60)
        let second = try fixture.review.pin(.remark(Self.text("a door slams")), paragraph: 1, seconds: 9, on: article, by: Self.dora, relation: .readyForReview)
        #expect([first.id, second.id] == [1, 2])
        let pinnedAt = utcMinute("2026-11-26 09:00")
        #expect(try fixture.review.notes(of: article.id, for: Self.dora, relation: .readyForReview) == [
            ReviewNote(id: 1, article: article.id, paragraph: 2, milliseconds: 5_250, content: slip, author: Self.dora.name, createdAt: pinnedAt),
            ReviewNote(id: 2, article: article.id, paragraph: 1, milliseconds: 9_000, content: .remark(Self.text("a door slams")), author: Self.dora.name, createdAt: pinnedAt + 60),
        ])

        fixture.clock.advance(60)
        let sent = try fixture.review.sendBack(article, by: Self.dora, relation: .readyForReview)
        #expect(sent.sendBack == ReviewSendBack(id: 1, article: article.id, by: Self.dora.name, at: pinnedAt + 120, lastEdit: 2, chunks: article.chunks))
        #expect(sent.pickups.map(\.target) == [.punch(chunk: 2, seconds: 1.25), .reread(paragraph: 1)])
        #expect(sent.pickups.map(\.note.sendBack) == [1, 1])
        #expect(try fixture.review.store.latestSendBack(of: article.id) == sent.sendBack)
        #expect(try !fixture.review.allPickupsDone(of: article.id, for: Self.ann, relation: .assignedToThem))

        let after = Self.article(lastEdit: 4)
        fixture.clock.advance(60)
        try fixture.review.markPickupDone(1, of: after, edit: 3, by: Self.ann, relation: .assignedToThem)
        try fixture.review.markPickupDone(2, of: after, edit: 4, by: Self.ann, relation: .assignedToThem)
        #expect(try fixture.review.allPickupsDone(of: article.id, for: Self.dora, relation: .readyForReview))
        let notes = try fixture.review.notes(of: article.id, for: Self.ann, relation: .assignedToThem)
        #expect(notes.map(\.pickup) == [.done(edit: 3, by: Self.ann.name, at: pinnedAt + 180), .done(edit: 4, by: Self.ann.name, at: pinnedAt + 180)])

        #expect(try fixture.audit().map(\.action) == [.reviewNotePinned, .reviewNotePinned, .reviewSentBack, .reviewPickupDone, .reviewPickupDone])
        #expect(try fixture.audit().map(\.detail) == [
            "article k3f9x2ab, paragraph 2 at 5.25 s: said \"there\", should be \"their\"", "article k3f9x2ab, paragraph 1 at 9 s: a door slams",
            "article k3f9x2ab, 2 pickups: notes 1, 2", "article k3f9x2ab, note 1 by edit 3", "article k3f9x2ab, note 2 by edit 4",
        ])
        #expect(try fixture.audit().map(\.actor) == ["dora", "dora", "dora", "ann", "ann"])
    }

    @Test("refusals write nothing: a send-back with no new note, a pickup done twice, of another article or before any send-back", arguments: Kind.allCases)
    func refusals(kind: Kind) throws {
        let fixture = try Fixture(kind)
        let article = Self.article()
        #expect(throws: NarrationError.noNotesToSendBack) { try fixture.review.sendBack(article, by: Self.dora, relation: .readyForReview) }
        _ = try fixture.review.pin(.remark(Self.text("hum")), paragraph: 1, seconds: 1, on: article, by: Self.dora, relation: .readyForReview)
        #expect(throws: NarrationError.noOpenPickup(1)) { try fixture.review.markPickupDone(1, of: Self.article(lastEdit: 3), edit: 3, by: Self.ann, relation: .assignedToThem) }
        _ = try fixture.review.sendBack(article, by: Self.dora, relation: .readyForReview)
        #expect(throws: NarrationError.noNotesToSendBack) { try fixture.review.sendBack(article, by: Self.dora, relation: .readyForReview) }
        let after = Self.article(lastEdit: 3)
        #expect(throws: NarrationError.noSuchEdit(2)) { try fixture.review.markPickupDone(1, of: after, edit: 2, by: Self.ann, relation: .assignedToThem) }
        #expect(throws: NarrationError.noSuchEdit(4)) { try fixture.review.markPickupDone(1, of: after, edit: 4, by: Self.ann, relation: .assignedToThem) }
        // An edit of another article, or one undone, between the send-back and the last edit.
        #expect(throws: NarrationError.noSuchEdit(4)) {
            try fixture.review.markPickupDone(1, of: Self.article(lastEdit: 5, standingEdits: [1, 2, 3, 5]), edit: 4, by: Self.ann, relation: .assignedToThem)
        }
        #expect(throws: NarrationError.noOpenPickup(9)) { try fixture.review.markPickupDone(9, of: after, edit: 3, by: Self.ann, relation: .assignedToThem) }
        try fixture.review.markPickupDone(1, of: after, edit: 3, by: Self.ann, relation: .assignedToThem)
        let notes = try fixture.review.store.notes(of: article.id)
        let audit = try fixture.audit()
        #expect(throws: NarrationError.noOpenPickup(1)) { try fixture.review.markPickupDone(1, of: after, edit: 3, by: Self.ann, relation: .assignedToThem) }
        let other = ReviewedArticle(
            id: ArticleID("zzzz9999"), sampleRate: 1_000, paragraphCount: 2, paragraphNumbers: [:], chunks: [], lastEdit: 9, standingEdits: [9], punches: [])
        #expect(throws: NarrationError.noOpenPickup(1)) { try fixture.review.markPickupDone(1, of: other, edit: 9, by: Self.ann, relation: .assignedToThem) }
        #expect(try fixture.review.store.notes(of: article.id) == notes)
        #expect(try fixture.audit() == audit)
        #expect(audit.count == 3)
    }

    @Test("the catalog refuses to delete a note or to change or delete a send-back, even from outside narrate")
    func neverDeleted() throws {
        let fixture = try Fixture(.catalog)
        _ = try fixture.review.pin(.remark(Self.text("hum")), paragraph: 1, seconds: 1, on: Self.article(), by: Self.dora, relation: .readyForReview)
        _ = try fixture.review.sendBack(Self.article(), by: Self.dora, relation: .readyForReview)
        let queue = try DatabaseQueue(path: fixture.catalogPath)
        for (statement, message) in [
            ("DELETE FROM review_note", "review notes are never deleted"), ("DELETE FROM review_send_back", "a send-back is never changed"),
            ("UPDATE review_send_back SET chunks = '[]'", "a send-back is never changed"),
        ] {
            do {
                try queue.write { db in try db.execute(sql: statement) }
                Issue.record("\(statement) was carried out")
            } catch let error as DatabaseError {
                #expect(error.message == message, "\(statement)")
            }
        }
        #expect(try fixture.review.store.notes(of: Self.article().id).count == 1)
        #expect(try fixture.review.store.latestSendBack(of: Self.article().id)?.chunks == Self.article().chunks)
    }

    @Test("a note planted with values narrate never writes is refused as one sentence, never a trap", arguments: [
        "'k3f9x2ab', 1, 'soon', 'remark', NULL, NULL, 'x', 'dora', 0",
        "'k3f9x2ab', 1, 10, 'remark', NULL, NULL, NULL, 'dora', 0",
        "'k3f9x2ab', 1, 10, 'said-should-be', 'a', NULL, NULL, 'dora', 0",
        "'k3f9x2ab', 1, 10, 'remark', NULL, NULL, 'x\u{7}', 'dora', 0",
        "'k3f9x2ab', 1, 10, 'remark', NULL, NULL, 'x', 'no such name!', 0",
        "'k3f9x2ab', 1, 10, 'remark', NULL, NULL, x'00ff', 'dora', 0",
    ])
    func plantedNotes(values: String) throws {
        let fixture = try Fixture(.catalog)
        let queue = try DatabaseQueue(path: fixture.catalogPath)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO review_note (article_id, paragraph, milliseconds, kind, said, should_be, remark, author, created_at) VALUES (\(values))")
        }
        do {
            _ = try fixture.review.store.notes(of: Self.article().id)
            Issue.record("the planted note was read")
        } catch {
            #expect(error.kind == .catalogCorrupt)
            #expect(error.message.hasPrefix("The catalog holds a review note narrate never writes ("))
            #expect(error.message.hasSuffix("No recording was changed; move the catalog aside to start a new one, the chunk files stay under the articles folder."))
        }
    }

    @Test("a send-back planted with a chunk list narrate never writes is refused as one sentence, never a trap", arguments: [
        "'[{\"id\":\"c1\",\"frames\":10,\"checksum\":\"XYZ\"}]'", "'[{\"id\":\"c1\",\"frames\":-1}]'", "'[{\"id\":\"../x\",\"frames\":1}]'",
        "'not json'", "'[{\"id\":\"c1\",\"frames\":1e300}]'", "x'00ff'",
    ])
    func plantedSendBacks(chunks: String) throws {
        let fixture = try Fixture(.catalog)
        let queue = try DatabaseQueue(path: fixture.catalogPath)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO review_send_back (article_id, sent_by, at, last_edit, chunks) VALUES ('k3f9x2ab', 'dora', 0, 0, \(chunks))")
        }
        do {
            _ = try fixture.review.store.latestSendBack(of: Self.article().id)
            Issue.record("the planted send-back was read")
        } catch {
            #expect(error.kind == .catalogCorrupt)
            #expect(error.message.hasPrefix("The catalog holds a send-back narrate never writes ("))
        }
    }
}
