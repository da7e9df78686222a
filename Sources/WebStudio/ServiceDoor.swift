import Foundation
import Hummingbird
import Narration
import NarrationCore

/// The reading service's door: who may come in and do what, when the library has accounts.
/// Every request passes `ServiceMiddleware`, which asks the pure checks (`ProxyTrust`, the
/// host rule of `AccessGuard.Hosts`, `CrossSiteCheck`) and then the account's session; the
/// routes ask `authorise` with the action they are about to do.
struct ServiceDoor: Sendable {
    let accounts: AccountService
    let articleAccess: any ArticleAccess
    let proxy: ProxyTrust
    let hosts: AccessGuard.Hosts
    let sessionPolicy: SessionPolicy
    let sessionCheckInterval: Duration

    static let signInFirst = "Sign in first: this page needs your account."
    static let notAllowed = "Your account may not do that: ask the service's coordinator if it should."
    /// Why an open page is closed: at most 123 bytes, a WebSocket close reason's limit.
    static let sessionEnded = "Your session has ended (signed out, or the account disabled): sign in again."
    static let notYoursToSee = "The article open in the studio is not one of yours, so it is not shown: ask the service's coordinator."
    static let notAllowedArticle = "Your account may not change this article: ask the service's coordinator if it should."
    static let catalogAway = "The service cannot check your session just now: try again in a moment."

    /// What may be asked without a session: the sign-in and invitation pages, their files, the
    /// routes that begin a session, the API's OpenAPI document (it describes routes and holds
    /// nothing of the service's: the same bytes are in every copy of narrate), and the health
    /// checks a proxy or monitor asks (`HealthRoutes`: they name no article, account or file), and
    /// the metrics, which answer only a scraper on this machine (`ServiceMetrics.mayAsk`).
    static func isPublic(method: String, path: String) -> Bool {
        switch (method, path) {
        case ("GET", "/signin"), ("GET", "/invitation"), ("GET", "/service.js"), ("GET", "/service.css"), ("GET", "/favicon.ico"),
             ("GET", "/api/passphrase-rule"), ("POST", "/api/session"), ("POST", "/api/invitations/accept"), ("GET", "/api/openapi.json"),
             ("GET", "/health"), ("GET", "/ready"), ("GET", "/metrics"):
            return true
        default:
            return false
        }
    }

    /// Pages a browser opens by address: without a session they lead to the sign-in page.
    static func isPage(method: String, path: String) -> Bool {
        method == "GET" && (path == "/" || path == "/home" || path == "/desk" || path == "/review")
    }

    /// The answer refusing a route's `action` on `article` to the request's account, or nil
    /// when the account may.
    func refusal(_ context: StudioRequestContext, _ action: ServiceAction, article: ArticleID?) async -> Response? {
        guard let signedIn = context.signedIn else { return WebStudioServer.refusal(401, Self.signInFirst) }
        guard await may(signedIn.account, action, article: article) else {
            return WebStudioServer.refusal(403, article == nil ? Self.notAllowed : Self.notAllowedArticle)
        }
        return nil
    }

    /// Whether `account` may do `action` to `article` (none: an action on the service itself).
    /// A catalog that cannot be asked just now counts as no (`checkedMay` tells the two apart).
    func may(_ account: Account, _ action: ServiceAction, article: ArticleID?) async -> Bool {
        (try? await checkedMay(account, action, article: article)) ?? false
    }

    /// Whether `article` is still `account`'s (`ArticleAccess.isStillHeld`); throws when the
    /// catalog cannot be asked (its server restarting).
    func stillHolds(_ account: Account, article: ArticleID) async throws(NarrationError) -> Bool {
        let access = articleAccess
        return try await BlockingWork.run(named: "narrate-web-access") { () throws(NarrationError) in
            try access.isStillHeld(article, by: account)
        }
    }

    /// As `may`; throws when the catalog cannot be asked (its server restarting).
    func checkedMay(_ account: Account, _ action: ServiceAction, article: ArticleID?) async throws(NarrationError) -> Bool {
        guard let article else { return Permissions.may(account, action, nil) }
        let access = articleAccess
        let relation = try await BlockingWork.run(named: "narrate-web-access") { () throws(NarrationError) in
            try access.relation(of: account, to: article)
        }
        return Permissions.may(account, action, relation)
    }
}

/// Applies `ServiceDoor` to every request, the WebSocket upgrade included.
struct ServiceMiddleware: RouterMiddleware {
    typealias Context = StudioRequestContext
    let door: ServiceDoor
    /// "https" when the server itself serves TLS.
    let scheme: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let reached = door.proxy.resolve(
            peer: context.peer, forwardedFor: request.headers[.init("X-Forwarded-For")!], forwardedProto: request.headers[.init("X-Forwarded-Proto")!],
            forwardedHost: request.headers[.init("X-Forwarded-Host")!], host: request.head.authority, scheme: scheme)
        let path = request.uri.path
        let method = request.method.rawValue
        if let refusal = door.hosts.refusal(host: reached.host) { return Self.refuse(refusal.status, refusal.sentence, path: path) }
        let isWebSocket = request.headers[.upgrade]?.lowercased() == "websocket"
        if case .refuse(let status, let sentence) = CrossSiteCheck.verdict(
            method: method, origin: request.headers[.origin], fetchSite: request.headers[.init("Sec-Fetch-Site")!],
            contentType: request.headers[.contentType], ownOrigin: "\(reached.scheme)://\(reached.host ?? "")", isWebSocket: isWebSocket)
        {
            return Self.refuse(status, sentence, path: path)
        }
        var context = context
        context.client = reached.client
        let secure = reached.scheme == "https"
        context.secure = secure
        if let token = SessionCookie.token(in: request.headers[.cookie]) {
            let accounts = door.accounts
            do throws(NarrationError) {
                let account = try await BlockingWork.run(named: "narrate-web-session") { () throws(NarrationError) in try accounts.session(token) }
                context.signedIn = SignedInRequest(account: account, token: token, secure: secure)
            } catch where error.kind == .accountRefused {
                // Signed out, expired or disabled: as without a cookie.
            } catch {
                // The catalog cannot be asked (its server restarting): neither signed in nor out.
                return Self.refuse(503, ServiceDoor.catalogAway, path: path)
            }
        }
        if context.signedIn == nil, !ServiceDoor.isPublic(method: method, path: path) {
            if ServiceDoor.isPage(method: method, path: path) {
                return Response(status: .seeOther, headers: [.location: "/signin", .cacheControl: "no-store"])
            }
            return Self.refuse(401, ServiceDoor.signInFirst, path: path)
        }
        return try await next(request, context)
    }

    /// A refusal as JSON for the API and the audio, as one plain line for the rest.
    static func refuse(_ status: Int, _ sentence: String, path: String) -> Response {
        if path.hasPrefix("/api/") || path == "/audio" { return WebStudioServer.refusal(status, sentence) }
        return Response(
            status: .init(code: status), headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: sentence + "\n")))
    }
}
