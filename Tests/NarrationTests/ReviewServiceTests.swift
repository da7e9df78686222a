import Foundation
import Narration
import NarrationCore
import NarrationTestSupport
import Testing

/// Who may pin, list, send back, mark done and compare, for every role and relation to the
/// article: what `Permissions.may` allows and nothing more, each refusal one sentence that
/// writes nothing. And what changed, read from a real library after a real punch-and-roll.
@Suite("Review: who may do what, and what changed after a real punch")
struct ReviewServiceTests {
    static let relations: [ArticleRelation] = ArticleRelation.allCases

    static func account(_ role: Role, enabled: Bool = true) -> Account {
        Account(name: try! AccountName("someone"), role: role, isEnabled: enabled, hasPassphrase: true, createdAt: Date(timeIntervalSince1970: 0))
    }

    static let proofListener = account(.proofListener)
    static let volunteer = account(.volunteer)
    static let article = ReviewStoreContractTests.article()
    static let remark = ReviewNote.Content.remark(try! ReviewNoteText("hum", field: "remark", limit: 100))

    /// A service on a store with one note pinned and sent back, and one pinned since.
    static func service() throws -> (ReviewService, InMemoryReviewStore) {
        let store = InMemoryReviewStore()
        let service = ReviewService(store: store, clock: { utcMinute("2026-11-26 09:00") })
        _ = try service.pin(remark, paragraph: 1, seconds: 1, on: article, by: proofListener, relation: .readyForReview)
        _ = try service.sendBack(article, by: proofListener, relation: .readyForReview)
        _ = try service.pin(remark, paragraph: 2, seconds: 5, on: article, by: proofListener, relation: .readyForReview)
        return (service, store)
    }

