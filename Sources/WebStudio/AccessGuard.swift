import Foundation

/// Who may use the web studio: whoever opened the printed link (its token, exchanged once for a
/// session cookie), from the studio's own page (its Origin), addressed by a name the studio
/// answers to (its Host, against DNS rebinding on a loopback listener).
///
/// Pure: the middleware hands it a request's parts and does what the verdict says.
struct AccessGuard: Sendable {
    /// What to do with a request.
    enum Verdict: Equatable {
        case allow
        /// The link's token: set the cookie and send the browser to `/` without the token.
        case exchangeToken(cookie: String)
        /// Refuse with this status and one sentence.
        case refuse(status: Int, sentence: String)
    }

    static let cookieName = "narrate_session"

    /// The secret in the printed link.
    let token: String
    /// The secret in the cookie.
    let session: String
    /// Whether the server listens on a loopback address only: then a Host must be a loopback name.
    let loopbackOnly: Bool

    init(token: String = AccessGuard.randomSecret(), session: String = AccessGuard.randomSecret(), loopbackOnly: Bool) {
        self.token = token
        self.session = session
        self.loopbackOnly = loopbackOnly
    }

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
        guard let host, !host.isEmpty else { return .refuse(status: 400, sentence: "The request named no host.") }
        if loopbackOnly, !Self.isLoopback(host: host) {
            return .refuse(status: 403, sentence: "This studio answers only to 127.0.0.1 and localhost.")
        }
        if let origin {
            guard origin == "\(scheme)://\(host)" else {
                return .refuse(status: 403, sentence: "Requests from other pages are refused: open the studio's own link.")
            }
        } else if isWebSocket {
            return .refuse(status: 403, sentence: "A live connection must come from the studio's page.")
        }
        if let queryToken {
            guard Self.same(queryToken, token) else {
                return .refuse(status: 401, sentence: "That link is not this studio's: use the link narrate serve printed.")
            }
            return .exchangeToken(cookie: "\(Self.cookieName)=\(session); HttpOnly; SameSite=Strict; Path=/\(scheme == "https" ? "; Secure" : "")")
        }
        guard let cookies, let value = Self.cookie(Self.cookieName, in: cookies), Self.same(value, session) else {
            return .refuse(status: 401, sentence: "Open the studio with the link narrate serve printed (it carries a token).")
        }
        return .allow
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

    /// Whether a Host header names this machine's loopback: localhost, 127.x.x.x or [::1], with any port.
    static func isLoopback(host: String) -> Bool {
        var name = host
        if name.hasPrefix("[") {
            name = String(name.dropFirst().prefix { $0 != "]" })
        } else if let colon = name.lastIndex(of: ":") {
            name = String(name[..<colon])
        }
        return name == "localhost" || name == "::1" || name.hasPrefix("127.")
    }

    /// Compares secrets in time that does not depend on where they differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
