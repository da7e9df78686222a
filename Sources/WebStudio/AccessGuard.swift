import Foundation
import Synchronization

/// Who may use the web studio: whoever opened a printed link (its token, exchanged once for a
/// session cookie: each exchange makes a new session and a new token, so a link lets one browser
/// in), from the studio's own page (its Origin), addressed by a name the studio answers to (its
/// Host, against DNS rebinding).
///
/// The decision is made here from a request's parts; the middleware does what the verdict says.
/// The only state is the current token and the sessions, behind one lock.
final class AccessGuard: Sendable {
    /// What to do with a request.
    enum Verdict: Equatable {
        case allow
        /// The link's token: set the cookie and send the browser to `/` without the token; the
        /// next link carries `nextToken`.
        case exchangeToken(cookie: String, nextToken: String)
        /// A link used already, by a browser that has its session: on to `/`.
        case goHome
        /// Refuse with this status and one sentence.
        case refuse(status: Int, sentence: String)
    }

    /// Which names a `Host` header may carry.
    enum Hosts: Equatable, Sendable {
        /// A loopback listener: localhost, 127.x.x.x and [::1] only.
        case loopback
        /// Plain http off loopback: the loopback names and these (the machine's addresses and
        /// names, lower case).
        case these(Set<String>)
        /// https off loopback: the certificate names the server, so a rebound name gets no page.
        case any

        /// Why a request addressed to `host` (its `Host` header) is refused, or nil when this
        /// server answers to it.
        func refusal(host: String?) -> (status: Int, sentence: String)? {
            guard let host, let name = HostName(host) else { return (400, "The request named no host.") }
            switch self {
            case .loopback where !name.isLoopback:
                return (403, "This studio answers only to 127.0.0.1 and localhost.")
            case .these(let names) where !name.isLoopback && !names.contains(name.name):
                return (403, "This studio answers only to this computer's own names and addresses.")
            default:
                return nil
            }
        }
    }

    static let cookieName = "narrate_session"
    /// The most sessions kept: a link exchanged more often than this ends the oldest session.
    static let sessionLimit = 16

    let hosts: Hosts
    private let secrets: Mutex<(token: String, sessions: [String])>
    private let makeSecret: @Sendable () -> String

    /// - Parameter makeSecret: where tokens and sessions come from (tests give known ones).
    init(hosts: Hosts, makeSecret: @escaping @Sendable () -> String = AccessGuard.randomSecret) {
        self.hosts = hosts
        self.makeSecret = makeSecret
        secrets = Mutex((makeSecret(), []))
    }

    /// The token of the link to print now.
    var token: String { secrets.withLock { $0.token } }

    /// 32 random bytes as hex.
    static func randomSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }.joined()
    }

    /// - Parameters:
    ///   - queryToken: the `token` query parameter, if any.
    ///   - cookies: the `Cookie` header, if any.
    ///   - origin: the `Origin` header, if any (browsers send it with WebSockets and POSTs).
    ///   - host: the `Host` header.
    ///   - scheme: "http" or "https", as the server serves.
    func verdict(queryToken: String?, cookies: String?, origin: String?, host: String?, scheme: String, isWebSocket: Bool) -> Verdict {
        if let refusal = hosts.refusal(host: host) { return .refuse(status: refusal.status, sentence: refusal.sentence) }
        guard let host else { return .refuse(status: 400, sentence: "The request named no host.") }
        if let origin {
            guard origin == "\(scheme)://\(host)" else {
                return .refuse(status: 403, sentence: "Requests from other pages are refused: open the studio's own link.")
            }
        } else if isWebSocket {
            return .refuse(status: 403, sentence: "A live connection must come from the studio's page.")
        }
        let session = cookies.flatMap { Self.cookie(Self.cookieName, in: $0) }
        return secrets.withLock { secrets in
            let hasSession = session.map { value in secrets.sessions.reduce(false) { $0 || Self.same(value, $1) } } ?? false
            if let queryToken {
                guard Self.same(queryToken, secrets.token) else {
                    if hasSession { return .goHome }
                    return .refuse(status: 401, sentence: "That link was used already or is not this studio's: each link lets one browser in, so open the newest link narrate serve gave.")
                }
                let session = makeSecret()
                secrets.token = makeSecret()
                secrets.sessions = Array((secrets.sessions + [session]).suffix(Self.sessionLimit))
                return .exchangeToken(
                    cookie: "\(Self.cookieName)=\(session); HttpOnly; SameSite=Strict; Path=/\(scheme == "https" ? "; Secure" : "")",
                    nextToken: secrets.token)
            }
            guard hasSession else {
                return .refuse(status: 401, sentence: "Open the studio with the link narrate serve printed (it carries a token).")
            }
            return .allow
        }
    }

    /// The value of cookie `name` in a `Cookie` header.
    static func cookie(_ name: String, in header: String) -> String? {
        for pair in header.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    /// Compares secrets in time that does not depend on where they differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
