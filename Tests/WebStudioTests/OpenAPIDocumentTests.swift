import Foundation
import Hummingbird
import HummingbirdTesting
import Narration
import NarrationCore
import NarrationTestSupport
import Studio
import Testing
@testable import WebStudio

/// The reading service's OpenAPI document (Sources/WebStudio/openapi.json, served at
/// `GET /api/openapi.json`) against the server itself, in process: its paths and methods are
/// the API routes the server registers (read from the router `WebStudioServer.routes` builds,
/// the one `narrate serve` runs), and what the server really answers matches the document's
/// schemas (required fields and their types), as do the document's own examples.
@Suite("The OpenAPI document")
struct OpenAPIDocumentTests {
    static let passphrase = "summer lantern over the weir"
    static let origin = "http://localhost"  // the router test client's authority

    let folder = TemporaryFolder("narrate-openapi")
    let library: NarrationLibrary
    let accounts: AccountService
    let desk: DeskService
    let server: WebStudioServer
    let door: ServiceDoor

    init() throws {
        library = try NarrationLibrary(root: DataRoot(url: folder.url.appendingPathComponent("home")))
        accounts = AccountService(store: library.accountStore, hashing: .init(iterations: 1, memoryKiB: 64, lanes: 1))
        desk = DeskService(store: library.deskStore)
        let access = DeskArticleAccess(library: library, desk: library.deskStore)
        door = ServiceDoor(
            accounts: accounts, articleAccess: access, proxy: .none, hosts: .loopback, sessionPolicy: SessionPolicy(), sessionCheckInterval: .seconds(2))
        let options = Studio.Options(
            captureDevice: "memory microphone", playbackDevice: "memory speaker", profile: .archive, destination: nil,
            retry: RetrySchedule(attempts: 1, first: 0, limit: 0), publication: "Daily Post", narrator: "Ann Reader", format: .speech,
            checksTakes: false)
        server = WebStudioServer(
            library: library, options: options, article: nil,
            configuration: .init(
                host: "127.0.0.1", port: 0, tls: nil, settings: [],
                service: .init(accounts: accounts, articleAccess: access, trustedProxy: nil, desk: desk)))
        for (name, role) in [("cora", Role.coordinator), ("ann", .volunteer)] {
            let invitation = try accounts.add(try AccountName(name), role: role, by: "test")
            try accounts.acceptInvitation(account: name, token: invitation.token, passphrase: Self.passphrase)
        }
    }

    /// The router `narrate serve` runs for this library, and its shared studio (to shut down).
    func router() -> (Router<StudioRequestContext>, StudioHost) {
        let host = StudioHost(library: library, options: server.options, article: nil, settings: [])
        let rooms = StudioRooms(idleClose: .seconds(120)) { _ in host }
        let personal = AccessMiddleware<StudioRequestContext>(access: AccessGuard(hosts: .loopback), scheme: "http", linkChanged: { _ in })
        return (server.routes(door: door, host: host, rooms: rooms, scheme: "http", personal: personal), host)
    }

