import NarrationCore
import Testing
@testable import WebStudio

/// A reverse proxy's X-Forwarded-* headers are believed from the proxy's address only.
@Suite("The trusted proxy")
struct ProxyTrustTests {
    private func resolve(
        _ trust: ProxyTrust, peer: String?, forwardedFor: String? = "203.0.113.7", proto: String? = "https", forwardedHost: String? = "narrate.example.org",
        host: String? = "127.0.0.1:8765"
    ) -> ProxyTrust.Resolved {
        trust.resolve(peer: peer, forwardedFor: forwardedFor, forwardedProto: proto, forwardedHost: forwardedHost, host: host, scheme: "http")
    }

    @Test("from the proxy: the client, scheme and host it forwards")
    func fromProxy() throws {
        let trust = try ProxyTrust(proxy: "127.0.0.1")
        #expect(resolve(trust, peer: "127.0.0.1") == .init(client: "203.0.113.7", scheme: "https", host: "narrate.example.org"))
        // A dual-stack listener sees the proxy as an IPv4-mapped IPv6 address.
        #expect(resolve(trust, peer: "::ffff:127.0.0.1") == .init(client: "203.0.113.7", scheme: "https", host: "narrate.example.org"))
        // The proxy appends what it saw: the client's own X-Forwarded-For entries in front are not believed.
        #expect(resolve(trust, peer: "127.0.0.1", forwardedFor: "10.9.9.9, 198.51.100.4").client == "198.51.100.4")
    }

    @Test("from anyone else: the headers are ignored, whatever they say")
    func fromOthers() throws {
        let trust = try ProxyTrust(proxy: "127.0.0.1")
        #expect(resolve(trust, peer: "192.0.2.10") == .init(client: "192.0.2.10", scheme: "http", host: "127.0.0.1:8765"))
        #expect(resolve(.none, peer: "127.0.0.1") == .init(client: "127.0.0.1", scheme: "http", host: "127.0.0.1:8765"))
        #expect(resolve(.none, peer: nil).client == "unknown")
    }

    @Test("what the proxy forwards is checked: a made-up address, scheme or host falls back to the connection's own")
    func checked() throws {
        let trust = try ProxyTrust(proxy: "::1")
        let odd = resolve(trust, peer: "::1", forwardedFor: "not an address, \u{0}", proto: "gopher", forwardedHost: "evil example/")
        #expect(odd == .init(client: "::1", scheme: "http", host: "127.0.0.1:8765"))
        #expect(resolve(trust, peer: "::1", forwardedFor: String(repeating: "9", count: 100_000)).client == "::1")
    }

    @Test("the proxy is an IP address, not a name or anything else", arguments: ["proxy.local", "", "127.0.0.1:80", "1.2.3", "::g", "[::1", "x"])
    func notAnAddress(text: String) {
        #expect(throws: NarrationError.self) { try ProxyTrust(proxy: text) }
        #expect(!WebStudioServer.isProxyAddress(text))
    }

    @Test("IPv4 and IPv6 addresses, IPv6 with or without brackets")
    func addresses() throws {
        #expect(try ProxyTrust(proxy: "10.0.0.1").proxy == "10.0.0.1")
        #expect(try ProxyTrust(proxy: "[::1]").proxy == "::1")
        #expect(try ProxyTrust(proxy: "2001:DB8::1").proxy == "2001:db8::1")
    }
}
