/// Characters that text from outside (a title, a narrator's name, a paragraph of a file, a form
/// field) must not carry into a terminal or a subtitle file: control characters, which a
/// terminal acts on and a player may show as boxes or act on too, and the bidirectional
/// formatting characters that reorder what is shown, so that "txt.exe" can be made to look like
/// "exe.txt" (U+202E, RIGHT-TO-LEFT OVERRIDE).
///
/// The terminal shows them escaped (`TerminalText` in the terminal front end); transcripts leave
/// them out (`removed(from:)`); names narrate stores refuse NUL, which cuts a text short in C.
public enum ControlCharacters {
    /// Whether `scalar` is a C0 control (U+0000–U+001F), DEL (U+007F) or a C1 control
    /// (U+0080–U+009F).
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// Whether `scalar` is a bidirectional embedding, override or isolate: U+202A–U+202E
    /// (LRE, RLE, PDF, LRO, RLO) or U+2066–U+2069 (LRI, RLI, FSI, PDI).
    public static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    /// Whether `scalar` is either of the above.
    public static func isHazard(_ scalar: Unicode.Scalar) -> Bool { isControl(scalar) || isBidiControl(scalar) }

    /// `text` without control characters and bidirectional controls; the controls that separate
    /// words (tab, line feed, vertical tab, form feed, carriage return, U+0085) become a space.
    public static func removed(from text: String) -> String {
        guard text.unicodeScalars.contains(where: isHazard) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if (0x09...0x0D).contains(scalar.value) || scalar.value == 0x85 {
                result.append(" ")
            } else if !isHazard(scalar) {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// Refuses a detail narrate stores (an article's title, publication or narrator) that holds
    /// NUL: the catalog's C library would keep only what comes before it, and the article would
    /// be saved under a name it was not given. `detail` names it in the sentence ("title").
    /// - Throws: a usage error.
    public static func requireNoNUL(_ value: String, in detail: String) throws(NarrationError) {
        guard value.utf8.contains(0) else { return }
        throw NarrationError(.usage, "The \(detail) holds a NUL character (U+0000), which would cut it short: remove it and try again.")
    }
}
