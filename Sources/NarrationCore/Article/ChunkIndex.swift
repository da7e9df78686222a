/// The 1-based position of a chunk in its article, as volunteers see it ("chunk 3").
///
/// The only place where the 1-based index and the 0-based array position meet.
public struct ChunkIndex: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let number: Int

    public init(_ number: Int) { self.number = number }
    public init(position: Int) { self.number = position + 1 }

    /// The 0-based array position.
    public var position: Int { number - 1 }

    public static func < (lhs: ChunkIndex, rhs: ChunkIndex) -> Bool { lhs.number < rhs.number }
    public var description: String { String(number) }
}
