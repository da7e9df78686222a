public import NarrationCore

/// The studio's "new article" form: title, publication and narrator, edited one key at a time.
/// Publication and narrator come prefilled from the config; the title starts empty.
public struct NewArticleForm: Sendable, Equatable {
    public enum Field: Int, Sendable, CaseIterable {
        case title, publication, narrator

        public var label: String {
            switch self {
            case .title: "Title"
            case .publication: "Publication"
            case .narrator: "Narrator"
            }
        }
    }

    public var title: String
    public var publication: String
    public var narrator: String
    public var focus: Field = .title
    /// Why the last attempt to create the article was refused, if it was.
    public var problem: String?

    public init(title: String = "", publication: String, narrator: String) {
        self.title = title
        self.publication = publication
        self.narrator = narrator
    }

    public subscript(field: Field) -> String {
        get {
            switch field {
            case .title: title
            case .publication: publication
            case .narrator: narrator
            }
        }
        set {
            switch field {
            case .title: title = newValue
            case .publication: publication = newValue
            case .narrator: narrator = newValue
            }
        }
    }

    /// Why an article with these credits is not started, if it is not: the studios require a
    /// publication (deliveries are filed under it) and a narrator (credited in the tags and
    /// counted in the volunteer hours), so that neither is left out by an empty field.
    public static func problem(publication: String, narrator: String) -> String? {
        let publication = publication.trimmingCharacters(in: .whitespacesAndNewlines)
        let narrator = narrator.trimmingCharacters(in: .whitespacesAndNewlines)
        switch (publication.isEmpty, narrator.isEmpty) {
        case (true, true):
            return "Fill in the publication and your name as narrator: deliveries are filed under the publication, and the narrator is credited and counted in the volunteer hours."
        case (true, false):
            return "Fill in the publication the article comes from: its deliveries are filed under it."
        case (false, true):
            return "Fill in your name as narrator: it is credited in the recording and counted in the volunteer hours."
        case (false, false):
            return nil
        }
    }

    /// The field to fill in first, when `problem(publication:narrator:)` finds one empty.
    public var firstEmptyCredit: Field? {
        if publication.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return .publication }
        if narrator.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return .narrator }
        return nil
    }

    /// Whether the focus is on the last field, where Enter creates the article.
    public var onLastField: Bool { focus == .narrator }

    /// Applies an editing key: a character is typed into the focused field, Backspace removes
    /// the last character, Tab / ↓ / Enter move to the next field and ↑ to the previous one.
    public mutating func edit(_ key: KeyPress) {
        switch key {
        case .character(let character):
            guard character.unicodeScalars.allSatisfy({ !$0.properties.generalCategory.isControl }) else { return }
            self[focus].append(character)
            problem = nil
        case .backspace:
            if !self[focus].isEmpty { self[focus].removeLast() }
        case .tab, .down, .enter:
            focus = Field(rawValue: (focus.rawValue + 1) % Field.allCases.count)!
        case .up:
            focus = Field(rawValue: (focus.rawValue + Field.allCases.count - 1) % Field.allCases.count)!
        default:
            break
        }
    }
}

extension Unicode.GeneralCategory {
    fileprivate var isControl: Bool { self == .control || self == .format }
}