    /// The document as the source tree holds it.
    static func document() throws -> [String: Any] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources/WebStudio/openapi.json")
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    /// "GET /api/desk/{}/claim": a route with its parameters' names left out (the router's and
    /// the document's may differ).
    static func key(_ method: String, _ path: String) -> String {
        method.uppercased() + " " + path.replacingOccurrences(of: #"\{[^}]*\}"#, with: "{}", options: .regularExpression)
    }

    /// The document's operations, each as `key` and whether it is written down before the server has it.
    static func operations(_ document: [String: Any]) -> [String: Bool] {
        var found: [String: Bool] = [:]
        for (path, item) in document["paths"] as? [String: [String: Any]] ?? [:] {
            for (method, operation) in item {
                found[key(method, path)] = (operation as? [String: Any])?["x-narrate-pending"] as? Bool ?? false
            }
        }
        return found
    }

    @Test("the document's paths and methods are the API routes the server registers; pending ones are not registered yet")
    func pathsAreRoutes() async throws {
        let document = try Self.document()
        #expect(document["openapi"] as? String == "3.1.0")
        let (router, host) = router()
        defer { Task { await host.shutDown() } }
        let registered = Set(
            router.routes.map { "\($0.path)" }.indices.map { index in
                let route = router.routes[index]
                return Self.key(route.method.rawValue, "\(route.path)")
            }.filter { $0.contains(" /api/") || $0.hasSuffix(" /audio") || $0.hasSuffix(" /health") || $0.hasSuffix(" /ready") || $0.hasSuffix(" /metrics") })
        let written = Self.operations(document)
        let current = Set(written.filter { !$0.value }.keys)
        let pending = Set(written.filter { $0.value }.keys)
        #expect(registered.subtracting(current.union(pending)).sorted() == [], "registered, but not in openapi.json")
        #expect(current.subtracting(registered).sorted() == [], "in openapi.json, but not registered")
        #expect(pending.intersection(registered).sorted() == [], "registered now: remove x-narrate-pending from these in openapi.json")
        #expect(registered.count >= 17)
    }

    @Test("GET /api/openapi.json answers the document without a session, byte for byte the source's")
    func served() async throws {
        let (router, host) = router()
        defer { Task { await host.shutDown() } }
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources/WebStudio/openapi.json")
        let expected = try Data(contentsOf: url)
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/api/openapi.json", method: .get) { response in
                #expect(response.status == .ok && response.headers[.contentType] == "application/json; charset=utf-8")
                #expect(Data(buffer: response.body) == expected)
            }
        }
    }

    @Test("every example in the document matches its schema")
    func examples() throws {
        let document = try Self.document()
        var checked = 0
        for (path, item) in document["paths"] as? [String: [String: Any]] ?? [:] {
            for (method, operation) in item {
                guard let operation = operation as? [String: Any] else { continue }
                var media: [(String, [String: Any])] = []
                if let body = (operation["requestBody"] as? [String: Any])?["content"] as? [String: [String: Any]] {
                    media += body.map { ("\(method) \(path) body", $0.value) }
                }
                for (status, response) in operation["responses"] as? [String: [String: Any]] ?? [:] {
                    let resolved = SchemaCheck(document).resolve(response)
                    for (_, content) in resolved["content"] as? [String: [String: Any]] ?? [:] {
                        media.append(("\(method) \(path) \(status)", content))
                    }
                }
                for (name, content) in media {
                    guard let example = content["example"], let schema = content["schema"] as? [String: Any] else { continue }
                    #expect(SchemaCheck(document).problems(example, schema) == [], "\(name)")
                    checked += 1
                }
            }
        }
        #expect(checked >= 10)
    }

    @Test("what the server answers matches the document's schema for its status, route by route")
    func answersMatch() async throws {
        let document = try Self.document()
        let (router, host) = router()
        defer { Task { await host.shutDown() } }
        let check = SchemaCheck(document)
        try await Application(router: router).test(.router) { client in
            /// Sends a request and checks its JSON answer against the document; returns the answer.
            func exchange(_ method: HTTPRequest.Method, _ uri: String, path: String, cookie: String?, json: String? = nil, status: Int) async throws -> Any {
                var headers: HTTPFields = [.origin: Self.origin]
                if let cookie { headers[.cookie] = cookie }
                if json != nil { headers[.contentType] = "application/json" }
                let (code, body) = try await client.execute(uri: uri, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) }) {
                    (Int($0.status.code), Data(buffer: $0.body))
                }
                #expect(code == status, "\(method) \(uri): \(String(decoding: body, as: UTF8.self))")
                let answer = try JSONSerialization.jsonObject(with: body)
                let schema = try #require(check.schema(method.rawValue.lowercased(), path, status: code), "\(method) \(path) \(code) is not in the document")
                #expect(check.problems(answer, schema) == [], "\(method) \(uri) \(code)")
                return answer
            }
            func signIn(_ name: String) async throws -> String {
                let cookie = try await client.execute(
                    uri: "/api/session", method: .post, headers: [.origin: Self.origin, .contentType: "application/json"],
                    body: ByteBuffer(string: #"{"account":"\#(name)","passphrase":"\#(Self.passphrase)"}"#)
                ) { $0.headers[.setCookie].map { String($0.prefix { $0 != ";" }) } }
                return try #require(cookie)
            }
            _ = try await exchange(.get, "/api/passphrase-rule", path: "/api/passphrase-rule", cookie: nil, status: 200)
            _ = try await exchange(.get, "/health", path: "/health", cookie: nil, status: 200)
            _ = try await exchange(.get, "/ready", path: "/ready", cookie: nil, status: 200)
            _ = try await exchange(.get, "/api/me", path: "/api/me", cookie: nil, status: 401)
            _ = try await exchange(
                .post, "/api/session", path: "/api/session", cookie: nil, json: #"{"account":"ann","passphrase":"not it at all, no"}"#, status: 401)
            let (cora, ann) = (try await signIn("cora"), try await signIn("ann"))
            _ = try await exchange(.get, "/api/me", path: "/api/me", cookie: ann, status: 200)
            let added = try await exchange(
                .post, "/api/desk", path: "/api/desk", cookie: cora,
                json: #"{"title":"Budget vote delayed","publication":"Daily Post","deadline":"2026-11-27","priority":"high","text":"The council met.","textName":"budget.txt"}"#,
                status: 201)
            let id = try #require((added as? [String: Any])?["id"] as? String)
            let listing = try await exchange(.get, "/api/desk?state=open", path: "/api/desk", cookie: cora, status: 200)
            #expect(((listing as? [String: Any])?["articles"] as? [Any])?.count == 1)
            _ = try await exchange(.get, "/api/desk/volunteers", path: "/api/desk/volunteers", cookie: cora, status: 200)
            _ = try await exchange(.get, "/api/desk", path: "/api/desk", cookie: ann, status: 403)
            let home = try await exchange(.get, "/api/my-articles", path: "/api/my-articles", cookie: ann, status: 200)
            #expect(((home as? [String: Any])?["open"] as? [Any])?.count == 1)
            _ = try await exchange(.post, "/api/desk/\(id)/claim", path: "/api/desk/{id}/claim", cookie: ann, json: "{}", status: 200)
            _ = try await exchange(.post, "/api/desk/\(id)/claim", path: "/api/desk/{id}/claim", cookie: ann, json: "{}", status: 403)
            _ = try await exchange(
                .post, "/api/desk/\(id)/change", path: "/api/desk/{id}/change", cookie: cora, json: #"{"listenUntil":"2099-01-01"}"#, status: 200)
            _ = try await exchange(.post, "/api/desk/\(id)/open", path: "/api/desk/{id}/open", cookie: cora, json: "{}", status: 200)
            _ = try await exchange(.post, "/api/desk/\(id)/assign", path: "/api/desk/{id}/assign", cookie: cora, json: #"{"account":"ann"}"#, status: 200)
            _ = try await exchange(.post, "/api/desk/zzzz/withdraw", path: "/api/desk/{id}/withdraw", cookie: cora, json: "{}", status: 404)
            _ = try await exchange(.post, "/api/desk/\(id)/withdraw", path: "/api/desk/{id}/withdraw", cookie: cora, json: "{}", status: 200)
            _ = try await exchange(.post, "/api/desk/\(id)/open", path: "/api/desk/{id}/open", cookie: cora, json: "{}", status: 409)
            _ = try await exchange(.post, "/api/articles", path: "/api/articles", cookie: ann, json: #"{"title":"Mine"}"#, status: 403)
            _ = try await exchange(.post, "/api/session/everywhere", path: "/api/session/everywhere", cookie: ann, status: 200)
            _ = try await exchange(.delete, "/api/session", path: "/api/session", cookie: cora, status: 200)
        }
    }
}

/// A small JSON Schema check, enough for the document's schemas: `$ref`, `type` (one or a
/// list), `required`, `properties`, `items`, `enum` and `allOf`.
struct SchemaCheck: @unchecked Sendable {  // the document is read-only JSON
    let document: [String: Any]

    init(_ document: [String: Any]) { self.document = document }

    /// `object` with a `$ref` followed (within the document), else as it is.
    func resolve(_ object: [String: Any]) -> [String: Any] {
        guard let reference = object["$ref"] as? String, reference.hasPrefix("#/") else { return object }
        var here: Any = document
        for part in reference.dropFirst(2).split(separator: "/") { here = (here as? [String: Any])?[String(part)] ?? [:] }
        return resolve(here as? [String: Any] ?? [:])
    }

    /// The JSON schema of the answer `status` of `method path` in the document; nil when absent.
    func schema(_ method: String, _ path: String, status: Int) -> [String: Any]? {
        let operation = ((document["paths"] as? [String: Any])?[path] as? [String: Any])?[method] as? [String: Any]
        guard let response = (operation?["responses"] as? [String: Any])?[String(status)] as? [String: Any] else { return nil }
        return ((resolve(response)["content"] as? [String: Any])?["application/json"] as? [String: Any])?["schema"] as? [String: Any]
    }

    /// What in `value` the schema does not allow, each as "where: what"; empty when it matches.
    func problems(_ value: Any, _ schema: [String: Any], at place: String = "$") -> [String] {
        let schema = resolve(schema)
        var found: [String] = []
        for part in schema["allOf"] as? [[String: Any]] ?? [] { found += problems(value, part, at: place) }
        if let types = (schema["type"] as? [String]) ?? (schema["type"] as? String).map({ [$0] }), !types.contains(where: { Self.value(value, is: $0) }) {
            return found + ["\(place): \(value) is not \(types.joined(separator: " or "))"]
        }
        if let allowed = schema["enum"] as? [Any], !allowed.contains(where: { Self.same($0, value) }) {
            found.append("\(place): \(value) is none of \(allowed)")
        }
        if let object = value as? [String: Any] {
            for name in schema["required"] as? [String] ?? [] where object[name] == nil { found.append("\(place): no \(name)") }
            for (name, property) in schema["properties"] as? [String: [String: Any]] ?? [:] {
                if let inner = object[name] { found += problems(inner, property, at: "\(place).\(name)") }
            }
        }
        if let array = value as? [Any], let items = schema["items"] as? [String: Any] {
            for (index, item) in array.enumerated() { found += problems(item, items, at: "\(place)[\(index)]") }
        }
        return found
    }

    static func value(_ value: Any, is kind: String) -> Bool {
        // JSONSerialization gives true and false as a Boolean subclass of NSNumber.
        let isBool = value is Bool && String(describing: type(of: value)).contains("Boolean")
        switch kind {
        case "null": return value is NSNull
        case "boolean": return isBool
        case "integer": return !isBool && (value as? NSNumber).map { $0.doubleValue.rounded() == $0.doubleValue } ?? false
        case "number": return !isBool && value is NSNumber
        case "string": return value is String
        case "array": return value is [Any]
        case "object": return value is [String: Any]
        default: return false
        }
    }

    static func same(_ left: Any, _ right: Any) -> Bool {
        if left is NSNull || right is NSNull { return left is NSNull && right is NSNull }
        return (left as? String) == (right as? String) && (left as? String) != nil
    }
}
