/// The name a person signs in with and every command names their account by: 1 to 32 lowercase
/// letters (a–z), digits, dots, hyphens and underscores, starting with a letter or a digit
/// (`ann`, `ann.lee`, `reader-7`).
///
/// Names are never changed once given, so the catalog keys accounts by them. Only lowercase
/// ASCII is accepted, so that two names that look alike ("Ann" and "ann", or a Cyrillic "а")
/// can never be two accounts.
public struct AccountName: Hashable, Sendable, Comparable, Codable, CustomStringConvertible {
    public let rawValue: String

    /// The longest name accepted.
    public static let maximumLength = 32

    /// The name `text`, checked.
    /// - Throws: `usage` naming the text and what a name may hold.
    public init(_ text: String) throws(NarrationError) {
        let allowed = text.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
        let startsWell = text.utf8.first.map { $0 != UInt8(ascii: ".") && $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: "_") } ?? false
        guard allowed, startsWell, text.utf8.count <= Self.maximumLength else {
            throw .usage(
                "\"\(Role.quoted(text))\" is not an account name: use 1 to \(Self.maximumLength) lowercase letters (a–z), digits, dots, hyphens or underscores, starting with a letter or a digit, e.g. ann.lee.")
        }
        rawValue = text
    }

    public var description: String { rawValue }

    public static func < (lhs: AccountName, rhs: AccountName) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do { self = try AccountName(text) } catch { throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
