import Foundation
import Hummingbird
import HummingbirdTesting
@testable import Narration
import NarrationCore
import NarrationTestSupport
import Studio
import Testing
@testable import WebStudio

/// The take check's cuts and flags on the review page, in process through Hummingbird's router
/// over a real library: the reading lists each paragraph's open cuts and flags; a proof-listener
/// hears a cut as read and as cut, accepts one (the take shorter by exactly its frames, one edit
/// in the history, audited) and leaves another (audited); volunteers, coordinators, a stale cut,
/// a take gone, an article being recorded into and an article not in review are refused with one
/// sentence and nothing changes. The takes' checks are stored as the check would store them
/// (`storeTakeCheck`), on real recorded takes whose frames are known: 0.5 s (22,050 frames) for
/// the heading and 1 s (44,100) for the paragraph.
@Suite("The review page's cuts and flags")
struct ReviewCutRoutesTests {
    typealias Answer = DeskRoutesTests.Answer
    static let rate = 44_100

    let fixture: LibraryFixture
    let accounts: AccountService
    let desk: DeskService
    let router = Router(context: StudioRequestContext.self)
    /// Ready for review: the heading read by a take of 0.5 s, the paragraph by one of 1 s.
    let ready: ArticleID
    /// Still Recording, with the same takes and checks.
    let recording: ArticleID

    /// The paragraph's restart: 0.2–0.5 s of its take (13,230 frames).
    static let restart = ProposedCut(kind: .restart, words: "the storm", aside: "", startFrame: 8_820, endFrame: 22_050, sampleRate: rate)
    /// The paragraph's false start: 0.7–0.8 s of its take (4,410 frames).
    static let falseStart = ProposedCut(kind: .falseStart, words: "passed", aside: "sorry", startFrame: 30_870, endFrame: 35_280, sampleRate: rate)

    init() throws {
        fixture = try LibraryFixture(sourceSeconds: 3)
        let library = fixture.library
        accounts = AccountService(store: library.accountStore, hashing: .init(iterations: 1, memoryKiB: 64, lanes: 1))
        desk = DeskService(store: library.deskStore)
        let door = ServiceDoor(
            accounts: accounts, articleAccess: DeskArticleAccess(library: library, desk: library.deskStore), proxy: .none, hosts: .loopback,
            sessionPolicy: SessionPolicy(), sessionCheckInterval: .seconds(2))
        let options = Studio.Options(
            captureDevice: "vmic", playbackDevice: "vspeaker", profile: .archive, destination: nil,
            retry: RetrySchedule(attempts: 1, first: 0, limit: 0), publication: "Gazette", narrator: "Ann", format: .speech, checksTakes: false)
        WebStudioServer.addService(to: router, door: door, scheme: "http")
        ReviewRoutes(door: door, desk: desk, library: library, activity: nil, options: options).add(to: router)
        for (name, role) in [("cora", Role.coordinator), ("ann", .volunteer), ("vic", .volunteer), ("pat", .proofListener)] {
            let invitation = try accounts.add(try AccountName(name), role: role, by: "test")
            try accounts.acceptInvitation(account: name, token: invitation.token, passphrase: DeskRoutesTests.passphrase)
        }
        ready = try ReviewRoutesTests.article("Harbour", takes: [0.5, 1], send: true, fixture: fixture, desk: desk, accounts: accounts)
        recording = try ReviewRoutesTests.article("Storm", takes: [0.5, 1], send: false, fixture: fixture, desk: desk, accounts: accounts)
        for id in [ready, recording] {
            let chunks = try library.catalog.chunks(of: try library.article(id.rawValue))
            #expect(chunks.map(\.frames) == [22_050, 44_100])
            let heading = TakeCheckReport(
                hints: [TakeHint(.unheard, words: "harbour", seconds: 0.1)], sentenceCues: [], rate: SpeakingRate(words: 4, speechSeconds: 0.5),
                recognised: true)
            let paragraph = TakeCheckReport(
                hints: [TakeHint(.notInText, words: "oh no wait", seconds: 0.6)], cuts: [Self.restart, Self.falseStart], sentenceCues: [],
                rate: SpeakingRate(words: 3, speechSeconds: 1), recognised: true)
            #expect(try library.catalog.storeTakeCheck(heading, for: chunks[0].id))
            #expect(try library.catalog.storeTakeCheck(paragraph, for: chunks[1].id))
        }
    }

    func article(_ id: ArticleID) throws -> Article { try fixture.library.article(id.rawValue) }

