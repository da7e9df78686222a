import Foundation
import Hummingbird
import HummingbirdTesting
import Narration
import NarrationCore
import NarrationTestSupport
import Testing
@testable import WebStudio

/// The desk's routes in process, through Hummingbird's router (no sockets), over a real library
/// and its catalog (the accounts too) in a temporary folder, and a clock in hand
/// (2027-01-15T08:00Z): who may use them, what they refuse and that a refusal changes nothing,
/// and what they answer.
@Suite("The desk's routes")
struct DeskRoutesTests {
    static let passphrase = "summer lantern over the weir"
    static let origin = "http://localhost"  // the router test client's authority
    static let onlyCoordinators = #"{"error":"The desk is for coordinators and admins: ask the service's coordinator if you should have it."}"#

    let folder = TemporaryFolder("narrate-desk-routes")
    let clock = HandClock()
    let library: NarrationLibrary
    let accounts: AccountService
    let desk: DeskService
    let router = Router(context: StudioRequestContext.self)

    init() throws {
        library = try NarrationLibrary(root: DataRoot(url: folder.url.appendingPathComponent("home")))
        accounts = AccountService(store: library.accountStore, clock: clock.function, hashing: .init(iterations: 1, memoryKiB: 64, lanes: 1))
        desk = DeskService(store: library.deskStore, clock: clock.function)
        let door = ServiceDoor(
            accounts: accounts, articleAccess: DeskArticleAccess(library: library, desk: library.deskStore), proxy: .none, hosts: .loopback,
            sessionPolicy: SessionPolicy(), sessionCheckInterval: .seconds(2))
        WebStudioServer.addService(to: router, door: door, scheme: "http")
        DeskRoutes(door: door, desk: desk, library: library, clock: clock.function).add(to: router)
        for (name, role) in [("cora", Role.coordinator), ("ann", .volunteer), ("ben", .volunteer), ("pat", .proofListener)] {
            let invitation = try accounts.add(try AccountName(name), role: role, by: "test")
            try accounts.acceptInvitation(account: name, token: invitation.token, passphrase: Self.passphrase)
        }
    }

    // MARK: Requests

