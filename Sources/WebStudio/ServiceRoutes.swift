import Foundation
import Hummingbird
import Narration
import NarrationCore
import NIOCore

/// The reading service's own pages and routes: signing in and out, the invitation, the
/// signed-in account (`GET /api/me`), and the API's OpenAPI document (`GET /api/openapi.json`).
/// Service.md beside this file lists every route.
extension WebStudioServer {
    /// The most a sign-in or invitation request may carry: a name, a secret and a passphrase.
    static let accountRequestLimit = 16 << 10

    /// The signed-in account as the pages read it.
    struct Me: Encodable {
        var account: String
        var role: String
    }

    struct SignInForm: Decodable {
        var account: String
        var passphrase: String
    }

    struct InvitationForm: Decodable {
        var account: String
        var token: String
        var passphrase: String
    }

    /// The service's door on every request, its pages and its routes (the studio's own routes
    /// are added beside them).
    /// - Parameter scheme: "https" when the server itself serves TLS.
    static func addService(to router: Router<StudioRequestContext>, door: ServiceDoor, scheme: String) {
        router.middlewares.add(ServiceMiddleware(door: door, scheme: scheme))
        addServicePages(to: router)
        addServiceAPI(to: router, door: door)
    }

    static func addServicePages(to router: Router<StudioRequestContext>) {
        let page = ByteBuffer(bytes: PackageResources.service_html)
        for path in ["/signin", "/invitation", "/home"] as [RouterPath] {
            router.get(path) { _, _ in Self.file(page, type: "text/html; charset=utf-8") }
        }
        let script = ByteBuffer(bytes: PackageResources.service_js)
        router.get("/service.js") { _, _ in Self.file(script, type: "text/javascript; charset=utf-8") }
        let style = ByteBuffer(bytes: PackageResources.service_css)
        router.get("/service.css") { _, _ in Self.file(style, type: "text/css; charset=utf-8") }
    }

    static func addServiceAPI(to router: Router<StudioRequestContext>, door: ServiceDoor) {
        let accounts = door.accounts
        let policy = door.sessionPolicy
        // The API's OpenAPI document (openapi.json beside this file), compiled into the binary.
        let document = ByteBuffer(bytes: PackageResources.openapi_json)
        router.get("/api/openapi.json") { _, _ in Self.file(document, type: "application/json; charset=utf-8") }
        router.get("/api/passphrase-rule") { _, _ in
            Self.json(200, ["rule": PassphraseRule.summary, "minimumLength": String(PassphraseRule.minimumLength)])
        }
        router.post("/api/session") { request, context -> Response in
            guard let form = await Self.decode(SignInForm.self, from: request) else { return Self.unreadable }
            let address = context.client ?? ProxyTrust.unknownPeer
            do throws(NarrationError) {
                let signedIn = try await BlockingWork.run(named: "narrate-web-signin") { () throws(NarrationError) in
                    try accounts.signIn(account: form.account, passphrase: form.passphrase, address: address)
                }
                return Self.signedIn(signedIn.account, token: signedIn.token, status: 200, secure: context.secure, policy: policy)
            } catch {
                return Self.refusal(error.kind == .accountRefused ? 401 : 500, error.message)
            }
        }
        router.post("/api/invitations/accept") { request, context -> Response in
            guard let form = await Self.decode(InvitationForm.self, from: request) else { return Self.unreadable }
            let address = context.client ?? ProxyTrust.unknownPeer
            do throws(NarrationError) {
                let signedIn = try await BlockingWork.run(named: "narrate-web-signin") { () throws(NarrationError) in
                    try accounts.acceptInvitation(account: form.account, token: form.token, passphrase: form.passphrase)
                    return try accounts.signIn(account: form.account, passphrase: form.passphrase, address: address)
                }
                return Self.signedIn(signedIn.account, token: signedIn.token, status: 201, secure: context.secure, policy: policy)
            } catch {
                let status = switch error.kind {
                case .usage: 400
                case .accountRefused: 403
                default: 500
                }
                return Self.refusal(status, error.message)
            }
        }
        router.get("/api/me") { _, context -> Response in
            guard let signedIn = context.signedIn else { return Self.refusal(401, ServiceDoor.signInFirst) }
            return Self.json(200, Me(account: signedIn.account.name.rawValue, role: signedIn.account.role.rawValue))
        }
        router.delete("/api/session") { _, context -> Response in
            guard let signedIn = context.signedIn else { return Self.refusal(401, ServiceDoor.signInFirst) }
            do throws(NarrationError) {
                try await BlockingWork.run(named: "narrate-web-signout") { () throws(NarrationError) in try accounts.signOut(signedIn.token) }
            } catch {
                return Self.refusal(500, error.message)
            }
            return Self.signedOut(["account": signedIn.account.name.rawValue], secure: signedIn.secure)
        }
        router.post("/api/session/everywhere") { _, context -> Response in
            guard let signedIn = context.signedIn else { return Self.refusal(401, ServiceDoor.signInFirst) }
            let name = signedIn.account.name
            let ended: Int
            do throws(NarrationError) {
                ended = try await BlockingWork.run(named: "narrate-web-signout") { () throws(NarrationError) in
                    try accounts.signOutEverywhere(name, by: name.rawValue)
                }
            } catch {
                return Self.refusal(500, error.message)
            }
            return Self.signedOut(["account": name.rawValue, "sessionsEnded": String(ended)], secure: signedIn.secure)
        }
    }