    /// The ids of the article's takes, in order.
    func takes(_ id: ArticleID) throws -> [String] { try Self.takes(fixture.library, try article(id)) }

    static func takes(_ library: NarrationLibrary, _ article: Article) throws -> [String] {
        try library.catalog.chunks(of: article).map(\.id.rawValue)
    }

    /// Everything a refusal must leave as it was: the takes (ids, frames, file bytes), their
    /// checks, the history, the desk and the audit log.
    func snapshot() throws -> String {
        let library = fixture.library
        var parts: [String] = []
        for id in [ready, recording] {
            let article = try article(id)
            for entry in try library.chunkEntries(of: article) {
                parts.append("\(entry.chunk.id):\(entry.chunk.frames):\(try Checksum.sha256(of: entry.file))")
            }
            let checks = try library.catalog.takeChecks(of: id)
            parts.append(checks.keys.map(\.rawValue).sorted().map { "\($0)=\(checks[ChunkID($0)].map { "\($0.openCuts.map(\.number))" } ?? "")" }.joined(separator: ","))
            parts.append("\(try library.records.history(of: id).map { $0.number })")
        }
        parts.append("\(try library.deskStore.entries(DeskFilter()).map { "\($0)" })")
        parts.append("\(try library.deskStore.auditLog(account: nil, since: nil).count)")
        return parts.joined(separator: "|")
    }

    static func send(_ client: some TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, cookie: String?, json: String? = nil) async throws -> Answer {
        try await DeskRoutesTests.send(client, method, uri, cookie: cookie, json: json)
    }

    /// A WAV route's answer: its status, content type and bytes.
    static func wave(_ client: some TestClientProtocol, _ uri: String, cookie: String) async throws -> (status: Int, type: String?, bytes: [UInt8]) {
        try await client.execute(uri: uri, method: .get, headers: [.origin: DeskRoutesTests.origin, .cookie: cookie]) { response in
            (Int(response.status.code), response.headers[.contentType], Array(buffer: response.body))
        }
    }

    /// The three cut routes of cut `number` of take `chunk`.
    static func routes(_ id: ArticleID, chunk: String, number: String) -> [(HTTPRequest.Method, String, String?)] {
        let base = "/api/review/\(id.rawValue)/cuts/\(chunk)/\(number)"
        return [(.get, base + "/audio?as=read", nil), (.post, base + "/accept", "{}"), (.post, base + "/dismiss", "{}")]
    }

    // MARK: The reading

