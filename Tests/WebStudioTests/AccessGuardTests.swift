import Testing
@testable import WebStudio

/// Who gets in: the token once, then the cookie; the studio's own origin and host only.
@Suite("The web studio's access rules")
struct AccessGuardTests {
    let access = AccessGuard(token: "t0ken", session: "s3ssion", loopbackOnly: true)

    private func verdict(token: String? = nil, cookies: String? = nil, origin: String? = nil, host: String? = "127.0.0.1:8765", webSocket: Bool = false) -> AccessGuard.Verdict {
        access.verdict(queryToken: token, cookies: cookies, origin: origin, host: host, scheme: "http", isWebSocket: webSocket)
    }

    @Test("the link's token is exchanged for an HttpOnly, SameSite=Strict cookie; the cookie then lets requests in")
    func tokenThenCookie() {
        #expect(verdict(token: "t0ken") == .exchangeToken(cookie: "narrate_session=s3ssion; HttpOnly; SameSite=Strict; Path=/"))
        #expect(verdict(cookies: "other=1; narrate_session=s3ssion") == .allow)
        #expect(verdict(cookies: "narrate_session=s3ssion", origin: "http://127.0.0.1:8765", webSocket: true) == .allow)
    }

    @Test("a wrong or missing token or cookie is refused with 401")
    func refused() {
        #expect(verdict(token: "t0keN") == .refuse(status: 401, sentence: "That link is not this studio's: use the link narrate serve printed."))
        #expect(verdict() == .refuse(status: 401, sentence: "Open the studio with the link narrate serve printed (it carries a token)."))
        #expect(verdict(cookies: "narrate_session=s3ssio") == verdict())
        #expect(verdict(cookies: "narrate_session=") == verdict())
    }

    @Test("another page's origin, a WebSocket without one, and a foreign host name are refused with 403")
    func origins() {
        #expect(verdict(cookies: "narrate_session=s3ssion", origin: "http://evil.example") == .refuse(status: 403, sentence: "Requests from other pages are refused: open the studio's own link."))
        #expect(verdict(cookies: "narrate_session=s3ssion", origin: "https://127.0.0.1:8765") == verdict(cookies: "narrate_session=s3ssion", origin: "http://evil.example"))
        #expect(verdict(cookies: "narrate_session=s3ssion", webSocket: true) == .refuse(status: 403, sentence: "A live connection must come from the studio's page."))
        // DNS rebinding: a name that resolves here but is not a loopback name.
        #expect(verdict(cookies: "narrate_session=s3ssion", origin: "http://evil.example:8765", host: "evil.example:8765") == .refuse(status: 403, sentence: "This studio answers only to 127.0.0.1 and localhost."))
        #expect(verdict(cookies: "narrate_session=s3ssion", origin: "http://localhost:8765", host: "localhost:8765") == .allow)
        #expect(verdict(cookies: "narrate_session=s3ssion", host: "[::1]:8765") == .allow)
    }

    @Test("secrets are 64 hex digits and differ each time")
    func secrets() {
        let a = AccessGuard.randomSecret(), b = AccessGuard.randomSecret()
        #expect(a.count == 64 && a.allSatisfy(\.isHexDigit))
        #expect(a != b)
    }
}
