import NarrationCore
import Studio

/// What a page's message asks of the service, for `Permissions.may`: each message to the live
/// connection is one `ServiceAction` on the article open in the studio, on a named article, or
/// on none.
///
/// Keys mean different things on different panels, so a key is taken at the most it can do:
/// only keys that can never change an article (moving, playing, help) count as `view`; `q` and
/// `s` as `send`; every other key, a microphone choice, a punch and its pre-roll as `record`.
struct MessageAction: Equatable {
    enum Target: Equatable {
        /// The article open in the studio.
        case open
        /// The article with this id (as the page gave it).
        case named(String)
        /// No article: an action on the service itself.
        case none
    }

    let action: ServiceAction
    let target: Target

    /// Keys that only move, play or explain, on every panel.
    static let viewingKeys: [KeyPress] = [
        .up, .down, .left, .right, .home, .end, .pageUp, .pageDown, .escape,
        .character(" "), .character("?"), .character("+"), .character("="), .character("-"), .character("["), .character("]"),
        .character("o"), .character("O"),
    ]
    static let sendingKeys: [KeyPress] = [.character("q"), .character("Q"), .character("s"), .character("S")]

    /// The action `message` asks for.
    static func of(_ message: PageMessage) -> MessageAction {
        switch message {
        case .key(let key, _):
            if viewingKeys.contains(key) { return MessageAction(action: .view, target: .open) }
            if sendingKeys.contains(key) { return MessageAction(action: .send, target: .open) }
            return MessageAction(action: .record, target: .open)
        case .select, .selectChunk: return MessageAction(action: .view, target: .open)
        case .microphone, .punch, .preRoll, .stopTake, .resumeTake, .keepTake, .cut, .cutAll: return MessageAction(action: .record, target: .open)
        case .uploading(let message, _): return of(message)
        case .newArticle: return MessageAction(action: .manageArticles, target: .none)
        case .open(let id): return MessageAction(action: .view, target: .named(id))
        }
    }
}
