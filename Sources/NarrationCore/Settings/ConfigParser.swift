import Foundation

/// A value in the configuration file.
public enum ConfigValue: Sendable, Equatable {
    case string(String)
    case integer(Int)
    case float(Double)
    case boolean(Bool)
    case table([String: ConfigValue])
    /// A one-line array of strings, numbers or booleans: `carries = ["audio", "feed"]`.
    case array([ConfigValue])

    public var string: String? { if case .string(let value) = self { value } else { nil } }
    public var array: [ConfigValue]? { if case .array(let value) = self { value } else { nil } }
    public var table: [String: ConfigValue]? { if case .table(let value) = self { value } else { nil } }
    /// The value as config.toml writes it: `"Ann Lee"`, `96`, `-18.5`, `true`, `["audio", "feed"]`.
    public var written: String {
        switch self {
        case .string(let value):
            "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                .replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\t", with: "\\t") + "\""
        case .integer(let value): String(value)
        case .float(let value): String(value)
        case .boolean(let value): String(value)
        case .array(let values): "[" + values.map(\.written).joined(separator: ", ") + "]"
        case .table(let table): "{" + table.keys.sorted().map { "\($0) = \(table[$0]!.written)" }.joined(separator: ", ") + "}"
        }
    }
    public var number: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .float(let value): value
        default: nil
        }
    }
}

/// Reads the TOML that `config.toml` uses: `# comments`, `key = value` lines with basic or literal
/// strings, integers, floats and booleans, one-line arrays of those, and `[table]` /
/// `[table.sub]` headers.
///
/// Written here because no TOML library can be used on this project's machines: TOMLKit needs
/// swift-checkit, which the package mirror does not hold, and swift-configuration reads JSON,
/// YAML and property lists only. Anything outside the subset (nested or multi-line arrays, inline tables, dates,
/// multi-line strings) is refused with the line number, never guessed at; the parser never traps.
public enum ConfigParser {
    public static func parse(_ text: String, file: String) throws(NarrationError) -> [String: ConfigValue] {
        try document(text, file: file).values
    }

    /// `parse`, keeping the line of every key and table header; the same values and the same
    /// refusals, word for word.
    public static func document(_ text: String, file: String) throws(NarrationError) -> ConfigDocument {
        var root: [String: ConfigValue] = [:]
        var lines: [[String]: Int] = [:]
        var currentPath: [String] = []
        var seenTables: Set<[String]> = []
        for (number, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            func fail(_ reason: String) -> NarrationError {
                NarrationError(.usage, "\(file), line \(number + 1): \(reason). Fix the line or remove it.")
            }
            let line = stripComment(String(rawLine)).trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]"), !line.hasPrefix("[[") else { throw fail("a table header looks like [name]") }
                let path = try keyPath(String(line.dropFirst().dropLast()), fail: fail)
                guard seenTables.insert(path).inserted else { throw fail("the table [\(path.joined(separator: "."))] appears twice") }
                guard insert(.table([:]), at: path, into: &root, replacing: false) else {
                    throw fail("[\(path.joined(separator: "."))] clashes with a value of the same name")
                }
                currentPath = path
                lines[path] = number + 1
                continue
            }
            guard let equals = line.firstIndex(of: "=") else { throw fail("expected key = value") }
            let key = try keyPath(String(line[..<equals]), fail: fail)
            let value = try parseValue(String(line[line.index(after: equals)...]).trimmingCharacters(in: .whitespaces), fail: fail)
            guard insert(value, at: currentPath + key, into: &root, replacing: false) else {
                throw fail("\((currentPath + key).joined(separator: ".")) is set twice")
            }
            lines[currentPath + key] = number + 1
        }
        return ConfigDocument(values: root, lines: lines)
    }

    private static func stripComment(_ line: String) -> String {
        var inBasic = false
        var inLiteral = false
        var escaped = false
        for (offset, character) in line.enumerated() {
            if escaped { escaped = false; continue }
            switch character {
            case "\\" where inBasic: escaped = true
            case "\"" where !inLiteral: inBasic.toggle()
            case "'" where !inBasic: inLiteral.toggle()
            case "#" where !inBasic && !inLiteral: return String(line.prefix(offset))
            default: break
            }
        }
        return line
    }

