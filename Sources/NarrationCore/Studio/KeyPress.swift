/// A key a volunteer pressed. The terminal decodes it from bytes (`KeyDecoder`) and the studio's
/// session state says what it means (`StudioState.action(for:)`, `NewArticleForm.edit(_:)`), so it
/// lives in this pure layer, below both.
public enum KeyPress: Sendable, Equatable {
    case character(Character)
    case enter
    case tab
    case backspace
    case delete
    case left, right, up, down
    case pageUp, pageDown, home, end
    case escape
    /// Ctrl-C while the terminal is in raw mode (no SIGINT is sent then).
    case interrupt
    /// The terminal changed size.
    case resize
}
