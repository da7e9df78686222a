import Foundation
import NarrationCore
import Studio
import Testing
@testable import WebStudio

/// The state the page draws from, as JSON: the names the page reads, rounded numbers, the
/// remedy in the page's words.
@Suite("The page's state")
struct PageStateTests {
    private func decoded(_ state: StudioState, microphone: Studio.Microphone = .device, chunkIDs: [ChunkID] = []) throws -> [String: Any] {
        let page = PageState(
            state, article: ArticleID("abc123"), chunkIDs: chunkIDs, microphone: microphone, deviceName: "usbmic", format: .speech, audioVersion: "v1",
            canSend: false)
        let message = try #require(try JSONSerialization.jsonObject(with: Data(page.message().utf8)) as? [String: Any])
        #expect(message["type"] as? String == "state")
        return try #require(message["state"] as? [String: Any])
    }

    @Test("each chunk carries its id, what the page names it by")
    func chunkIDs() throws {
        let state = StudioState(
            header: .init(title: "Budget", publication: "Gazette", narrator: "Ann", state: .open, duration: 2, chunkCount: 2),
            chunks: [
                .init(index: ChunkIndex(position: 0), duration: 1, peak: Decibels(-3)),
                .init(index: ChunkIndex(position: 1), duration: 1, peak: Decibels(-3)),
            ])
        let chunks = try #require(try decoded(state, chunkIDs: [ChunkID("c1"), ChunkID("c2")])["chunks"] as? [[String: Any]])
        #expect(chunks.map { $0["id"] as? String } == ["c1", "c2"])
    }

    @Test("a take over chunk 2 being recorded, with its meter, chunks and reading pane")
    func recording() throws {
        var state = StudioState(
            header: .init(title: "Budget", publication: "Gazette", narrator: "Ann", state: .open, duration: 12.3456, chunkCount: 2),
            chunks: [
                .init(index: ChunkIndex(position: 0), duration: 5.55555, peak: Decibels(-3.21), levels: [Decibels(-20), .silence]),
                .init(index: ChunkIndex(position: 1), duration: 6.79, peak: Decibels(-1)),
            ])
        state.chunks[0].paragraph = 1
        state.chunks[0].paragraphText = "The council met."
        state.activity = .recording(seconds: 1.234, placement: .replace(ChunkIndex(position: 1)))
        state.reading = .init(number: 2, count: 5, kind: .paragraph, text: "It voted.", isRead: true, standing: .reading, next: "Then it rose.")
        state.notice = .init("No destination to submit to.", isProblem: true, remedy: .setDestination)
        let page = try decoded(state, microphone: .browser)
        #expect((page["header"] as? [String: Any])?["duration"] as? Double == 12.35)
        #expect((page["header"] as? [String: Any])?["id"] as? String == "abc123")
        let activity = try #require(page["activity"] as? [String: Any])
        #expect(activity["kind"] as? String == "recording")
        #expect(activity["where"] as? String == "over chunk 2")
        #expect(activity["seconds"] as? Double == 1.23)
        let chunks = try #require(page["chunks"] as? [[String: Any]])
        #expect(chunks.map { $0["number"] as? Int } == [1, 2])
        #expect(chunks[0]["levels"] as? [Double] == [-20, -90])
        #expect(chunks[0]["paragraphText"] as? String == "The council met.")
        #expect(chunks[0]["duration"] as? Double == 5.5556)
        let reading = try #require(page["reading"] as? [String: Any])
        #expect(reading["standing"] as? String == "reading")
        #expect(reading["next"] as? String == "Then it rose.")
        let notice = try #require(page["notice"] as? [String: Any])
        #expect(notice["text"] as? String == "No destination to submit to. Ask your reading service to set where files are sent; until then, Queue keeps it in the outbox.")
        #expect(page["microphone"] as? String == "browser")
        #expect((page["format"] as? [String: Int]) == ["sampleRate": 44_100, "channels": 1])
    }

    @Test("the delete confirmation and the queue result are panels the page shows")
    func panels() throws {
        var state = StudioState(panel: .confirmDelete(ChunkIndex(position: 2)))
        let confirm = try #require(try decoded(state)["panel"] as? [String: Any])
        #expect(confirm["kind"] as? String == "confirmDelete")
        #expect(confirm["chunk"] as? Int == 3)
        state.panel = .result(heading: "Queued \"Budget\"", lines: ["In the outbox: /x.mp3"], remedy: .pushOutboxTo)
        let panel = try #require(try decoded(state)["panel"] as? [String: Any])
        #expect(panel["lines"] as? [String] == ["In the outbox: /x.mp3"])
        #expect(panel["remedy"] as? String == "It waits in the outbox until your reading service collects it or sets where files are sent.")
    }