    private static func keyPath(_ text: String, fail: (String) -> NarrationError) throws(NarrationError) -> [String] {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        for part in parts {
            guard !part.isEmpty, part.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
                throw fail("\"\(text.trimmingCharacters(in: .whitespaces))\" is not a key (use letters, digits, _ and -)")
            }
        }
        return parts
    }

    private static func parseValue(_ text: String, fail: (String) -> NarrationError) throws(NarrationError) -> ConfigValue {
        if text.hasPrefix("[") {
            guard text.hasSuffix("]") else { throw fail("an array is written on one line, e.g. [\"audio\", \"feed\"]") }
            var elements: [ConfigValue] = []
            for part in try arrayElements(String(text.dropFirst().dropLast()), fail: fail) {
                guard !part.hasPrefix("[") else { throw fail("an array inside an array is not understood") }
                elements.append(try parseValue(part, fail: fail))
            }
            return .array(elements)
        }
        if text.hasPrefix("\"") {
            guard text.count >= 2, text.hasSuffix("\""), !text.hasSuffix("\\\"") || text.hasSuffix("\\\\\"") else {
                throw fail("a string is not closed")
            }
            var result = ""
            var characters = text.dropFirst().dropLast().makeIterator()
            while let character = characters.next() {
                guard character == "\\" else {
                    guard character != "\"" else { throw fail("a quote inside a string must be written \\\"") }
                    result.append(character)
                    continue
                }
                switch characters.next() {
                case "\"": result.append("\"")
                case "\\": result.append("\\")
                case "n": result.append("\n")
                case "t": result.append("\t")
                default: throw fail("unknown escape in a string (use \\\", \\\\, \\n or \\t)")
                }
            }
            return .string(result)
        }
        if text.hasPrefix("'") {
            guard text.count >= 2, text.hasSuffix("'") else { throw fail("a string is not closed") }
            let inner = String(text.dropFirst().dropLast())
            guard !inner.contains("'") else { throw fail("a literal string cannot contain '") }
            return .string(inner)
        }
        switch text {
        case "true": return .boolean(true)
        case "false": return .boolean(false)
        default: break
        }
        let digits = text.replacingOccurrences(of: "_", with: "")
        if let integer = Int(digits) { return .integer(integer) }
        if let float = Double(digits), float.isFinite, digits.allSatisfy({ "+-0123456789.eE".contains($0) }) { return .float(float) }
        throw fail(text.isEmpty ? "a value is missing after =" : "\(text) is not a value narrate understands (a string in quotes, a number, true or false)")
    }

    /// The elements of an array's inside, split at the commas outside strings; a trailing comma is allowed.
    private static func arrayElements(_ inside: String, fail: (String) -> NarrationError) throws(NarrationError) -> [String] {
        var parts: [String] = []
        var current = ""
        var inBasic = false
        var inLiteral = false
        var escaped = false
        for character in inside {
            if escaped {
                escaped = false
            } else if character == "\\" && inBasic {
                escaped = true
            } else if character == "\"" && !inLiteral {
                inBasic.toggle()
            } else if character == "'" && !inBasic {
                inLiteral.toggle()
            } else if character == "," && !inBasic && !inLiteral {
                parts.append(current.trimmingCharacters(in: .whitespaces))
                current = ""
                continue
            }
            current.append(character)
        }
        let last = current.trimmingCharacters(in: .whitespaces)
        if !last.isEmpty { parts.append(last) }
        guard !parts.contains(where: \.isEmpty) else { throw fail("an array has an empty element between two commas") }
        return parts
    }

    /// Inserts `value` at `path`, creating tables; false on a clash.
    private static func insert(_ value: ConfigValue, at path: [String], into table: inout [String: ConfigValue], replacing: Bool) -> Bool {
        guard let first = path.first else { return false }
        if path.count == 1 {
            if let existing = table[first] {
                if case .table = existing, case .table = value { return true }
                return false
            }
            table[first] = value
            return true
        }
        var inner: [String: ConfigValue]
        switch table[first] {
        case nil: inner = [:]
        case .table(let existing)?: inner = existing
        default: return false
        }
        guard insert(value, at: Array(path.dropFirst()), into: &inner, replacing: replacing) else { return false }
        table[first] = .table(inner)
        return true
    }
}

