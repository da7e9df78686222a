import Foundation
import Narration
import NarrationCore
import NarrationTestSupport
import Studio
import Testing
@testable import WebStudio

/// A reading service's studios, one per article, in process over a library in a temporary
/// folder: pages of one article share its studio, other articles get their own, at most
/// `StudioRooms.limit` are open, and a studio without pages is closed after its idle time.
@Suite("A studio per article")
struct StudioRoomsTests {
    let folder = TemporaryFolder("narrate-rooms")
    let library: NarrationLibrary
    let options: Studio.Options

    init() throws {
        library = try NarrationLibrary(root: DataRoot(url: folder.url.appendingPathComponent("home")))
        options = Studio.Options(
            captureDevice: "memory microphone", playbackDevice: "memory speaker", profile: .archive, destination: nil,
            retry: RetrySchedule(attempts: 1, first: 0, limit: 0), publication: "Daily Post", narrator: "Ann Reader", format: .speech,
            checksTakes: false)
    }

    func rooms(idleClose: Duration = .seconds(120)) -> StudioRooms {
        let (library, options) = (library, options)
        return StudioRooms(idleClose: idleClose) { article in
            StudioHost(library: library, options: options, article: article, settings: [], isArticleStudio: true)
        }
    }

    func article(_ title: String) throws -> Article {
        try library.newArticle(title: title, publication: "Daily Post", narrator: "Ann Reader", format: .speech)
    }

    @Test("pages of one article share its studio; another article has its own, with only its article open")
    func sharing() async throws {
        let rooms = rooms()
        let (budget, harbour) = (try article("Budget vote"), try article("Harbour lights"))
        let first = try #require(rooms.enter(budget))
        let second = try #require(rooms.enter(budget))
        let other = try #require(rooms.enter(harbour))
        #expect(first === second && first !== other)
        #expect(rooms.openArticles == [budget.id, harbour.id])
        #expect(first.article?.id == budget.id || first.article == nil)  // published once the studio's thread has started
        await rooms.shutDown()
        #expect(rooms.openArticles.isEmpty)
        #expect(first.article?.id == budget.id && other.article?.id == harbour.id)
    }

    @Test("a studio stays while a page has it, and closes only after its idle time without pages; then a new one opens")
    func idleClose() async throws {
        let rooms = rooms(idleClose: .seconds(60))
        let budget = try article("Budget vote")
        let first = try #require(rooms.enter(budget))
        _ = rooms.enter(budget)
        rooms.leave(budget.id)
        #expect(await rooms.closeIdle(now: .now + .seconds(3600)).isEmpty)  // one page still has it
        rooms.leave(budget.id)
        #expect(await rooms.closeIdle(now: .now + .seconds(30)).isEmpty)
        #expect(await rooms.closeIdle(now: .now + .seconds(61)) == [budget.id])
        #expect(rooms.openArticles.isEmpty)
        let again = try #require(rooms.enter(budget))
        #expect(again !== first)
        await rooms.shutDown()
    }

    @Test("at most the limit of studios are open; the next article waits until one closes")
    func limit() async throws {
        let rooms = rooms(idleClose: .zero)
        var articles: [Article] = []
        for number in 1...StudioRooms.limit { articles.append(try article("Article \(number)")) }
        for article in articles { #expect(rooms.enter(article) != nil) }
        let extra = try article("One too many")
        #expect(rooms.enter(extra) == nil)
        #expect(rooms.enter(articles[0]) != nil)  // an open one still takes more pages
        rooms.leave(articles[1].id)
        #expect(await rooms.closeIdle() == [articles[1].id])
        #expect(rooms.enter(extra) != nil)
        #expect(StudioRooms.full.utf8.count <= 123 && StudioRooms.notYours.utf8.count <= 123)  // WebSocket close reasons
        await rooms.shutDown()
    }

    @Test("an article's studio opens no other article, makes none, and takes no booth microphone")
    func refusals() {
        #expect(StudioHost.articleStudioRefusal(.open("k3f9x2ab")) == "This studio is for one article: open another from your home page.")
        #expect(StudioHost.articleStudioRefusal(.newArticle) == "This studio is for one article: open another from your home page.")
        #expect(
            StudioHost.articleStudioRefusal(.microphone(.device))
                == "In the reading service takes come from this computer's microphone: the booth microphone is the personal studio's.")
        #expect(StudioHost.articleStudioRefusal(.microphone(.browser)) == nil)
        #expect(StudioHost.articleStudioRefusal(.key(.character("r"), chunk: nil)) == nil)
    }
}
