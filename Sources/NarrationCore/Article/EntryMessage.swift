/// A message that names entries the volunteer typed (`Entry`): the words around them are the
/// engine's, the entries' names are each front end's own.
///
/// Written as a string with the entries interpolated:
/// `"\(.trimStart) 0.8 s is not before \(.trimEnd) 0.2 s."` is "The start 0.8 s is not before the
/// end 0.2 s." in plain words and "--start 0.8 s is not before --end 0.2 s." on the command line.
public struct EntryMessage: Sendable, Equatable, ExpressibleByStringInterpolation {
    enum Part: Sendable, Equatable {
        case text(String)
        case entry(Entry)
    }

    let parts: [Part]

    public init(stringLiteral value: String) {
        parts = [.text(value)]
    }

    public init(stringInterpolation: StringInterpolation) {
        parts = stringInterpolation.parts
    }

    /// The message with each entry named by `name`; a message that starts with an entry starts
    /// with a capital letter.
    public func said(naming name: (Entry) -> String) -> String {
        var text = ""
        for part in parts {
            switch part {
            case .text(let words): text += words
            case .entry(let entry): text += name(entry)
            }
        }
        guard case .entry = parts.first, let first = text.first else { return text }
        return first.uppercased() + text.dropFirst()
    }

    /// The message in plain words (`Entry.plainName`).
    public var plain: String { said(naming: \.plainName) }

    /// Collects an `EntryMessage` literal's words and entries.
    public struct StringInterpolation: StringInterpolationProtocol {
        var parts: [Part] = []

        public init(literalCapacity: Int, interpolationCount: Int) {}

        public mutating func appendLiteral(_ literal: String) {
            if !literal.isEmpty { parts.append(.text(literal)) }
        }

        /// An entry, named by each front end its own way.
        public mutating func appendInterpolation(_ entry: Entry) {
            parts.append(.entry(entry))
        }

        /// Any other value, as a string interpolation would show it.
        public mutating func appendInterpolation(_ value: some CustomStringConvertible) {
            parts.append(.text(value.description))
        }

        /// A string, as it is.
        public mutating func appendInterpolation(_ value: String) {
            parts.append(.text(value))
        }
    }
}