    // MARK: Answers

    static let unreadable = refusal(400, "The request could not be read: reload the page and try again.")

    /// A role's page at `/NAME` with its `/NAME.js` and `/NAME.css`: every signed-in account gets
    /// the page, with 403 when `refused` says the account may not use it (the page then says why
    /// in a sentence, from its first API call).
    static func addRolePage(
        _ name: String, html: [UInt8], script: [UInt8], style: [UInt8], to router: Router<StudioRequestContext>,
        refused: @escaping @Sendable (StudioRequestContext) async -> Bool
    ) {
        let page = ByteBuffer(bytes: html)
        router.get(RouterPath("/\(name)")) { _, context -> Response in
            var response = file(page, type: "text/html; charset=utf-8")
            if await refused(context) { response.status = .forbidden }
            return response
        }
        let script = ByteBuffer(bytes: script)
        router.get(RouterPath("/\(name).js")) { _, _ in file(script, type: "text/javascript; charset=utf-8") }
        let style = ByteBuffer(bytes: style)
        router.get(RouterPath("/\(name).css")) { _, _ in file(style, type: "text/css; charset=utf-8") }
    }

    static func file(_ body: ByteBuffer, type: String) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: type, .cacheControl: "no-store", .init("X-Content-Type-Options")!: "nosniff"],
            body: .init(byteBuffer: body))
    }

    static func json(_ status: Int, _ value: some Encodable) -> Response {
        Response(
            status: .init(code: status), headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: PageState.encode(value))))
    }

    private static func signedIn(_ account: Account, token: String, status: Int, secure: Bool, policy: SessionPolicy) -> Response {
        var response = json(status, Me(account: account.name.rawValue, role: account.role.rawValue))
        response.headers[.setCookie] = SessionCookie.set(token, secure: secure, policy: policy)
        return response
    }

    private static func signedOut(_ body: [String: String], secure: Bool) -> Response {
        var response = json(200, body)
        response.headers[.setCookie] = SessionCookie.cleared(secure: secure)
        return response
    }

    /// A JSON body of at most `accountRequestLimit` bytes as `T`; nil when too big or unreadable.
    private static func decode<T: Decodable>(_ type: T.Type, from request: Request) async -> T? {
        var request = request
        guard let body = try? await request.collectBody(upTo: accountRequestLimit) else { return nil }
        return try? JSONDecoder().decode(T.self, from: Data(buffer: body))
    }
}
