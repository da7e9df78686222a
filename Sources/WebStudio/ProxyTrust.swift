import NarrationCore
import NIOCore

/// Who a request comes from, and how the browser reached the service, when a reverse proxy
/// (nginx, Caddy) stands in front of it: the proxy's `X-Forwarded-For`, `-Proto` and `-Host`
/// are believed only when the connection comes from the proxy's own address; from anyone else
/// they are ignored, so that no client can choose the address the sign-in limit counts.
struct ProxyTrust: Sendable, Equatable {
    /// The proxy's address, as NIO writes addresses; nil when there is no proxy.
    let proxy: String?

    /// No proxy: every request is taken as it came.
    static let none = ProxyTrust(checkedProxy: nil)

    /// The proxy at `address` (an IPv4 or IPv6 address, not a name).
    /// - Throws: `usage` when `address` is not an IP address.
    init(proxy address: String) throws(NarrationError) {
        let bare = address.hasPrefix("[") && address.hasSuffix("]") ? String(address.dropFirst().dropLast()) : address
        guard let parsed = try? SocketAddress(ipAddress: bare, port: 0), let text = parsed.ipAddress else {
            throw .usage("\"\(bare.prefix(60))\" is not an IP address: give the proxy's address, e.g. 127.0.0.1.")
        }
        proxy = Self.normalized(text)
    }

    private init(checkedProxy: String?) { proxy = checkedProxy }

    /// A request's client and how the browser reached the service.
    struct Resolved: Equatable {
        /// The client's address: the peer, or from the trusted proxy the address it forwards.
        var client: String
        /// "http" or "https" as the browser sees the service.
        var scheme: String
        /// The `Host` the browser used, if known.
        var host: String?
    }

    /// The client address of a connection whose peer is not known.
    static let unknownPeer = "unknown"

    /// - Parameters:
    ///   - peer: the connection's remote address.
    ///   - scheme: how this server itself serves ("https" with TLS).
    func resolve(
        peer: String?, forwardedFor: String?, forwardedProto: String?, forwardedHost: String?, host: String?, scheme: String
    ) -> Resolved {
        let peer = peer.map(Self.normalized) ?? Self.unknownPeer
        guard let proxy, peer == proxy else { return Resolved(client: peer, scheme: scheme, host: host) }
        // The proxy appends the address it saw last: the rightmost entry is the one it vouches for.
        let forwarded = forwardedFor?.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) }
        let client = forwarded.flatMap { text in (try? SocketAddress(ipAddress: text, port: 0))?.ipAddress }.map(Self.normalized) ?? peer
        let proto = forwardedProto?.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let forwardedScheme = proto == "https" || proto == "http" ? proto! : scheme
        let firstHost = forwardedHost?.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) }
        let validHost = firstHost.flatMap { HostName($0) != nil ? $0 : nil }
        return Resolved(client: client, scheme: forwardedScheme, host: validHost ?? host)
    }

    /// An IPv4 address mapped into IPv6 (`::ffff:10.0.0.1`, as a dual-stack listener sees it)
    /// as the plain IPv4 address; other addresses lower case.
    static func normalized(_ address: String) -> String {
        let lower = address.lowercased()
        if lower.hasPrefix("::ffff:"), lower.dropFirst(7).contains(".") { return String(lower.dropFirst(7)) }
        return lower
    }
}
