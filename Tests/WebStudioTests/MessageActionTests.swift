import Narration
import NarrationTestSupport
import NarrationCore
import Studio
import Testing
@testable import WebStudio

/// Each message from the page is one action for `Permissions.may`, taken at the most it can do.
@Suite("What the page's messages ask of the service")
struct MessageActionTests {
    @Test("keys that only move, play or explain are viewing, on the open article", arguments: [
        "up", "down", "left", "right", "home", "end", "pageUp", "pageDown", "escape", "space", "?", "+", "-", "[", "]", "o",
    ])
    func viewing(key: String) throws {
        let message = try PageMessage.decode(#"{"type":"key","key":"\#(key)"}"#)
        #expect(MessageAction.of(message) == MessageAction(action: .view, target: .open))
    }

    @Test("q and s send", arguments: ["q", "Q", "s", "S"])
    func sending(key: String) throws {
        let message = try PageMessage.decode(#"{"type":"key","key":"\#(key)"}"#)
        #expect(MessageAction.of(message) == MessageAction(action: .send, target: .open))
    }

    @Test("every other key may change the article: recording", arguments: [
        "r", "x", "delete", "e", "i", "u", "c", "a", "k", "m", "d", "y", "enter", "n", "p", "z",
    ])
    func recording(key: String) throws {
        let message = try PageMessage.decode(#"{"type":"key","key":"\#(key)"}"#)
        #expect(MessageAction.of(message) == MessageAction(action: .record, target: .open))
    }

    @Test("the other messages")
    func others() {
        #expect(MessageAction.of(.select(2)) == MessageAction(action: .view, target: .open))
        #expect(MessageAction.of(.selectChunk(ChunkID("c1"))) == MessageAction(action: .view, target: .open))
        #expect(MessageAction.of(.microphone(.browser)) == MessageAction(action: .record, target: .open))
        #expect(MessageAction.of(.punch(chunk: 1, seconds: 0.5)) == MessageAction(action: .record, target: .open))
        #expect(MessageAction.of(.preRoll(chunk: 1, seconds: 0.5, lead: 1)) == MessageAction(action: .record, target: .open))
        #expect(MessageAction.of(.newArticle) == MessageAction(action: .manageArticles, target: .none))
        #expect(MessageAction.of(.open("k3v9")) == MessageAction(action: .view, target: .named("k3v9")))
    }

    @Test("with Permissions: a volunteer records their own article only; a proof-listener changes none")
    func withPermissions() throws {
        let volunteer = Account(name: try AccountName("ann"), role: .volunteer, createdAt: .distantPast)
        let listener = Account(name: try AccountName("pat"), role: .proofListener, createdAt: .distantPast)
        let record = MessageAction.of(.key(.character("r"))).action
        #expect(Permissions.may(volunteer, record, .assignedToThem))
        #expect(!Permissions.may(volunteer, record, .someoneElses))
        #expect(!Permissions.may(listener, record, .readyForReview))
        #expect(!Permissions.may(volunteer, MessageAction.of(.newArticle).action, nil))
    }

    @Test("the desk answers who may open an article: assigned, claimed, open, in review, someone else's; off the desk nobody's; unknown is nil")
    func deskAnswers() throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        let admin = ServiceActor.commandLine(user: "test")
        let service = AccountService(store: library.accountStore)
        var accounts: [String: Account] = [:]
        for (name, role) in [("ann", Role.volunteer), ("bob", .volunteer), ("pat", .proofListener)] {
            _ = try service.add(try AccountName(name), role: role, by: "test")
            accounts[name] = try service.account(try AccountName(name))
        }
        let (ann, bob, pat) = (accounts["ann"]!, accounts["bob"]!, accounts["pat"]!)
        let desk = DeskService(store: library.deskStore)
        let entry = try desk.add(.init(title: "Council news", publication: "Daily Post"), by: admin) { (new) throws(NarrationError) in
            try library.makeDeskArticle(new, text: nil)
        }
        let access = DeskArticleAccess(library: library, desk: library.deskStore)
        #expect(try access.relation(of: ann, to: entry.article) == .open)
        try desk.assign(entry.article, to: ann, by: admin)
        #expect(try access.relation(of: ann, to: entry.article) == .assignedToThem)
        #expect(try access.relation(of: bob, to: entry.article) == .someoneElses)
        try desk.leaveOpen(entry.article, by: admin)
        try desk.claim(entry.article, by: .account(bob))
        #expect(try access.relation(of: bob, to: entry.article) == .claimedByThem)
        try desk.recordedTake(entry.article, by: .account(bob))
        try desk.send(entry.article, by: .account(bob))
        #expect(try access.relation(of: pat, to: entry.article) == .readyForReview)
        // An article made outside the desk (the personal studio's form) is nobody's to narrate.
        let personal = try library.newArticle(title: "Not on the desk", publication: "", narrator: "ann", format: .speech)
        #expect(try access.relation(of: ann, to: personal.id) == .someoneElses)
        #expect(try access.relation(of: ann, to: ArticleID("zzzzzzzz")) == nil)
    }
}