    @Test("the reading lists each paragraph's open cuts and flags: take, number, words, times in the article's audio, frames and the check's sentence")
    func reading() async throws {
        let (id, takes) = (ready.rawValue, try takes(ready))
        try await Application(router: router).test(.router) { client in
            for name in ["pat", "cora"] {
                let cookie = try await DeskRoutesTests.signIn(client, name)
                let opened = try await Self.send(client, .get, "/api/review/\(id)", cookie: cookie)
                #expect(opened.status == 200, "\(opened.body)")
                let paragraphs = try #require(opened.json["paragraphs"] as? [[String: Any]])
                #expect(paragraphs.count == 2)
                #expect((paragraphs[0]["cuts"] as? [Any])?.isEmpty == true)
                let headingFlags = try #require(paragraphs[0]["flags"] as? [[String: Any]])
                #expect(headingFlags.count == 1)
                #expect(headingFlags.first?["chunk"] as? String == takes[0] && headingFlags.first?["take"] as? Int == 1)
                #expect(headingFlags.first?["kind"] as? String == "unheard" && headingFlags.first?["words"] as? String == "harbour")
                #expect(headingFlags.first?["at"] as? Double == 0.1 && headingFlags.first?["sentence"] as? String == "Chunk 1, at 0.1 s: not heard: “harbour”")

                let cuts = try #require(paragraphs[1]["cuts"] as? [[String: Any]])
                #expect(cuts.map { $0["chunk"] as? String } == [takes[1], takes[1]])
                #expect(cuts.map { $0["take"] as? Int } == [2, 2] && cuts.map { $0["number"] as? Int } == [0, 1])
                #expect(cuts.map { $0["kind"] as? String } == ["restart", "false-start"])
                #expect(cuts.map { $0["words"] as? String } == ["the storm", "passed"] && cuts.map { $0["aside"] as? String } == ["", "sorry"])
                // The take starts 0.5 s into the article: 0.2–0.5 s of it is 0.7–1.0 s of the article.
                #expect(cuts.map { $0["at"] as? Double } == [0.7, 1.2] && cuts.map { $0["end"] as? Double } == [1.0, 1.3])
                #expect(cuts.map { $0["frames"] as? Int } == [13_230, 4_410])
                #expect(cuts.map { $0["sentence"] as? String } == [
                    "Chunk 2, at 0.2 s: “the storm” read twice: cut 0.20–0.50 s",
                    "Chunk 2, at 0.7 s: “passed” broken off and begun again (“sorry” between): cut 0.70–0.80 s",
                ])
                let flags = try #require(paragraphs[1]["flags"] as? [[String: Any]])
                #expect(flags.map { $0["kind"] as? String } == ["not-in-text"] && flags.map { $0["at"] as? Double } == [1.1])
                #expect(flags.map { $0["sentence"] as? String } == ["Chunk 2, at 0.6 s: not in the text: “oh no wait”"])
            }
        }
    }

    // MARK: Listening

    @Test("a proof-listener hears a cut as read (the take's own samples) and as cut (shorter by the cut's frames); a coordinator may listen too")
    func listen() async throws {
        let (id, library) = (ready.rawValue, fixture.library)
        let take = try #require(try library.chunkEntries(of: try article(ready)).last)
        let samples = try fixture.samples(of: take)
        #expect(samples.count == 44_100)
        try await Application(router: router).test(.router) { client in
            for name in ["pat", "cora"] {
                let cookie = try await DeskRoutesTests.signIn(client, name)
                let base = "/api/review/\(id)/cuts/\(take.chunk.id.rawValue)/0/audio"
                // 2.5 s either side of a cut in a 1 s take: the whole take.
                let read = try await Self.wave(client, base + "?as=read", cookie: cookie)
                #expect(read.status == 200 && read.type == "audio/wav")
                #expect(read.bytes.count == 44 + 44_100 * 2)
                #expect(Array(read.bytes.prefix(4)) == Array("RIFF".utf8) && Array(read.bytes[36..<40]) == Array("data".utf8))
                let data = read.bytes.dropFirst(44)
                let heard = stride(from: data.startIndex, to: data.endIndex, by: 2).map { Int32(Int16(bitPattern: UInt16(data[$0]) | UInt16(data[$0 + 1]) << 8)) << 16 }
                #expect(heard == samples, "as read is the take sample for sample")
                let cut = try await Self.wave(client, base + "?as=cut", cookie: cookie)
                #expect(cut.status == 200 && cut.bytes.count == 44 + (44_100 - 13_230) * 2)
                let other = try await Self.send(client, .get, base + "?as=both", cookie: cookie)
                #expect(other.status == 400 && other.error == ReviewRoutes.listenAs)
                let none = try await Self.send(client, .get, base, cookie: cookie)
                #expect(none.status == 400 && none.error == ReviewRoutes.listenAs)
            }
        }
    }

    // MARK: Deciding

    @Test("a proof-listener accepts a cut: the take shorter by exactly its frames, one cut edit in the history, audited; the other cut moves with the audio")
    func accept() async throws {
        let (id, library, readyArticle) = (ready.rawValue, fixture.library, try article(ready))
        let before = try takes(ready)
        let edits = try library.records.history(of: ready).count
        try await Application(router: router).test(.router) { client in
            let cookie = try await DeskRoutesTests.signIn(client, "pat")
            let accepted = try await Self.send(client, .post, "/api/review/\(id)/cuts/\(before[1])/0/accept", cookie: cookie, json: "{}")
            #expect(accepted.status == 200, "\(accepted.body)")
            #expect(accepted.json["article"] as? String == id && accepted.json["take"] as? Int == 2 && accepted.json["paragraph"] as? Int == 2)
            #expect(accepted.json["framesCut"] as? Int == 13_230 && accepted.json["secondsCut"] as? Double == 0.3)
            let after = try Self.takes(library, readyArticle)
            #expect(accepted.json["chunk"] as? String == after[1] && after[1] != before[1] && after[0] == before[0])

            // The reading: one cut left, the false start, 0.3 s earlier, on the new take; the flag moved too.
            let opened = try await Self.send(client, .get, "/api/review/\(id)", cookie: cookie)
            let paragraph = try #require((opened.json["paragraphs"] as? [[String: Any]])?.last)
            let cuts = try #require(paragraph["cuts"] as? [[String: Any]])
            #expect(cuts.map { $0["chunk"] as? String } == [after[1]] && cuts.map { $0["number"] as? Int } == [0])
            #expect(cuts.map { $0["words"] as? String } == ["passed"] && cuts.map { $0["at"] as? Double } == [0.9])
            #expect((paragraph["flags"] as? [[String: Any]])?.map { $0["at"] as? Double } == [0.8])
            #expect(opened.json["duration"] as? Double == 1.5 - 0.3)

            // The old take is gone: its cut is refused; the same cut is not cut twice.
            let again = try await Self.send(client, .post, "/api/review/\(id)/cuts/\(before[1])/0/accept", cookie: cookie, json: "{}")
            #expect(again.status == 404 && again.error == NarrationError.takeLeftArticle.message)
        }
        let chunks = try library.catalog.chunks(of: try article(ready))
        #expect(chunks.map(\.frames) == [22_050, 44_100 - 13_230])
        let history = try library.records.history(of: ready)
        #expect(history.count == edits + 1 && history.first?.kind == .cut)
        #expect(history.first?.summary.hasPrefix("Cut 1 restart from chunk 2: ") == true, "\(String(describing: history.first?.summary))")
        let audit = try #require(try library.deskStore.auditLog(account: nil, since: nil).last)
        #expect(audit.actor == "pat" && audit.action == .reviewCutAccepted)
        #expect(audit.detail == "article \(id), chunk 2 (paragraph 2): at 0.2 s: “the storm” read twice: cut 0.20–0.50 s")
    }

    @Test("a proof-listener leaves a take as it is at a cut: gone from the reading, the take untouched, audited; leaving it again is 404 with the sentence")
    func dismiss() async throws {
        let (id, library) = (ready.rawValue, fixture.library)
        let before = try takes(ready)
        let edits = try library.records.history(of: ready).count
        try await Application(router: router).test(.router) { client in
            let cookie = try await DeskRoutesTests.signIn(client, "pat")
            let left = try await Self.send(client, .post, "/api/review/\(id)/cuts/\(before[1])/1/dismiss", cookie: cookie, json: "{}")
            #expect(left.status == 200 && left.body == #"{"article":"\#(id)","chunk":"\#(before[1])","number":1,"paragraph":2,"take":2}"#)
            let opened = try await Self.send(client, .get, "/api/review/\(id)", cookie: cookie)
            let cuts = try #require((opened.json["paragraphs"] as? [[String: Any]])?.last?["cuts"] as? [[String: Any]])
            #expect(cuts.map { $0["number"] as? Int } == [0] && cuts.map { $0["words"] as? String } == ["the storm"])
            let again = try await Self.send(client, .post, "/api/review/\(id)/cuts/\(before[1])/1/dismiss", cookie: cookie, json: "{}")
            #expect(again.status == 404 && again.error == NarrationError.noOpenCut(in: ChunkIndex(2)).message)
            #expect(again.error == "Chunk 2 has no such cut left to decide: it was cut or left as it is meanwhile. Reload the article to see what is left.")
            let listen = try await Self.send(client, .get, "/api/review/\(id)/cuts/\(before[1])/1/audio?as=read", cookie: cookie)
            #expect(listen.status == 404 && listen.error == again.error)
        }
        #expect(try takes(ready) == before)
        #expect(try library.records.history(of: ready).count == edits)
        #expect(try library.catalog.chunks(of: try article(ready)).map(\.frames) == [22_050, 44_100])
        let audit = try #require(try library.deskStore.auditLog(account: nil, since: nil).last)
        #expect(audit.actor == "pat" && audit.action == .reviewCutLeft)
        #expect(audit.detail == "article \(id), chunk 2 (paragraph 2): at 0.7 s: “passed” broken off and begun again (“sorry” between): cut 0.70–0.80 s")
    }

    // MARK: Refusals

    @Test("volunteers, the article's own among them, are refused listening, cutting and leaving with 403 and the sentence, even forged; nothing changes")
    func volunteers() async throws {
        let before = try snapshot()
        let (take, ready, recording) = (try takes(ready)[1], ready, recording)
        try await Application(router: router).test(.router) { client in
            for name in ["ann", "vic"] {
                let cookie = try await DeskRoutesTests.signIn(client, name)
                for (method, uri, body) in Self.routes(ready, chunk: take, number: "0") + Self.routes(recording, chunk: take, number: "0") {
                    let answer = try await Self.send(client, method, uri, cookie: cookie, json: body)
                    #expect(answer.status == 403 && answer.body == ReviewRoutesTests.onlyReviewers, "\(name): \(method) \(uri)")
                }
            }
        }
        #expect(try snapshot() == before)
    }

    @Test("a coordinator may listen but not cut or leave (403); without a session every cut route is 401; nothing changes")
    func coordinatorAndNobody() async throws {
        let before = try snapshot()
        let (take, ready) = (try takes(ready)[1], ready)
        try await Application(router: router).test(.router) { client in
            let cookie = try await DeskRoutesTests.signIn(client, "cora")
            for (method, uri, body) in Self.routes(ready, chunk: take, number: "0").dropFirst() {
                let answer = try await Self.send(client, method, uri, cookie: cookie, json: body)
                #expect(answer.status == 403 && answer.error == ReviewRoutes.onlyProofListeners, "\(method) \(uri)")
            }
            for (method, uri, body) in Self.routes(ready, chunk: take, number: "0") {
                let answer = try await Self.send(client, method, uri, cookie: nil, json: body)
                #expect(answer.status == 401, "\(method) \(uri)")
            }
        }
        #expect(try snapshot() == before)
    }

    @Test("bad cut names are 400, a take not in the article and a cut never proposed are 404, an article not in review is 409; each one sentence, nothing changes",
          arguments: [
            ("take", "-1", 400, ReviewRoutes.notACut), ("take", "abc", 400, ReviewRoutes.notACut), ("take", "100000", 400, ReviewRoutes.notACut),
            ("take", "1.0", 400, ReviewRoutes.notACut), ("take", "+1", 400, ReviewRoutes.notACut), ("NOT-A-TAKE", "0", 400, ReviewRoutes.notACut),
            ("zzzz2222", "0", 404, NarrationError.takeLeftArticle.message), ("heading", "0", 404, NarrationError.noOpenCut(in: ChunkIndex(1)).message),
            ("take", "2", 404, NarrationError.noOpenCut(in: ChunkIndex(2)).message),
            ("other", "0", 404, NarrationError.takeLeftArticle.message),
          ] as [(String, String, Int, String)])
    func badCuts(chunk: String, number: String, status: Int, sentence: String) async throws {
        let before = try snapshot()
        let own = try takes(ready)
        let name = ["take": own[1], "heading": own[0], "other": try takes(recording)[1]][chunk] ?? chunk
        let ready = ready
        try await Application(router: router).test(.router) { client in
            let cookie = try await DeskRoutesTests.signIn(client, "pat")
            for (method, uri, body) in Self.routes(ready, chunk: name, number: number) {
                let answer = try await Self.send(client, method, uri, cookie: cookie, json: body)
                #expect(answer.status == status && answer.error == sentence, "\(method) \(uri): \(answer.body)")
            }
        }
        #expect(try snapshot() == before)
    }

    @Test("an article not ready for review: every cut route is 409 with the sentence, for the proof-listener too; nothing changes")
    func notInReview() async throws {
        let before = try snapshot()
        let (take, recording) = (try takes(recording)[1], recording)
        try await Application(router: router).test(.router) { client in
            let cookie = try await DeskRoutesTests.signIn(client, "pat")
            for (method, uri, body) in Self.routes(recording, chunk: take, number: "0") {
                let answer = try await Self.send(client, method, uri, cookie: cookie, json: body)
                #expect(answer.status == 409 && answer.error == ReviewRoutes.notReady, "\(method) \(uri)")
            }
        }
        #expect(try snapshot() == before)
    }

    @Test("while the article is being recorded into (its lock held), accepting is 409 with the sentence and nothing is cut")
    func busy() async throws {
        let article = try article(ready)
        let (take, ready) = (try takes(ready)[1], ready)
        let before = try snapshot()
        let lock = try ArticleLock.acquire(for: article, at: fixture.library.root.lockURL(article.id), purpose: .recording)
        try await Application(router: router).test(.router) { client in
            let cookie = try await DeskRoutesTests.signIn(client, "pat")
            let answer = try await Self.send(client, .post, "/api/review/\(ready.rawValue)/cuts/\(take)/0/accept", cookie: cookie, json: "{}")
            #expect(answer.status == 409 && answer.error == ReviewRoutes.busyCutting)
            #expect(answer.error == "Someone is recording into this article or changing its takes right now: nothing was cut. Try again in a moment.")
        }
        withExtendedLifetime(lock) {}
        #expect(try snapshot() == before)
    }
}
