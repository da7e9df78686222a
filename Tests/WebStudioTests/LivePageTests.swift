import Foundation
import Narration
import NarrationCore
import NarrationTestSupport
import Studio
import Testing
@testable import WebStudio

/// An article's studio page in a reading service, in process over a library in a temporary
/// folder: the page keeps the article while its account may still do what it came with, and
/// loses it (the next message ends the connection with the sentence) once the desk gives the
/// article to another account; the desk's change reaches the page's checks at once.
@Suite("An article's page and the desk")
struct LivePageTests {
    static let passphrase = "summer lantern over the weir"

    let folder = TemporaryFolder("narrate-live-page")
    let library: NarrationLibrary
    let accounts: AccountService
    let desk: DeskService
    let door: ServiceDoor

    init() throws {
        library = try NarrationLibrary(root: DataRoot(url: folder.url.appendingPathComponent("home")))
        accounts = AccountService(store: library.accountStore, hashing: .init(iterations: 1, memoryKiB: 64, lanes: 1))
        desk = DeskService(store: library.deskStore)
        door = ServiceDoor(
            accounts: accounts, articleAccess: DeskArticleAccess(library: library, desk: library.deskStore), proxy: .none, hosts: .loopback,
            sessionPolicy: SessionPolicy(), sessionCheckInterval: .seconds(2))
        for (name, role) in [("cora", Role.coordinator), ("ann", .volunteer), ("ben", .volunteer)] {
            let invitation = try accounts.add(try AccountName(name), role: role, by: "test")
            try accounts.acceptInvitation(account: name, token: invitation.token, passphrase: Self.passphrase)
        }
    }

    func account(_ name: String) throws -> Account { try accounts.account(try AccountName(name)) }

    /// An article given to ann, its studio, and ann's page on it.
    func annsPage() async throws -> (entry: DeskEntry, host: StudioHost, page: LivePage) {
        let library = self.library
        let cora = try account("cora")
        let entry = try desk.add(.init(title: "Budget vote", publication: "Daily Post"), by: .account(cora)) { (new) throws(NarrationError) in
            try library.makeDeskArticle(new, text: nil)
        }
        try desk.assign(entry.article, to: try account("ann"), by: .account(cora))
        let options = Studio.Options(
            captureDevice: "memory microphone", playbackDevice: "memory speaker", profile: .archive, destination: nil,
            retry: RetrySchedule(attempts: 1, first: 0, limit: 0), publication: "Daily Post", narrator: "Ann Reader", format: .speech,
            checksTakes: false)
        let host = StudioHost(
            library: library, options: options, article: try library.article(entry.article.rawValue), settings: [], isArticleStudio: true)
        while host.article == nil { try await Task.sleep(for: .milliseconds(10)) }  // the studio's thread has opened it
        let session = try accounts.signIn(account: "ann", passphrase: Self.passphrase, address: "127.0.0.1")
        let page = LivePage(
            host: host, door: door, signedIn: SignedInRequest(account: session.account, token: session.token, secure: false),
            studioOf: (entry.article, .record))
        return (entry, host, page)
    }

    @Test("ann's page on her article: allowed; given to ben, the page's check and its next message end it with the sentence")
    func reassigned() async throws {
        let cora = try account("cora")
        let (entry, host, page) = try await annsPage()
        let rooms = StudioRooms(idleClose: .seconds(120)) { _ in host }
        rooms.watch(page, on: entry.article)

        #expect(await page.closingReason() == nil)
        #expect(await page.authorise(.key(.character("r"))) == .allowed)

        try desk.assign(entry.article, to: try account("ben"), by: .account(cora))
        rooms.accessChanged(entry.article)
        var checks = page.checks.makeAsyncIterator()
        #expect(await checks.next() != nil)  // told at once, not at the next interval
        #expect(await page.closingReason() == LivePage.noLongerYours)
        #expect(await page.authorise(.key(.character("r"))) == .sessionEnded(LivePage.noLongerYours))
        #expect(LivePage.noLongerYours.utf8.count <= 123)  // a WebSocket close reason's limit
        rooms.forget(page, on: entry.article)
        await host.shutDown()
    }

    @Test("after ann's own send (Ready for review) her page stays to show what came of it, and a take is refused")
    func ownSend() async throws {
        let (entry, host, page) = try await annsPage()
        let ann = try account("ann")
        _ = try desk.recordedTake(entry.article, by: .account(ann))
        _ = try desk.send(entry.article, by: .account(ann))
        #expect(await page.closingReason() == nil)
        #expect(await page.authorise(.key(.character("r"))) == .refused(ServiceDoor.notAllowedArticle))
        #expect(await page.closingReason() == nil)
        await host.shutDown()
    }
}
