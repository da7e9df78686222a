/// How soon an article should be read, as the desk sorts it: urgent first, low last.
///
/// The raw values are what the catalog keeps (0 to 3, checked there too); the names are how the
/// command line, listings and JSON spell them.
public enum DeskPriority: Int, Sendable, CaseIterable, Comparable, CustomStringConvertible {
    case low = 0
    case normal = 1
    case high = 2
    case urgent = 3

    public var name: String {
        switch self {
        case .low: "low"
        case .normal: "normal"
        case .high: "high"
        case .urgent: "urgent"
        }
    }

    public var description: String { name }

    /// The priority called `text`.
    /// - Throws: `usage` naming the text and the four levels.
    public init(naming text: String) throws(NarrationError) {
        guard let level = Self.allCases.first(where: { $0.name == text }) else {
            throw .usage("\"\(Role.quoted(text))\" is not a priority: give low, normal, high or urgent.")
        }
        self = level
    }

    public static func < (lhs: DeskPriority, rhs: DeskPriority) -> Bool { lhs.rawValue < rhs.rawValue }
}
