/// Short random identifiers that are easy to read aloud and to type: 8 characters of Crockford
/// base 32 (no i, l, o, u), e.g. `k3f9x2ab`. 40 random bits keep collisions negligible across an
/// organisation's articles, and the id appears in delivered file names.
public enum Identifier {
    static let alphabet = Array("0123456789abcdefghjkmnpqrstvwxyz")

    /// A new random identifier of `length` characters.
    public static func random(length: Int = 8) -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<length).map { _ in alphabet[Int(generator.next(upperBound: UInt32(alphabet.count)))] })
    }

    /// Whether `text` could be an identifier (or a prefix of one) we made.
    public static func isWellFormed(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 32 && text.allSatisfy { alphabet.contains($0) }
    }
}

/// The identifier of an article: its folder name under `articles/` and part of delivered names.
public struct ArticleID: Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static func random() -> ArticleID { ArticleID(Identifier.random()) }
    public var description: String { rawValue }
}

/// The identifier of a chunk: its file name. Chunk files are never renamed; order lives in the catalog.
public struct ChunkID: Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static func random() -> ChunkID { ChunkID(Identifier.random(length: 12)) }
    public var description: String { rawValue }
}
