/// A value written as JSON's null when absent, where a plain optional would leave the key out:
/// the documents narrate prints (`--json`) and its service answers keep one shape, every key
/// always there.
public struct NullWhenAbsent<Value: Encodable & Sendable>: Encodable, Sendable {
    public let value: Value?

    public init(_ value: Value?) { self.value = value }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let value { try container.encode(value) } else { try container.encodeNil() }
    }
}
