import NIOCore

/// A `Host` header read as RFC 9110 has it, `name[:port]` or `[IPv6]:port`, rather than by its
/// first characters: `127.evil.example` is a name, not a loopback address.
struct HostName: Equatable {
    /// Lower case, without brackets or a trailing dot.
    var name: String
    var port: Int?
    /// Whether `name` was an IPv6 literal in brackets.
    var isIPv6: Bool

    /// Nil for what is not a host: an empty name, a port that is not 1 to 5 digits up to 65535,
    /// unbalanced brackets, characters no host name has.
    init?(_ header: String) {
        var rest = Substring(header)
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            name = rest[rest.index(after: rest.startIndex)..<close].lowercased()
            isIPv6 = true
            rest = rest[rest.index(after: close)...]
            guard !name.isEmpty, name.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return nil }
        } else {
            let colon = rest.firstIndex(of: ":")
            var text = colon.map { rest[..<$0] } ?? rest
            if text.hasSuffix("."), text.count > 1 { text = text.dropLast() }
            name = text.lowercased()
            isIPv6 = false
            rest = colon.map { rest[$0...] } ?? ""
            let allowed = name.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "-" || $0 == "." }
            guard !name.isEmpty, allowed else { return nil }
        }
        if rest.isEmpty {
            port = nil
        } else {
            let digits = rest.dropFirst()
            guard rest.first == ":", (1...5).contains(digits.count), digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
                let number = Int(digits), number <= 65535
            else { return nil }
            port = number
        }
    }

    /// localhost, an IPv4 address in 127.0.0.0/8 (four decimal parts), or ::1 (also written out,
    /// or as ::ffff:127.x.x.x).
    var isLoopback: Bool {
        if isIPv6 {
            guard let canonical = try? SocketAddress(ipAddress: name, port: 0).ipAddress else { return false }
            if canonical == "::1" { return true }
            return canonical.hasPrefix("::ffff:") && Self.ipv4(String(canonical.dropFirst(7)))?.first == 127
        }
        return name == "localhost" || Self.ipv4(name)?.first == 127
    }

    /// The four parts of a dotted-quad IPv4 address, each 0…255 written in one to three digits.
    static func ipv4(_ text: String) -> [Int]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        let numbers = parts.compactMap { part -> Int? in
            guard (1...3).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(part), value <= 255 else { return nil }
            return value
        }
        return numbers.count == 4 ? numbers : nil
    }
}
