import Foundation
import SQLEngines

/// A row type of the catalog: `Codable`, its stored properties named as its table's columns, so
/// that one type reads and writes its rows on either engine (`SQLEngine`).
///
/// Values are stored as GRDB stored them, so that a catalog GRDB wrote reads the same: text,
/// integers, reals, bytes (`Data`); a `Bool` as 0 or 1; a `Date` as `CatalogTime` text. A value
/// of another type, or a column a row lacks, throws `SQLEngineError.unexpectedValue` naming the
/// column, which the catalog reports as a damaged entry.
///
/// Written here, not taken from a library: GRDB's records speak to SQLite only, and postgres-nio
/// decodes its own rows; this is the one mapping both engines' rows share.
protocol CatalogRecord: Codable {
    /// The table the rows live in.
    static var table: String { get }
    /// The columns that name one row (its primary key).
    static var key: [String] { get }
    /// The row of `row`. By default read through `Codable`; a row type read by the thousand
    /// (a chunk's) reads its columns itself.
    init(decoding row: SQLRow) throws
}

extension CatalogRecord {
    /// The rows of the table, all of them or those `condition` (what follows `WHERE`, with its
    /// `ORDER BY` if any) selects.
    static func all(_ sql: any SQLTransaction, where condition: String? = nil, _ arguments: SQLValue...) throws -> [Self] {
        let query = "SELECT * FROM \(table)" + (condition.map { " WHERE \($0)" } ?? "")
        return try sql.rows(query, arguments).map { try Self(decoding: $0) }
    }

    /// All rows, in the order `order` gives (what follows `ORDER BY`).
    static func all(_ sql: any SQLTransaction, orderedBy order: String) throws -> [Self] {
        try sql.rows("SELECT * FROM \(table) ORDER BY \(order)", []).map { try Self(decoding: $0) }
    }

    /// The rows whose `column` holds one of `values`, read a few hundred values at a time (each
    /// engine bounds the values one statement may bind).
    static func all(_ sql: any SQLTransaction, whereColumn column: String, in values: [SQLValue]) throws -> [Self] {
        var rows: [Self] = []
        var start = 0
        while start < values.count {
            let batch = Array(values[start..<min(start + 500, values.count)])
            rows += try sql.rows("SELECT * FROM \(table) WHERE \(column) IN (\(placeholders(batch.count)))", batch).map { try Self(decoding: $0) }
            start += batch.count
        }
        return rows
    }

    /// The row whose key is `values` (in the order of `key`), if there is one.
    static func one(_ sql: any SQLTransaction, key values: SQLValue...) throws -> Self? {
        try sql.row("SELECT * FROM \(table) WHERE \(keyCondition)", values).map { try Self(decoding: $0) }
    }

    /// Whether the row whose key is `values` exists.
    static func exists(_ sql: any SQLTransaction, key values: SQLValue...) throws -> Bool {
        try sql.row("SELECT 1 AS found FROM \(table) WHERE \(keyCondition)", values) != nil
    }

    /// Deletes the row whose key is `values`; whether there was one.
    @discardableResult
    static func delete(_ sql: any SQLTransaction, key values: SQLValue...) throws -> Bool {
        try sql.execute("DELETE FROM \(table) WHERE \(keyCondition)", values) > 0
    }

    /// The row of `row`, read column by column through its `Codable` conformance.
    init(decoding row: SQLRow) throws {
        try self.init(from: RowDecoder(row: row))
    }

    /// The row's columns and their values, every column named (a nil as NULL).
    func columns() throws -> [(name: String, value: SQLValue)] {
        let encoder = RowEncoder()
        try encode(to: encoder)
        return encoder.columns.values
    }

    /// Inserts the row; a column left nil takes its default (an id the engine numbers, say).
    func insert(_ sql: any SQLTransaction) throws {
        let columns = try columns().filter { $0.value != .null }
        try sql.execute(
            "INSERT INTO \(Self.table) (\(columns.map(\.name).joined(separator: ", "))) VALUES (\(Self.placeholders(columns.count)))",
            columns.map(\.value))
    }

    /// Writes every column of the row whose key is this row's.
    func update(_ sql: any SQLTransaction) throws {
        let columns = try columns()
        let others = columns.filter { !Self.key.contains($0.name) }
        try sql.execute(
            "UPDATE \(Self.table) SET \(others.map { "\($0.name) = ?" }.joined(separator: ", ")) WHERE \(Self.keyCondition)",
            others.map(\.value) + keyValues(columns))
    }

