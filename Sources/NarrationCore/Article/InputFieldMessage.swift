/// A message that names fields the volunteer typed (`InputField`): the words around them are the
/// engine's, the fields' names are each front end's own.
///
/// Written as a string with the fields interpolated:
/// `"\(.trimStart) 0.8 s is not before \(.trimEnd) 0.2 s."` is "The start 0.8 s is not before the
/// end 0.2 s." in plain words and "--start 0.8 s is not before --end 0.2 s." on the command line.
public struct InputFieldMessage: Sendable, Equatable, ExpressibleByStringInterpolation {
    enum Part: Sendable, Equatable {
        case text(String)
        case field(InputField)
    }

    let parts: [Part]

    public init(stringLiteral value: String) {
        parts = [.text(value)]
    }

    public init(stringInterpolation: StringInterpolation) {
        parts = stringInterpolation.parts
    }

    /// The message with each field named by `name`; a message that starts with a field starts
    /// with a capital letter.
    public func said(naming name: (InputField) -> String) -> String {
        var text = ""
        for part in parts {
            switch part {
            case .text(let words): text += words
            case .field(let field): text += name(field)
            }
        }
        guard case .field = parts.first, let first = text.first else { return text }
        return first.uppercased() + text.dropFirst()
    }

    /// The message in plain words (`InputField.plainName`).
    public var plain: String { said(naming: \.plainName) }

    /// Collects an `InputFieldMessage` literal's words and fields.
    public struct StringInterpolation: StringInterpolationProtocol {
        var parts: [Part] = []

        public init(literalCapacity: Int, interpolationCount: Int) {}

        public mutating func appendLiteral(_ literal: String) {
            if !literal.isEmpty { parts.append(.text(literal)) }
        }

        /// A field, named by each front end its own way.
        public mutating func appendInterpolation(_ field: InputField) {
            parts.append(.field(field))
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
