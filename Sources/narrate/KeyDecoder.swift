/// A key a volunteer pressed, decoded from the terminal's bytes (arrow keys arrive as
/// `ESC [ C` / `ESC [ D`).
enum Key: Equatable {
    case character(Character)
    case enter
    case left, right, up, down
    case escape
}

/// Turns terminal bytes into keys, one byte at a time.
struct KeyDecoder {
    private var pending: [UInt8] = []

    /// Feeds one byte; returns a key once one is complete.
    mutating func feed(_ byte: UInt8) -> Key? {
        if pending.isEmpty {
            switch byte {
            case 0x1B:
                pending = [byte]
                return nil
            case 10, 13: return .enter
            default: return .character(Character(UnicodeScalar(byte)))
            }
        }
        pending.append(byte)
        if pending.count == 2 {
            guard byte == UInt8(ascii: "[") || byte == UInt8(ascii: "O") else {
                pending = []
                return .escape
            }
            return nil
        }
        pending = []
        switch byte {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        default: return nil
        }
    }
}
