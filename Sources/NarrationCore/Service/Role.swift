/// What a person does in a reading service, and with it what they may do (`Permissions`).
///
/// Each account has exactly one role; the raw values are how the command line, the catalog and
/// JSON spell them.
public enum Role: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    /// Records and sends the articles assigned to them or claimed by them; claims open ones.
    case volunteer
    /// Hears articles ready for review against their text, pins notes, approves or sends back.
    case proofListener = "proof-listener"
    /// Manages the day's articles: adds, assigns, reprioritises, withdraws; sees every article.
    case coordinator
    /// Everything a coordinator may, and accounts, roles and the service's settings.
    case admin

    public var description: String { rawValue }

    /// The roles as a sentence lists them: "volunteer, proof-listener, coordinator or admin".
    public static var spelledOut: String {
        let names = allCases.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }

    /// The role called `text` exactly as the command line spells it.
    /// - Throws: `usage` naming the text and the four roles.
    public init(naming text: String) throws(NarrationError) {
        guard let role = Role(rawValue: text) else {
            throw .usage("\"\(Self.quoted(text))\" is not a role: give \(Self.spelledOut).")
        }
        self = role
    }

    /// Outside text for a sentence: at most 40 characters, control characters shown as "?".
    static func quoted(_ text: String) -> String {
        let visible = String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : Character($0) })
        return visible.count > 40 ? String(visible.prefix(39)) + "…" : visible
    }
}