    struct Answer {
        let status: Int
        let body: String
        /// The body as JSON (an object), or empty.
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:] }
        var error: String? { json["error"] as? String }
    }

    /// The session cookie (name=value) of `name`.
    static func signIn(_ client: some TestClientProtocol, _ name: String) async throws -> String {
        let body = ByteBuffer(string: #"{"account":"\#(name)","passphrase":"\#(passphrase)"}"#)
        let cookie = try await client.execute(
            uri: "/api/session", method: .post, headers: [.origin: origin, .contentType: "application/json"], body: body
        ) { response in response.headers[.setCookie].map { String($0.prefix { $0 != ";" }) } }
        return try #require(cookie)
    }

    /// A request as the desk page sends it: its own Origin and, with a body, JSON.
    static func send(
        _ client: some TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, cookie: String?, json: String? = nil,
        contentType: String = "application/json"
    ) async throws -> Answer {
        var headers: HTTPFields = [.origin: origin]
        if let cookie { headers[.cookie] = cookie }
        if json != nil { headers[.contentType] = contentType }
        return try await client.execute(uri: uri, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) }) { response in
            Answer(status: Int(response.status.code), body: String(buffer: response.body))
        }
    }

    /// An article put on the desk by the coordinator, without a text.
    @discardableResult
    func put(_ title: String, deadline: String? = nil, priority: DeskPriority = .normal) throws -> DeskEntry {
        let cora = try accounts.account(try AccountName("cora"))
        let library = self.library
        return try desk.add(
            .init(title: title, publication: "Gazette", deadline: try deadline.map { try DeskTime($0) }, priority: priority), by: .account(cora)
        ) { (new) throws(NarrationError) in try library.makeDeskArticle(new, text: nil) }
    }

    /// Everything a refusal must leave as it was: every record on the desk, the audit log, and
    /// the library's article folders.
    /// A Word file holding `paragraphs`, zipped by Python's zipfile as Word would have it.
    static func wordFile(in folder: TemporaryFolder, paragraphs: [String]) throws -> Data {
        let body = paragraphs.map { "<w:p><w:r><w:t>\($0)</w:t></w:r></w:p>" }.joined()
        let document = #"<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>"#
            + body + "</w:body></w:document>"
        let target = folder.file("upload-\(UUID().uuidString).docx")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
                z.writestr("[Content_Types].xml", "<Types/>")
                z.writestr("word/document.xml", sys.argv[2])
            """, target.path, document]
        try process.run()
        process.waitUntilExit()
        return try Data(contentsOf: target)
    }

    func snapshot() throws -> String {
        let entries = try library.deskStore.entries(DeskFilter()).map { "\($0)" }
        let audit = try library.deskStore.auditLog(account: nil, since: nil).count
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("home/articles").path)) ?? []
        return "\(entries)|\(audit)|\(folders.sorted())"
    }

    /// Every desk route, with a body it would take from a coordinator.
    static func routes(_ id: String) -> [(HTTPRequest.Method, String, String?)] {
        [
            (.get, "/api/desk", nil), (.get, "/api/desk?state=open&page=1", nil), (.get, "/api/desk/volunteers", nil),
            (.post, "/api/desk", #"{"title":"Refused","text":"A paragraph."}"#), (.post, "/api/desk/\(id)/assign", #"{"account":"ann"}"#),
            (.post, "/api/desk/\(id)/open", "{}"), (.post, "/api/desk/\(id)/change", #"{"priority":"urgent"}"#),
            (.post, "/api/desk/\(id)/withdraw", "{}"),
        ]
    }

    // MARK: Who may

    @Test("without a session every desk route answers 401 with the sentence, and /desk leads to the sign-in page")
    func noSession() async throws {
        let entry = try put("Budget vote")
        let before = try snapshot()
        try await Application(router: router).test(.router) { client in
            for (method, uri, body) in Self.routes(entry.article.rawValue) {
                let answer = try await Self.send(client, method, uri, cookie: nil, json: body)
                #expect(answer.status == 401, "\(method) \(uri)")
                #expect(answer.body == #"{"error":"Sign in first: this page needs your account."}"#)
            }
            let page = try await client.execute(uri: "/desk", method: .get) { ($0.status.code, $0.headers[.location]) }
            #expect(page.0 == 303 && page.1 == "/signin")
        }
        #expect(try snapshot() == before)
    }

    @Test("a volunteer and a proof-listener are refused every desk route with 403 and the sentence; nothing changes")
    func notCoordinators() async throws {
        let entry = try put("Budget vote")
        let before = try snapshot()
        try await Application(router: router).test(.router) { client in
            for name in ["ann", "pat"] {
                let cookie = try await Self.signIn(client, name)
                for (method, uri, body) in Self.routes(entry.article.rawValue) {
                    let answer = try await Self.send(client, method, uri, cookie: cookie, json: body)
                    #expect(answer.status == 403 && answer.body == Self.onlyCoordinators, "\(name): \(method) \(uri)")
                }
                let page = try await Self.send(client, .get, "/desk", cookie: cookie)
                #expect(page.status == 403 && page.body.contains("<h1 id=\"heading\">The desk</h1>"))
            }
        }
        #expect(try snapshot() == before)
    }

    // MARK: Adding

    @Test("a coordinator adds an article with a pasted text: 201 with its row; the article has the text's paragraphs")
    func addPasted() async throws {
        let library = self.library
        try await Application(router: router).test(.router) { client in
            let cookie = try await Self.signIn(client, "cora")
            let page = try await Self.send(client, .get, "/desk", cookie: cookie)
            #expect(page.status == 200 && page.body.contains("<table id=\"articles\">"))
            let answer = try await Self.send(
                client, .post, "/api/desk", cookie: cookie,
                json: #"{"title":"Budget vote","publication":"Gazette","section":"Local news","deadline":"2027-01-16T17:30","listenUntil":"2027-02-01","priority":"high","text":"The council met.\n\nIt voted."}"#)
            #expect(answer.status == 201)
            let row = answer.json
            let id = try #require(row["id"] as? String)
            #expect(row["title"] as? String == "Budget vote" && row["publication"] as? String == "Gazette" && row["section"] as? String == "Local news")
            #expect(row["state"] as? String == "open" && row["stateTitle"] as? String == "Open" && row["priority"] as? String == "high")
            #expect(row["deadline"] as? String == "2027-01-16T17:30" && row["listenUntil"] as? String == "2027-02-01")
            #expect(row["late"] as? Bool == false && row["volunteer"] is NSNull && row["taking"] is NSNull)
            #expect(row["addedAt"] as? String == "2027-01-15T08:00:00Z" && row["version"] as? Int == 1)
            let paragraphs = try library.records(of: try library.article(id)).paragraphs()
            #expect(paragraphs.map(\.text) == ["The council met.", "It voted."])
        }
    }

    @Test("an uploaded Markdown file is read as Markdown, a Word file sent whole as Word; other names, a document sent as text and base64 that is not are refused and nothing is made")
    func addUploaded() async throws {
        let library = self.library
        let before = try snapshot()
        try await Application(router: router).test(.router) { client in
            let cookie = try await Self.signIn(client, "cora")
            for name in ["flyer.pdf", "flyer.docx", "flyer.rtf", "flyer"] {
                let refused = try await Self.send(
                    client, .post, "/api/desk", cookie: cookie, json: #"{"title":"Flyer","text":"Sale","textName":"\#(name)"}"#)
                #expect(refused.status == 415)
                #expect(refused.error == "\"\(name)\" is not a file the desk page reads: upload a .txt, .md, .html, .docx, .odt or .pdf file, or paste the text.")
            }
            for (file, name, status, sentence) in [
                ("UEsDBA==", "flyer.txt", 415, "\"flyer.txt\" is not a file the desk page reads: upload a .txt, .md, .html, .docx, .odt or .pdf file, or paste the text."),
                ("not base64!", "flyer.docx", 400, "\"flyer.docx\" did not arrive whole: choose the file again."),
                ("UEsDBA==", "flyer.docx", 400, "\"flyer.docx\" is not a Word document: it is not a zip archive. Save it again from the word processor and try again."),
                (String(repeating: "A", count: 4 * 1024 * 1024 + 4), "big.pdf", 413, DeskRoutes.documentTooBig),
            ] {
                let refused = try await Self.send(
                    client, .post, "/api/desk", cookie: cookie, json: #"{"title":"Flyer","file":"\#(file)","textName":"\#(name)"}"#)
                #expect(refused.status == status, "\(name)")
                #expect(refused.error == sentence, "\(name)")
            }
        }
        #expect(try snapshot() == before)
        let word = try Self.wordFile(in: folder, paragraphs: ["Shop news", "Pears are cheap today."])
        try await Application(router: router).test(.router) { client in
            let cookie = try await Self.signIn(client, "cora")
            let answer = try await Self.send(
                client, .post, "/api/desk", cookie: cookie,
                json: #"{"title":"Shop","file":"\#(word.base64EncodedString())","textName":"shop.docx"}"#)
            #expect(answer.status == 201)
            let id = try #require(answer.json["id"] as? String)
            #expect(try library.records(of: try library.article(id)).paragraphs().map(\.text) == ["Shop news", "Pears are cheap today."])
        }
        try await Application(router: router).test(.router) { client in
            let cookie = try await Self.signIn(client, "cora")
            let answer = try await Self.send(
                client, .post, "/api/desk", cookie: cookie, json: ##"{"title":"Flyer","text":"# Shop news\n\nApples are *cheap*.","textName":"flyer.md"}"##)
            #expect(answer.status == 201)
            let id = try #require(answer.json["id"] as? String)
            #expect(try library.records(of: try library.article(id)).paragraphs().map(\.text) == ["Shop news", "Apples are cheap."])
        }
    }

    @Test("bad days, priorities, lengths and forms are refused with 400 and the sentence; too big is 413, a form post 415; nothing is made",
          arguments: [
            (#"{"title":"A","deadline":"2027-13-40"}"#, 400,
             #"The deadline "2027-13-40" is not a day or a time: give YYYY-MM-DD (the whole day) or YYYY-MM-DDTHH:MM (UTC), e.g. 2026-12-03 or 2026-12-03T17:30."#),
            (#"{"title":"A","listenUntil":"2027-01-15T07:59"}"#, 400, #"The "listen until" 2027-01-15T07:59 has passed already: give a later day, or none."#),
            (#"{"title":"A","deadline":"20270-01-01"}"#, 400,
             #"The deadline "20270-01-01" is not a day or a time: give YYYY-MM-DD (the whole day) or YYYY-MM-DDTHH:MM (UTC), e.g. 2026-12-03 or 2026-12-03T17:30."#),
            (#"{"title":"A","priority":"soon"}"#, 400, #""soon" is not a priority: give low, normal, high or urgent."#),
            (#"{"title":"   "}"#, 400, "An article on the desk needs a title: give one."),
            (#"{"title":"\#(String(repeating: "t", count: 301))"}"#, 400, "A title may have at most 300 characters; this one has 301."),
            (#"{"title":"A","publication":"\#(String(repeating: "p", count: 201))"}"#, 400, "A publication's name may have at most 200 characters; this one has 201."),
            (#"{"title":"A","section":"\#(String(repeating: "s", count: 201))"}"#, 400, "A section may have at most 200 characters; this one has 201."),
            (#"{"title":"A","section":"Local\u0007news"}"#, 400, #"The section "Local?news" holds a control character: give it on one line of plain text."#),
            (#"{"title":"A","text":"\u0000\u0001"}"#, 400, nil),
            (#"{"title":5}"#, 400, "The request could not be read: reload the page and try again."),
            (#"not json"#, 400, "The request could not be read: reload the page and try again."),
          ] as [(String, Int, String?)])
    func badNewArticles(json: String, status: Int, sentence: String?) async throws {
        let before = try snapshot()
        try await Application(router: router).test(.router) { client in
            let cookie = try await Self.signIn(client, "cora")
            let answer = try await Self.send(client, .post, "/api/desk", cookie: cookie, json: json)
            #expect(answer.status == status)
            let error = try #require(answer.error)
            if let sentence { #expect(error == sentence) } else { #expect(error.hasSuffix(".") && !error.contains("\n")) }
        }
        #expect(try snapshot() == before)
    }

    @Test("a text over 2 MB is refused with 413, a body over 5 MB too, a form post with 415; nothing is made")
    func tooBig() async throws {
        let before = try snapshot()
        try await Application(router: router).test(.router) { client in
            let cookie = try await Self.signIn(client, "cora")
            let text = String(repeating: "word ", count: (2 << 20) / 5 + 1)
            let big = try await Self.send(client, .post, "/api/desk", cookie: cookie, json: #"{"title":"Long","text":"\#(text)"}"#)
            #expect(big.status == 413 && big.error == DeskRoutes.tooBig)
            let huge = try await Self.send(client, .post, "/api/desk", cookie: cookie, json: #"{"title":"Long","text":"\#(text + text + text)"}"#)
            #expect(huge.status == 413 && huge.error == DeskRoutes.tooBig)
            let form = try await Self.send(
                client, .post, "/api/desk", cookie: cookie, json: "title=Flyer", contentType: "application/x-www-form-urlencoded")
            #expect(form.status == 415)
        }
        #expect(try snapshot() == before)
    }

    // MARK: Changing

    @Test("assign, leave open, change and withdraw answer the row after the change")
    func changes() async throws {
        let entry = try put("Budget vote", deadline: "2027-01-20")
        let id = entry.article.rawValue
        try await Application(router: router).test(.router) { client in
            let cookie = try await Self.signIn(client, "cora")
            let assigning = try await Self.send(client, .post, "/api/desk/\(id)/assign", cookie: cookie, json: #"{"account":"ann"}"#)
            #expect(assigning.status == 200, "\(assigning.body)")
            let assigned = assigning.json
            #expect(assigned["state"] as? String == "assigned" && assigned["volunteer"] as? String == "ann" && assigned["taking"] as? String == "assigned")
            #expect(assigned["version"] as? Int == 2)
            let reassigned = try await Self.send(client, .post, "/api/desk/\(id)/assign", cookie: cookie, json: #"{"account":"ben"}"#).json
            #expect(reassigned["volunteer"] as? String == "ben")
            let opened = try await Self.send(client, .post, "/api/desk/\(id)/open", cookie: cookie, json: "{}").json
            #expect(opened["state"] as? String == "open" && opened["volunteer"] is NSNull)
            let changed = try await Self.send(
                client, .post, "/api/desk/\(id)/change", cookie: cookie,
                json: #"{"deadline":"2027-01-10T09:00","listenUntil":"2027-03-01","priority":"urgent","section":"Council"}"#).json
            #expect(changed["deadline"] as? String == "2027-01-10T09:00" && changed["listenUntil"] as? String == "2027-03-01")
            #expect(changed["priority"] as? String == "urgent" && changed["section"] as? String == "Council" && changed["late"] as? Bool == true)
            let removed = try await Self.send(client, .post, "/api/desk/\(id)/change", cookie: cookie, json: #"{"deadline":"","listenUntil":"none"}"#).json
            #expect(removed["deadline"] is NSNull && removed["listenUntil"] is NSNull && removed["late"] as? Bool == false)
            let withdrawn = try await Self.send(client, .post, "/api/desk/\(id)/withdraw", cookie: cookie, json: "{}")
            #expect(withdrawn.status == 200 && withdrawn.json["state"] as? String == "withdrawn" && withdrawn.json["stateTitle"] as? String == "Withdrawn")
        }
        #expect(try desk.entry(entry.article, by: .service).state == .withdrawn)
    }

    @Test("refused changes: the sentence with 400, 404 or 409, and nothing changes")
    func refusedChanges() async throws {
        let entry = try put("Budget vote")
        let withdrawn = try put("Old news")
        let cora = try accounts.account(try AccountName("cora"))
        try desk.withdraw(withdrawn.article, by: .account(cora))
        let (id, gone) = (entry.article.rawValue, withdrawn.article.rawValue)
        let before = try snapshot()
        let cases: [(String, String, Int, String)] = [
            ("/api/desk/\(id)/assign", #"{"account":"pat"}"#, 409,
             "The account pat (proof-listener) cannot be given articles to record: give it to a volunteer, a coordinator or an admin whose account is enabled."),
            ("/api/desk/\(id)/assign", #"{"account":"nobody"}"#, 404, #"No account is named "nobody"."#),
            ("/api/desk/\(id)/assign", #"{"account":"Not A Name"}"#, 400, ""),
            ("/api/desk/\(id)/assign", #"{"who":"ann"}"#, 400, "The request could not be read: reload the page and try again."),
            ("/api/desk/\(id)/open", "{}", 409, "The article \(id) (\"Budget vote\") is Open, so it cannot be left open: it can now be assigned, claimed, expired or withdrawn."),
            ("/api/desk/\(gone)/withdraw", "{}", 409, "The article \(gone) (\"Old news\") is Withdrawn, so it cannot be withdrawn: nothing more can happen to it."),
            ("/api/desk/\(gone)/change", #"{"priority":"low"}"#, 409, "The article \(gone) (\"Old news\") is Withdrawn, so it cannot be changed: nothing more can happen to it."),
            ("/api/desk/\(id)/change", "{}", 400, "Say what to change: the section, the deadline, the listen until or the priority."),
            ("/api/desk/\(id)/change", #"{"deadline":"tomorrow"}"#, 400,
             #"The deadline "tomorrow" is not a day or a time: give YYYY-MM-DD (the whole day) or YYYY-MM-DDTHH:MM (UTC), e.g. 2026-12-03 or 2026-12-03T17:30."#),
            ("/api/desk/\(id)/change", #"{"priority":"URGENT"}"#, 400, #""URGENT" is not a priority: give low, normal, high or urgent."#),
            ("/api/desk/zzzz2222/withdraw", "{}", 404, "The article zzzz2222 is not on the desk: it was started in the personal studio, not added to the service."),
            ("/api/desk/NOT-AN-ID/withdraw", "{}", 400, DeskRoutes.notAnID),
            ("/api/desk/\(String(repeating: "a", count: 33))/withdraw", "{}", 400, DeskRoutes.notAnID),
        ]
        try await Application(router: router).test(.router) { client in
            let cookie = try await Self.signIn(client, "cora")
            for (uri, json, status, sentence) in cases {
                let answer = try await Self.send(client, .post, uri, cookie: cookie, json: json)
                #expect(answer.status == status, "\(uri) \(json): \(answer.body)")
                let error = try #require(answer.error)
                if sentence.isEmpty { #expect(error.hasSuffix(".") && !error.contains("\n")) } else { #expect(error == sentence, "\(uri) \(json)") }
            }
            let big = try await Self.send(client, .post, "/api/desk/\(id)/change", cookie: cookie, json: #"{"section":"\#(String(repeating: "s", count: 20_000))"}"#)
            #expect(big.status == 413)
        }
        #expect(try snapshot() == before)
    }

    // MARK: Listing

    @Test("the listing: most urgent first, in pages of 100 with the count; filters by state, volunteer, publication, due before and late")
    func listing() async throws {
        let store = library.deskStore
        let now = clock.date
        for number in 0..<205 {
            let article = try library.newArticle(title: "Article \(number)", publication: number % 2 == 0 ? "Gazette" : "Courier", narrator: "", format: .speech)
            let deadline = try DeskTime(number < 3 ? "2027-01-14" : "2027-02-01")
            try store.addEntry(
                DeskEntry(
                    article: article.id, title: "Article \(number)", publication: number % 2 == 0 ? "Gazette" : "Courier",
                    deadline: deadline, priority: number == 204 ? .urgent : .normal, state: number < 10 ? .assigned : .open,
                    assignee: number < 10 ? try AccountName("ann") : nil, taking: number < 10 ? .assigned : nil, addedAt: now.addingTimeInterval(Double(number))),
                audit: AuditEntry(at: now, actor: "test", action: .articleAdded, account: nil, detail: "article \(number)"))
        }
        try await Application(router: router).test(.router) { client in
            let cookie = try await Self.signIn(client, "cora")
            func list(_ query: String) async throws -> [String: Any] {
                let answer = try await Self.send(client, .get, "/api/desk" + query, cookie: cookie)
                #expect(answer.status == 200, "\(query): \(answer.body)")
                return answer.json
            }
            func titles(_ page: [String: Any]) -> [String] { (page["articles"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String } }
            let first = try await list("")
            #expect(first["total"] as? Int == 205 && first["pages"] as? Int == 3 && first["page"] as? Int == 1 && first["pageSize"] as? Int == 100)
            #expect(titles(first).count == 100 && titles(first).prefix(3) == ["Article 204", "Article 0", "Article 1"])
            let last = try await list("?page=3")
            #expect(titles(last) == ["Article 199", "Article 200", "Article 201", "Article 202", "Article 203"])
            #expect(titles(try await list("?page=4")).isEmpty)
            let assigned = try await list("?state=assigned&volunteer=ann")
            #expect(assigned["total"] as? Int == 10)
            let late = try await list("?late=true")
            #expect(titles(late) == ["Article 0", "Article 1", "Article 2"])
            #expect((late["articles"] as? [[String: Any]])?.allSatisfy { $0["late"] as? Bool == true } == true)
            #expect(try await list("?dueBefore=2027-01-15")["total"] as? Int == 3)
            #expect(try await list("?dueBefore=2027-01-14")["total"] as? Int == 0)
            #expect(try await list("?publication=Courier")["total"] as? Int == 102)
            let volunteers = try await Self.send(client, .get, "/api/desk/volunteers", cookie: cookie)
            #expect(volunteers.body == #"{"accounts":[{"account":"ann","role":"volunteer"},{"account":"ben","role":"volunteer"},{"account":"cora","role":"coordinator"}]}"#)
        }
    }

    @Test("a listing's bad filters and pages are refused with 400 and the sentence", arguments: [
        ("page=0", "The page is a whole number from 1 to 1000000, not \"0\"."),
        ("page=-1", "The page is a whole number from 1 to 1000000, not \"-1\"."),
        ("page=99999999999999999999", "The page is a whole number from 1 to 1000000, not \"99999999999999999999\"."),
        ("page=1000001", "The page is a whole number from 1 to 1000000, not \"1000001\"."),
        ("page=%D9%A3", "The page is a whole number from 1 to 1000000, not \"٣\"."),
        ("state=lost", #""lost" is not an article's state: give open, assigned, recording, ready-for-review, pickups-requested, approved, published, expired or withdrawn."#),
        ("late=yes", "The late filter is true or false, not \"yes\"."),
        ("dueBefore=2027-02-30", #""2027-02-30" is not a day or a time: give YYYY-MM-DD (the whole day) or YYYY-MM-DDTHH:MM (UTC), e.g. 2026-12-03 or 2026-12-03T17:30."#),
        ("publication=\(String(repeating: "p", count: 201))", "A publication's name has at most 200 characters: give a shorter one to filter by."),
    ])
    func badListing(query: String, sentence: String) async throws {
        try await Application(router: router).test(.router) { client in
            let cookie = try await Self.signIn(client, "cora")
            let answer = try await Self.send(client, .get, "/api/desk?" + query, cookie: cookie)
            #expect(answer.status == 400 && answer.error == sentence)
        }
    }
}
