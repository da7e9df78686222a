/// Something the volunteer typed that the engine refused, as a value: each front end names it its
/// own way (the command line by its flag, "--date"; a page or the terminal studio in plain words).
///
/// The engine's message says what was wrong with the field (`InputFieldMessage`); it never spells the
/// flag that carried it.
public enum InputField: Sendable, Equatable {
    /// The date listeners see on an article, `YYYY-MM-DD`.
    case listenerDate
    /// Where a trimmed chunk will start, into it.
    case trimStart
    /// Where a trimmed chunk will end, into it.
    case trimEnd

    /// The field in plain words, as any front end may show it: "the date".
    public var plainName: String {
        switch self {
        case .listenerDate: "the date"
        case .trimStart: "the start"
        case .trimEnd: "the end"
        }
    }
}
