public import Foundation

/// A one-time invitation to set an account's passphrase, as it is handed to the person: the
/// link, the secret in it, and when it stops working. The catalog keeps only the secret's hash.
public struct Invitation: Sendable, Equatable {
    /// How long an invitation works: seven days.
    public static let lifetime: TimeInterval = 7 * 24 * 60 * 60

    public let account: AccountName
    /// The secret (43 characters of base64url, 256 random bits): shown once, never stored.
    public let token: String
    public let expiresAt: Date

    public init(account: AccountName, token: String, expiresAt: Date) {
        self.account = account
        self.token = token
        self.expiresAt = expiresAt
    }

    /// The link to send the person: the service's `address`, the invitation page, and the
    /// account and secret after `#`, which browsers never send to a server, so that no proxy or
    /// access log keeps the secret (the page reads it and posts it).
    public func link(at address: ServiceAddress) -> String {
        "\(address.rawValue)/invitation#account=\(account.rawValue)&token=\(token)"
    }
}

/// The address people reach the service at, as config.toml's `[service] address` gives it:
/// `https://` or `http://`, a host, an optional port and path, no query or fragment.
public struct ServiceAddress: Sendable, Equatable, CustomStringConvertible {
    /// `narrate serve`'s own address when nothing is configured: reachable on this computer only.
    public static let local = ServiceAddress(checked: "http://127.0.0.1:8765")

    /// Without a trailing slash.
    public let rawValue: String

    /// The address `text`, checked.
    /// - Throws: `usage` saying what an address looks like.
    public init(_ text: String) throws(NarrationError) {
        let lower = text.lowercased()
        let scheme = lower.hasPrefix("https://") ? "https://" : lower.hasPrefix("http://") ? "http://" : nil
        var trimmed = text
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let scheme, trimmed.count > scheme.count, trimmed.count <= 2000,
              !trimmed.contains(where: { $0 == "?" || $0 == "#" || $0 == "\"" || $0 == "<" || $0 == ">" || $0.isWhitespace || $0.unicodeScalars.contains { $0.properties.generalCategory == .control } }),
              !trimmed.dropFirst(scheme.count).hasPrefix("/")
        else {
            throw .usage("must be the address people reach the service at, starting with https:// (or http://), without ? or #, e.g. \"https://narrate.example.org\"")
        }
        rawValue = trimmed
    }

    private init(checked: String) { rawValue = checked }

    public var description: String { rawValue }
}
