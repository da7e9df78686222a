/// A value bound to a statement or read from a row, in the types both engines store alike.
///
/// Booleans are stored as integers (0 and 1) and times as seconds since 1970 (`real`), so that
/// the same statements read and write the same values on SQLite and on PostgreSQL.
public enum SQLValue: Sendable, Equatable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    public static func integer(_ value: Int) -> SQLValue { .integer(Int64(value)) }
    public static func boolean(_ value: Bool) -> SQLValue { .integer(value ? 1 : 0) }
}

extension SQLValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByNilLiteral {
    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .real(value) }
    public init(nilLiteral: ()) { self = .null }
}

extension SQLValue: CustomStringConvertible {
    /// The value as a sentence shows it: text in double quotes, NULL, a count of bytes.
    public var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let value): "\(value)"
        case .real(let value): "\(value)"
        case .text(let value): "\"\(value)\""
        case .blob(let bytes): "Data(\(bytes.count) bytes)"
        }
    }
}
