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

    @Test("the stand-in for the desk: the narrator's name is the account's, an empty one is open")
    func narratorRule() throws {
        let ann = try AccountName("ann")
        #expect(NarratorArticleAccess.relation(narrator: "ann", account: ann) == .assignedToThem)
        #expect(NarratorArticleAccess.relation(narrator: "bob", account: ann) == .someoneElses)
        #expect(NarratorArticleAccess.relation(narrator: "Ann", account: ann) == .someoneElses)
        #expect(NarratorArticleAccess.relation(narrator: "", account: ann) == .open)
    }
}
