import NarrationCore

/// Text from a volunteer or a file made safe to show on a terminal: every control character and
/// bidirectional control is written out as a visible escape instead of reaching the terminal.
///
/// An article's title, a file name or a server's answer may hold ESC, BEL, NUL, a carriage
/// return or a C1 control, and a terminal acts on them: `ESC]0;…BEL` renames the window,
/// `ESC[2J` clears the screen, `\r` overwrites what was printed. A bidirectional override or
/// isolate (U+202A–U+202E, U+2066–U+2069) reorders the rest of the line, so that a title can
/// show other words than it holds. Each such character becomes `\u{XX}`, its code point in
/// upper-case hex (at least two digits) as Swift writes it: ESC is `\u{1B}`, BEL `\u{07}`, CSI
/// (U+009B) `\u{9B}`, RIGHT-TO-LEFT OVERRIDE `\u{202E}`. The escapes are printable ASCII, so
/// the text reads the same on any terminal and shows what was there.
public enum TerminalText {
    /// Whether `scalar` is a character a terminal may act on or reorder the line by: C0
    /// (U+0000–U+001F), DEL (U+007F), C1 (U+0080–U+009F), or a bidirectional control
    /// (`ControlCharacters.isHazard`).
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        ControlCharacters.isHazard(scalar)
    }

    /// How `scalar` is shown: `\u{1B}` for ESC.
    public static func visible(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "\\u{" + (hex.count < 2 ? "0" + hex : hex) + "}"
    }

    /// `text` with every control character written as `\u{XX}`, except those in `keeping`.
    public static func escaped(_ text: String, keeping: Set<Unicode.Scalar> = []) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0) && !keeping.contains($0) }) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isControl(scalar) && !keeping.contains(scalar) {
                result.append(contentsOf: visible(scalar).unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// A status line's text for a terminal: the carriage return it starts with and the newline
    /// it may end with (a line that redraws itself), and the two escape sequences the live
    /// displays draw it with (`ESC[K`, erase to the end of the line, and `ESC[…m`, a colour:
    /// digits and semicolons only), pass; every other control character is escaped as `escaped`
    /// does, so a title inside the line cannot move the cursor, clear the screen or rename the
    /// window. (It can at most colour the rest of the line.)
    public static func escapedStatus(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            let edge = (index == 0 && scalar == "\r") || (index == scalars.count - 1 && scalar == "\n")
            if edge || !isControl(scalar) {
                result.append(scalar)
                index += 1
                continue
            }
            if scalar == "\u{1B}", let length = allowedSequenceLength(scalars, at: index) {
                result.append(contentsOf: scalars[index..<index + length])
                index += length
                continue
            }
            result.append(contentsOf: visible(scalar).unicodeScalars)
            index += 1
        }
        return String(result)
    }

    /// The length of `ESC[K` or `ESC[<digits and semicolons>m` starting at `start`, else nil.
    private static func allowedSequenceLength(_ scalars: [Unicode.Scalar], at start: Int) -> Int? {
        guard start + 2 < scalars.count, scalars[start + 1] == "[" else { return nil }
        if scalars[start + 2] == "K" { return 3 }
        var end = start + 2
        while end < scalars.count, scalars[end] == ";" || ("0"..."9").contains(scalars[end]) { end += 1 }
        guard end < scalars.count, scalars[end] == "m" else { return nil }
        return end - start + 1
    }
}