    @Test("a pre-roll, flagged takes and the article list are in the page's state, with the words both studios say")
    func preRollFlagsAndList() throws {
        var state = StudioState(
            header: .init(title: "Budget", publication: "Gazette", narrator: "Ann", state: .open, duration: 5, chunkCount: 1),
            chunks: [.init(index: ChunkIndex(1), duration: 5, peak: Decibels(-3))])
        state.chunks[0].hints = ["at 4.2 s: not heard: “the council”"]
        state.activity = .preRoll(.init(chunk: ChunkIndex(1), at: 2.345, lead: 2.345, words: "the council…"))
        state.reading = .init(number: 1, count: 2, kind: .paragraph, text: "The council met.", isRead: true, standing: .fixing, next: nil)
        state.reading?.flags = [.init(chunk: ChunkIndex(1), hint: "at 4.2 s: not heard: “the council”")]
        var page = try decoded(state)
        let activity = try #require(page["activity"] as? [String: Any])
        #expect(activity["kind"] as? String == "preRoll" && activity["chunk"] as? Int == 1 && activity["seconds"] as? Double == 2.35)
        #expect(activity["text"] as? String == "Playing the 2.3 s before the slip in chunk 1, then read on from “the council…”.")
        let reading = try #require(page["reading"] as? [String: Any])
        #expect(reading["standing"] as? String == "fixing")
        #expect((reading["flags"] as? [[String: Any]])?.first?["hint"] as? String == "at 4.2 s: not heard: “the council”")
        #expect((page["chunks"] as? [[String: Any]])?.first?["hints"] as? [String] == ["at 4.2 s: not heard: “the council”"])
        state.panel = .articles(ArticleList(
            rows: [.init(id: ArticleID("k3v9"), title: "Budget", publication: "Gazette", state: .queued, paragraphs: 2, paragraphsRead: 1,
                         chunkCount: 1, seconds: 5, lastChange: Date(timeIntervalSince1970: 1_800_000_000))],
            openArticle: ArticleID("k3v9")))
        page = try decoded(state)
        let panel = try #require(page["panel"] as? [String: Any])
        #expect(panel["kind"] as? String == "articles" && panel["openArticle"] as? String == "k3v9" && panel["selection"] as? Int == 0)
        let row = try #require((panel["articles"] as? [[String: Any]])?.first)
        #expect(row["id"] as? String == "k3v9" && row["state"] as? String == "queued" && row["progress"] as? String == "1 of 2 paragraphs read")
        #expect(row["lastChange"] as? Double == 1_800_000_000 && row["canOpen"] as? Bool == true && row["duration"] as? Double == 5)
    }

    @Test("each chunk lists the restarts proposed to cut from it, by their numbers in its check; hearing one on the terminal is ready to the page, and the cuts list is the chunk list")
    func cuts() throws {
        var state = StudioState(
            header: .init(title: "Budget", publication: "Gazette", narrator: "Ann", state: .open, duration: 6, chunkCount: 2),
            chunks: [
                .init(index: ChunkIndex(position: 0), duration: 3, peak: Decibels(-3)),
                .init(index: ChunkIndex(position: 1), duration: 3, peak: Decibels(-3)),
            ])
        let cut = StudioState.Cut(
            take: ChunkID("c2"), chunk: ChunkIndex(position: 1), paragraph: 1, number: 2,
            sentence: "at 1.5 s: “the bud” broken off and begun again (“sorry” between): cut 1.50–2.25 s", start: 1.5, end: 2.25)
        state.cuts = [cut]
        state.chunks[1].cuts = 1
        state.activity = .listening(cut, asCut: true)
        state.panel = .cuts(selection: 0)
        let page = try decoded(state, chunkIDs: [ChunkID("c1"), ChunkID("c2")])
        let chunks = try #require(page["chunks"] as? [[String: Any]])
        #expect((chunks[0]["cuts"] as? [Any])?.isEmpty == true)
        let cuts = try #require(chunks[1]["cuts"] as? [[String: Any]])
        #expect(cuts.count == 1)
        #expect(cuts[0]["cut"] as? Int == 2)
        #expect(cuts[0]["text"] as? String == "at 1.5 s: “the bud” broken off and begun again (“sorry” between): cut 1.50–2.25 s")
        #expect(cuts[0]["start"] as? Double == 1.5 && cuts[0]["end"] as? Double == 2.25)
        #expect((page["activity"] as? [String: Any])?["kind"] as? String == "ready")
        #expect((page["panel"] as? [String: Any])?["kind"] as? String == "chunks")
    }
}

