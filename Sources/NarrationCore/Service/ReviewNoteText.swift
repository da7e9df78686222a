import Foundation

/// A text a proof-listener writes on a note: what was said, what it should be, or a remark.
/// Checked when made: not blank, no control or bidirectional formatting characters (a note is
/// read back in a terminal and a screen reader), and at most `limit` characters.
public struct ReviewNoteText: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    /// The longest "said" or "should be" text: a phrase, not a paragraph.
    public static let phraseLimit = 200
    /// The longest free remark.
    public static let remarkLimit = 1_000

    /// `text` without the spaces around it, checked; `field` names it in the sentence ("remark").
    /// - Throws: `usage` naming the field and the fix.
    public init(_ text: String, field: String, limit: Int) throws(NarrationError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else {
            throw .usage("The note's \(field) is empty: write what the listener should hear.")
        }
        guard !trimmed.unicodeScalars.contains(where: ControlCharacters.isHazard) else {
            throw .usage("The note's \(field) holds a control or text-direction character: write it as plain text on one line.")
        }
        guard trimmed.count <= limit else {
            throw .usage("The note's \(field) is \(trimmed.count) characters long: keep it to \(limit).")
        }
        rawValue = trimmed
    }

    public var description: String { rawValue }
}