    /// Inserts the row, or writes every column of the row with the same key.
    func save(_ sql: any SQLTransaction) throws {
        let columns = try columns()
        let others = columns.filter { !Self.key.contains($0.name) }
        let onConflict = others.isEmpty
            ? "DO NOTHING" : "DO UPDATE SET " + others.map { "\($0.name) = excluded.\($0.name)" }.joined(separator: ", ")
        try sql.execute(
            """
            INSERT INTO \(Self.table) (\(columns.map(\.name).joined(separator: ", "))) VALUES (\(Self.placeholders(columns.count)))
            ON CONFLICT (\(Self.key.joined(separator: ", "))) \(onConflict)
            """,
            columns.map(\.value))
    }

    /// Deletes the row whose key is this row's.
    func delete(_ sql: any SQLTransaction) throws {
        try sql.execute("DELETE FROM \(Self.table) WHERE \(Self.keyCondition)", keyValues(try columns()))
    }

    private func keyValues(_ columns: [(name: String, value: SQLValue)]) -> [SQLValue] {
        Self.key.map { name in columns.first { $0.name == name }?.value ?? .null }
    }

    private static var keyCondition: String {
        key.map { "\($0) = ?" }.joined(separator: " AND ")
    }

    private static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }
}

// MARK: Encoding a row

/// Collects a record's columns in the order its properties encode them.
private final class RowEncoder: Encoder {
    final class Columns {
        var values: [(name: String, value: SQLValue)] = []
    }
    let columns = Columns()
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Container(columns: columns))
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { preconditionFailure("a catalog row is keyed by its columns") }
    func singleValueContainer() -> any SingleValueEncodingContainer { preconditionFailure("a catalog row is keyed by its columns") }

    struct Container<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let columns: Columns
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil(forKey key: Key) throws { columns.values.append((key.stringValue, .null)) }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            columns.values.append((key.stringValue, try Self.value(value, column: key.stringValue)))
        }

        // An optional left nil is a NULL, so that `update` clears what the row no longer has.
        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try encodeOptional(value, key) }
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try encodeOptional(value, key) }
        mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try encodeOptional(value, key) }
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try encodeOptional(value, key) }
        mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try encodeOptional(value, key) }

        private mutating func encodeOptional<T: Encodable>(_ value: T?, _ key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }

        static func value(_ value: some Encodable, column: String) throws -> SQLValue {
            switch value {
            case let value as String: return .text(value)
            case let value as Int: return .integer(Int64(value))
            case let value as Int64: return .integer(value)
            case let value as Double: return .real(value)
            case let value as Bool: return .boolean(value)
            case let value as Date: return .text(CatalogTime.text(value))
            case let value as Data: return .blob([UInt8](value))
            default: throw SQLEngineError.unexpectedValue(column: column, found: "a value of type \(type(of: value)), which no column holds")
            }
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            preconditionFailure("a catalog row's columns hold single values")
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            preconditionFailure("a catalog row's columns hold single values")
        }
        mutating func superEncoder() -> any Encoder { preconditionFailure("a catalog row has no superclass") }
        mutating func superEncoder(forKey key: Key) -> any Encoder { preconditionFailure("a catalog row has no superclass") }
    }
}

// MARK: Decoding a row

/// Reads a record's properties from the columns of the same names.
private struct RowDecoder: Decoder {
    let row: SQLRow
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Container(row: row))
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw SQLEngineError.unexpectedValue(column: "?", found: "a row read as a list")
    }
    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw SQLEngineError.unexpectedValue(column: "?", found: "a row read as one value")
    }

    struct Container<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let row: SQLRow
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { row.columns.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { (try? row[key.stringValue]) != nil }

        func decodeNil(forKey key: Key) throws -> Bool { try row[key.stringValue] == .null }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            let column = key.stringValue
            let value = try row[column]
            let decoded: Any? = switch (type, value) {
            case (is String.Type, .text(let text)): text
            case (is Int.Type, .integer(let number)): Int(exactly: number)
            case (is Int64.Type, .integer(let number)): number
            case (is Double.Type, .real(let number)): number
            case (is Double.Type, .integer(let number)): Double(number)
            case (is Bool.Type, .integer(let number)): number == 0 ? false : number == 1 ? true : nil
            case (is Date.Type, .text(let text)): CatalogTime.date(text)
            case (is Data.Type, .blob(let bytes)): Data(bytes)
            default: nil
            }
            guard let typed = decoded as? T else {
                throw SQLEngineError.unexpectedValue(column: column, found: String(describing: value))
            }
            return typed
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            throw SQLEngineError.unexpectedValue(column: key.stringValue, found: "a column read as a row")
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            throw SQLEngineError.unexpectedValue(column: key.stringValue, found: "a column read as a list")
        }
        func superDecoder() throws -> any Decoder { RowDecoder(row: row) }
        func superDecoder(forKey key: Key) throws -> any Decoder { RowDecoder(row: row) }
    }
}
