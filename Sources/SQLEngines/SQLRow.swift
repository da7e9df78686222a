/// One row of a query's answer: its values by column name, read as the type the caller expects.
///
/// Reading a column as the wrong type, or one the query did not select, throws
/// `SQLEngineError.unexpectedValue` naming the column: a catalog written by a different
/// version, or a query out of step with its reader, is an error, never a trap.
public struct SQLRow: Sendable, Equatable {
    public let columns: [String]
    public let values: [SQLValue]

    public init(columns: [String], values: [SQLValue]) {
        precondition(columns.count == values.count, "a row has one value per column")
        self.columns = columns
        self.values = values
    }

    /// The value of `column` (named in any case); `.null` is a value, a column the query did not select throws.
    public subscript(_ column: String) -> SQLValue {
        get throws(SQLEngineError) {
            // SQL names are the same in any case unless quoted, and PostgreSQL gives them back in lower case.
            guard let index = columns.firstIndex(of: column) ?? columns.firstIndex(where: { $0.lowercased() == column.lowercased() }) else {
                throw .unexpectedValue(column: column, found: "no such column")
            }
            return values[index]
        }
    }

    public func integer(_ column: String) throws(SQLEngineError) -> Int64 {
        guard case .integer(let value) = try self[column] else { throw mismatch(column, "an integer") }
        return value
    }

    public func int(_ column: String) throws(SQLEngineError) -> Int {
        let value = try integer(column)
        guard let int = Int(exactly: value) else { throw mismatch(column, "an integer") }
        return int
    }

    /// A real column; an integer one is read as a real too (SQLite stores 2.0 as 2).
    public func real(_ column: String) throws(SQLEngineError) -> Double {
        switch try self[column] {
        case .real(let value): return value
        case .integer(let value): return Double(value)
        default: throw mismatch(column, "a number")
        }
    }

    public func optionalReal(_ column: String) throws(SQLEngineError) -> Double? {
        if case .null = try self[column] { return nil }
        return try real(column)
    }

    /// An integer column that may be NULL.
    public func optionalInteger(_ column: String) throws(SQLEngineError) -> Int64? {
        if case .null = try self[column] { return nil }
        return try integer(column)
    }

    /// A text column that may be NULL.
    public func optionalText(_ column: String) throws(SQLEngineError) -> String? {
        if case .null = try self[column] { return nil }
        return try text(column)
    }

    public func text(_ column: String) throws(SQLEngineError) -> String {
        guard case .text(let value) = try self[column] else { throw mismatch(column, "text") }
        return value
    }

    public func boolean(_ column: String) throws(SQLEngineError) -> Bool {
        switch try integer(column) {
        case 0: return false
        case 1: return true
        default: throw mismatch(column, "0 or 1")
        }
    }

    public func blob(_ column: String) throws(SQLEngineError) -> [UInt8] {
        guard case .blob(let value) = try self[column] else { throw mismatch(column, "bytes") }
        return value
    }

    /// `read(self)`, or nil when it throws: for a reader that checks every value of a row and
    /// reports the row whole. Unlike `try?`, it keeps a NULL read as nil apart from a value of the
    /// wrong type (`String??`).
    public func checked<T>(_ read: (SQLRow) throws -> T) -> T? {
        do { return try read(self) } catch { return nil }
    }

    private func mismatch(_ column: String, _ wanted: String) -> SQLEngineError {
        let found = (try? self[column]).map { "\($0)" } ?? "nothing"
        return .unexpectedValue(column: column, found: "\(found), not \(wanted)")
    }
}
