public import NarrationCore

/// Turns terminal bytes into keys, one byte at a time: UTF-8 characters, and the ANSI sequences
/// terminals send for arrows and the editing keys (`ESC [ A`, `ESC O A`, `ESC [ 5 ~`…).
public struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []

    public init() {}

    /// Feeds one byte; returns a key once one is complete.
    public mutating func feed(_ byte: UInt8) -> KeyPress? {
        guard let first = pending.first else { return start(byte) }
        pending.append(byte)
        if first == 0x1B { return continueEscape(byte) }
        return continueUTF8()
    }

    /// Call when no byte came for a moment: a lone Escape is complete then, and anything else
    /// half-read is dropped.
    public mutating func flush() -> KeyPress? {
        defer { pending = [] }
        return pending == [0x1B] ? .escape : nil
    }

    private mutating func start(_ byte: UInt8) -> KeyPress? {
        switch byte {
        case 0x1B, 0xC0...0xFD:
            pending = [byte]
            return nil
        case 10, 13: return .enter
        case 9: return .tab
        case 8, 127: return .backspace
        case 3: return .interrupt
        case 0x20..<0x7F: return .character(Character(UnicodeScalar(byte)))
        default: return nil  // other control bytes and stray continuation bytes
        }
    }

    private mutating func continueEscape(_ byte: UInt8) -> KeyPress? {
        if pending.count == 2 {
            guard byte == UInt8(ascii: "[") || byte == UInt8(ascii: "O") else {
                pending = []
                return .escape
            }
            return nil
        }
        // Parameters (digits, ';') come before the final byte.
        if (0x30...0x3F).contains(byte) { return pending.count > 8 ? flush() : nil }
        let parameters = String(decoding: pending.dropFirst(2).dropLast(), as: UTF8.self)
        pending = []
        switch (byte, parameters) {
        case (UInt8(ascii: "A"), _): return .up
        case (UInt8(ascii: "B"), _): return .down
        case (UInt8(ascii: "C"), _): return .right
        case (UInt8(ascii: "D"), _): return .left
        case (UInt8(ascii: "H"), _): return .home
        case (UInt8(ascii: "F"), _): return .end
        case (UInt8(ascii: "~"), "1"), (UInt8(ascii: "~"), "7"): return .home
        case (UInt8(ascii: "~"), "4"), (UInt8(ascii: "~"), "8"): return .end
        case (UInt8(ascii: "~"), "3"): return .delete
        case (UInt8(ascii: "~"), "5"): return .pageUp
        case (UInt8(ascii: "~"), "6"): return .pageDown
        default: return nil
        }
    }

    private mutating func continueUTF8() -> KeyPress? {
        let lead = pending[0]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        guard pending.last.map({ $0 & 0xC0 == 0x80 }) == true else {
            pending = []
            return nil
        }
        guard pending.count == length else { return nil }
        defer { pending = [] }
        return String(validating: pending, as: UTF8.self).flatMap(\.first).map(KeyPress.character)
    }
}