    @Test("pinning and sending back: a proof-listener on an article ready for review, no one else", arguments: Role.allCases)
    func proofListenerOnly(role: Role) throws {
        for relation in Self.relations {
            for enabled in [true, false] {
                let (service, store) = try Self.service()
                let account = Self.account(role, enabled: enabled)
                let allowed = role == .proofListener && relation == .readyForReview && enabled
                let (notes, audit) = (try store.notes(of: Self.article.id), store.audit)
                if allowed {
                    _ = try service.pin(Self.remark, paragraph: 1, seconds: 2, on: Self.article, by: account, relation: relation)
                    #expect(try service.sendBack(Self.article, by: account, relation: relation).pickups.count == 2)
                } else {
                    #expect(throws: NarrationError.reviewNotAllowed, "\(role) \(relation)") {
                        try service.pin(Self.remark, paragraph: 1, seconds: 2, on: Self.article, by: account, relation: relation)
                    }
                    #expect(throws: NarrationError.reviewNotAllowed, "\(role) \(relation)") { try service.sendBack(Self.article, by: account, relation: relation) }
                    #expect(try store.notes(of: Self.article.id) == notes)
                    #expect(store.audit == audit)
                }
            }
        }
    }

    @Test("marking a pickup done: whoever records the article (its volunteer, or a coordinator on their own), no one else", arguments: Role.allCases)
    func recorderOnly(role: Role) throws {
        for relation in Self.relations {
            let (service, store) = try Self.service()
            let account = Self.account(role)
            let allowed = role != .proofListener && (relation == .assignedToThem || relation == .claimedByThem)
            let (notes, audit) = (try store.notes(of: Self.article.id), store.audit)
            let after = ReviewStoreContractTests.article(lastEdit: 3)
            if allowed {
                try service.markPickupDone(1, of: after, edit: 3, by: account, relation: relation)
                #expect(try store.notes(of: Self.article.id)[0].pickup == .done(edit: 3, by: account.name, at: utcMinute("2026-11-26 09:00")))
            } else {
                #expect(throws: NarrationError.reviewNotAllowed, "\(role) \(relation)") {
                    try service.markPickupDone(1, of: after, edit: 3, by: account, relation: relation)
                }
                #expect(try store.notes(of: Self.article.id) == notes)
                #expect(store.audit == audit)
            }
        }
    }

    @Test("listing, pickups, whether all are done and what changed: the proof-listener in review or the article's recorder", arguments: Role.allCases)
    func reading(role: Role) throws {
        let (service, _) = try Self.service()
        for relation in Self.relations {
            let account = Self.account(role)
            let allowed = (role == .proofListener && relation == .readyForReview)
                || (role != .proofListener && (relation == .assignedToThem || relation == .claimedByThem))
            if allowed {
                #expect(try service.notes(of: Self.article.id, for: account, relation: relation).count == 2)
                #expect(try service.pickups(of: Self.article, for: account, relation: relation).map(\.note.id) == [1])
                #expect(try !service.allPickupsDone(of: Self.article.id, for: account, relation: relation))
                #expect(try service.changesSinceSendBack(of: Self.article, for: account, relation: relation)?.changes == [])
            } else {
                #expect(throws: NarrationError.reviewNotAllowed) { try service.notes(of: Self.article.id, for: account, relation: relation) }
                #expect(throws: NarrationError.reviewNotAllowed) { try service.pickups(of: Self.article, for: account, relation: relation) }
                #expect(throws: NarrationError.reviewNotAllowed) { try service.allPickupsDone(of: Self.article.id, for: account, relation: relation) }
                #expect(throws: NarrationError.reviewNotAllowed) { try service.changesSinceSendBack(of: Self.article, for: account, relation: relation) }
            }
        }
    }

    @Test("a bad paragraph or time is refused by name and writes nothing")
    func badNumbers() throws {
        let (service, store) = try Self.service()
        let (notes, audit) = (try store.notes(of: Self.article.id), store.audit)
        #expect(throws: NarrationError.usage("There is no paragraph 0: the article's paragraphs are 1 to 2.")) {
            try service.pin(Self.remark, paragraph: 0, seconds: 1, on: Self.article, by: Self.proofListener, relation: .readyForReview)
        }
        for (seconds, shown) in [(-1.0, "-1"), (1e300, "1e+300"), (.nan, "nan"), (10.5, "10.5")] {
            #expect(throws: NarrationError.usage("A note's time must be a number of seconds from 0 to the article's length, 00:00:10.0 (10 s); \(shown) is not.")) {
                try service.pin(Self.remark, paragraph: 1, seconds: seconds, on: Self.article, by: Self.proofListener, relation: .readyForReview)
            }
        }
        #expect(try store.notes(of: Self.article.id) == notes)
        #expect(store.audit == audit)
    }

    @Test("in a real library: a note on paragraph 2 is a punch in its chunk; after the punch, the change is that chunk, punched, at its place")
    func realPunch() throws {
        let fixture = try LibraryFixture(sourceSeconds: 3)
        let library = fixture.library
        let article = try library.newArticle(title: "Harbour", publication: "", narrator: "", format: .speech)
        _ = try library.attachText(
            [ScriptParagraph(kind: .paragraph, text: "The harbour stayed closed."), ScriptParagraph(kind: .paragraph, text: "The storm passed.")],
            to: article, file: "text.txt")
        try fixture.record(article, seconds: 0.5)
        try fixture.record(article, seconds: 1)
        let service = ReviewService(store: library.reviewStore)
        let proofListener = Account(name: try AccountName("dora"), role: .proofListener, createdAt: Date())
        let volunteer = Account(name: try AccountName("ann"), role: .volunteer, createdAt: Date())

        let inReview = try library.reviewedArticle(article)
        #expect(inReview.paragraphCount == 2)
        #expect(inReview.seconds == 1.5)
        #expect(inReview.lastEdit > 0)
        _ = try service.pin(Self.remark, paragraph: 2, seconds: 0.75, on: inReview, by: proofListener, relation: .readyForReview)
        let sent = try service.sendBack(inReview, by: proofListener, relation: .readyForReview)
        #expect(sent.pickups.map(\.target) == [.punch(chunk: 2, seconds: 0.25)])
        #expect(inReview.chunks.allSatisfy { $0.checksum.map(ReviewChunk.isChecksum) == true })
        #expect(try library.reviewStore.latestSendBack(of: article.id)?.chunks == inReview.chunks)

        let take = try library.prepareRecording(
            into: article, placement: .append, punch: PunchRequest(index: ChunkIndex(position: 1), seconds: 0.25, preRollSeconds: 0), device: "vmic",
            duration: 0.5, definitions: fixture.devices.definitions)
        try take.start()
        _ = take.finish()
        let fixed = try library.reviewedArticle(article)
        #expect(fixed.lastEdit == inReview.lastEdit + 1)
        #expect(fixed.punches.map(\.edit) == [fixed.lastEdit])
        let changes = try #require(try service.changesSinceSendBack(of: fixed, for: volunteer, relation: .assignedToThem))
        #expect(changes.changes == [.init(kind: .punched, paragraph: 2, chunk: 2, start: 0.5, end: 1.25)])
        try service.markPickupDone(1, of: fixed, edit: fixed.lastEdit, by: volunteer, relation: .assignedToThem)
        #expect(try service.allPickupsDone(of: article.id, for: proofListener, relation: .readyForReview))
        #expect(try library.accountStore.auditLog(account: nil, since: nil).map(\.action) == [.reviewNotePinned, .reviewSentBack, .reviewPickupDone])
    }
}
