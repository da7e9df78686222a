import Synchronization
import Testing
@testable import WebStudio

/// Who gets in: a link's token once (a new session and a new token each time), then the cookie;
/// the studio's own origin and host only.
@Suite("The web studio's access rules")
struct AccessGuardTests {
    /// Secrets in the order the guard asks for them: the first token, then per exchange a
    /// session and the next token.
    private static func access(_ hosts: AccessGuard.Hosts = .loopback) -> AccessGuard {
        let secrets = Mutex(["t0ken", "s3ssion", "t0ken2", "s3ssion2", "t0ken3"])
        return AccessGuard(hosts: hosts) { secrets.withLock { $0.isEmpty ? "spent" : $0.removeFirst() } }
    }

    private func verdict(
        _ access: AccessGuard, token: String? = nil, cookies: String? = nil, origin: String? = nil, host: String? = "127.0.0.1:8765",
        webSocket: Bool = false
    ) -> AccessGuard.Verdict {
        access.verdict(queryToken: token, cookies: cookies, origin: origin, host: host, scheme: "http", isWebSocket: webSocket)
    }

    @Test("the link's token is exchanged once for an HttpOnly, SameSite=Strict cookie; the cookie then lets requests in")
    func tokenThenCookie() {
        let access = Self.access()
        #expect(access.token == "t0ken")
        #expect(verdict(access, token: "t0ken") == .exchangeToken(cookie: "narrate_session=s3ssion; HttpOnly; SameSite=Strict; Path=/", nextToken: "t0ken2"))
        #expect(access.token == "t0ken2")
        #expect(verdict(access, cookies: "other=1; narrate_session=s3ssion") == .allow)
        #expect(verdict(access, cookies: "narrate_session=s3ssion", origin: "http://127.0.0.1:8765", webSocket: true) == .allow)
    }

    @Test("a used token lets nobody in again; the next link makes a second session and both stay valid")
    func singleUse() {
        let access = Self.access()
        _ = verdict(access, token: "t0ken")
        let used = AccessGuard.Verdict.refuse(
            status: 401, sentence: "That link was used already or is not this studio's: each link lets one browser in, so open the newest link narrate serve gave.")
        #expect(verdict(access, token: "t0ken") == used)
        // The browser that used it, reloading the link, is sent on to the page.
        #expect(verdict(access, token: "t0ken", cookies: "narrate_session=s3ssion") == .goHome)
        #expect(verdict(access, token: "t0ken2") == .exchangeToken(cookie: "narrate_session=s3ssion2; HttpOnly; SameSite=Strict; Path=/", nextToken: "t0ken3"))
        #expect(verdict(access, cookies: "narrate_session=s3ssion") == .allow)
        #expect(verdict(access, cookies: "narrate_session=s3ssion2") == .allow)
    }

    @Test("a wrong or missing token or cookie is refused with 401")
    func refused() {
        let access = Self.access()
        #expect(verdict(access, token: "t0keN") == .refuse(status: 401, sentence: "That link was used already or is not this studio's: each link lets one browser in, so open the newest link narrate serve gave."))
        #expect(verdict(access) == .refuse(status: 401, sentence: "Open the studio with the link narrate serve printed (it carries a token)."))
        #expect(verdict(access, cookies: "narrate_session=s3ssio") == verdict(access))
        #expect(verdict(access, cookies: "narrate_session=") == verdict(access))
        #expect(verdict(access, cookies: "narrate_session=t0ken") == verdict(access))  // the token is not a session
    }

    @Test("another page's origin, a WebSocket without one, and a foreign host name are refused with 403")
    func origins() {
        let access = Self.access()
        _ = verdict(access, token: "t0ken")
        let cookie = "narrate_session=s3ssion"
        #expect(verdict(access, cookies: cookie, origin: "http://evil.example") == .refuse(status: 403, sentence: "Requests from other pages are refused: open the studio's own link."))
        #expect(verdict(access, cookies: cookie, origin: "https://127.0.0.1:8765") == verdict(access, cookies: cookie, origin: "http://evil.example"))
        #expect(verdict(access, cookies: cookie, webSocket: true) == .refuse(status: 403, sentence: "A live connection must come from the studio's page."))
        // DNS rebinding: a name that resolves here but is not a loopback name.
        let foreign = AccessGuard.Verdict.refuse(status: 403, sentence: "This studio answers only to 127.0.0.1 and localhost.")
        #expect(verdict(access, cookies: cookie, origin: "http://evil.example:8765", host: "evil.example:8765") == foreign)
        #expect(verdict(access, cookies: cookie, host: "127.evil.example:8765") == foreign)
        #expect(verdict(access, cookies: cookie, host: "127.0.0.1.evil.example") == foreign)
        #expect(verdict(access, cookies: cookie, host: "localhost.evil.example") == foreign)
        #expect(verdict(access, cookies: cookie, origin: "http://localhost:8765", host: "localhost:8765") == .allow)
        #expect(verdict(access, cookies: cookie, host: "[::1]:8765") == .allow)
        #expect(verdict(access, cookies: cookie, host: "127.1.2.3") == .allow)
        #expect(verdict(access, cookies: cookie, host: "127.0.0.1:99999") == .refuse(status: 400, sentence: "The request named no host."))
        #expect(verdict(access, cookies: cookie, host: "") == .refuse(status: 400, sentence: "The request named no host."))
    }

    @Test("plain http off loopback answers to this machine's own names only; https to any")
    func offLoopback() {
        let plain = Self.access(.these(["192.168.1.20", "booth"]))
        _ = verdict(plain, token: "t0ken")
        let cookie = "narrate_session=s3ssion"
        #expect(verdict(plain, cookies: cookie, host: "192.168.1.20:8765") == .allow)
        #expect(verdict(plain, cookies: cookie, host: "BOOTH:8765") == .allow)
        #expect(verdict(plain, cookies: cookie, host: "localhost:8765") == .allow)
        #expect(verdict(plain, cookies: cookie, host: "evil.example:8765") == .refuse(status: 403, sentence: "This studio answers only to this computer's own names and addresses."))
        let secure = Self.access(.any)
        _ = verdict(secure, token: "t0ken")
        #expect(verdict(secure, cookies: cookie, host: "studio.example.org:8443") == .allow)
    }

    @Test("Host headers are read as name and port, not by their first characters", arguments: [
        ("127.0.0.1:8765", true), ("127.255.0.9", true), ("localhost", true), ("LOCALHOST:80", true), ("localhost.:80", true),
        ("[::1]:8765", true), ("[0:0:0:0:0:0:0:1]", true), ("[::ffff:127.0.0.1]:1", true),
        ("127.evil.example", false), ("127.0.0.1.nip.io", false), ("127.0.0.256", false), ("127.0.0", false), ("0127.0.0.1", false),
        ("128.0.0.1", false), ("[::2]", false), ("[::1", false), ("localhost:", false), ("localhost:x", false), ("::1", false),
    ])
    func loopback(header: String, isLoopback: Bool) {
        #expect((HostName(header)?.isLoopback ?? false) == isLoopback)
    }

    @Test("secrets are 64 hex digits and differ each time")
    func secrets() {
        let a = AccessGuard.randomSecret(), b = AccessGuard.randomSecret()
        #expect(a.count == 64 && a.allSatisfy(\.isHexDigit))
        #expect(a != b)
    }
}
