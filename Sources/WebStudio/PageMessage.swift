import Foundation
import NarrationCore
import Studio

/// A text message from the page, decoded; see the web studio's section of the README for the
/// protocol. Anything else is refused with a sentence.
enum PageMessage: Equatable {
    /// A key as the terminal studio would get it: the same rules decide what it means.
    case key(KeyPress)
    /// Select the chunk at this 0-based position.
    case select(Int)
    case microphone(Studio.Microphone)
    /// Punch-and-roll over chunk `chunk` from `seconds` into it.
    case punch(chunk: Int, seconds: Double)
    /// Punch-and-roll's pre-roll begins on the page: `lead` seconds before `seconds` into chunk
    /// `chunk` play in the browser; the `punch` that follows is the only take that can start.
    case preRoll(chunk: Int, seconds: Double, lead: Double)
    /// Show the new-article form.
    case newArticle
    /// Open this article (the one the form was opened from).
    case open(String)

    private struct Raw: Decodable {
        var type: String
        var key: String?
        var position: Int?
        var source: String?
        var chunk: Int?
        var seconds: Double?
        var article: String?
        var lead: Double?
    }

    static let namedKeys: [String: KeyPress] = [
        "space": .character(" "), "enter": .enter, "escape": .escape, "up": .up, "down": .down, "left": .left, "right": .right,
        "home": .home, "end": .end, "pageUp": .pageUp, "pageDown": .pageDown, "delete": .delete,
    ]

    /// - Throws: a sentence naming what was wrong with the message.
    static func decode(_ text: String) throws(NarrationError) -> PageMessage {
        guard let raw = try? JSONDecoder().decode(Raw.self, from: Data(text.utf8)) else {
            throw .usage("The page sent a message narrate cannot read: reload the page.")
        }
        switch raw.type {
        case "key":
            guard let name = raw.key else { break }
            if let key = namedKeys[name] { return .key(key) }
            if name.count == 1, let character = name.first { return .key(.character(character)) }
            throw .usage("The page sent an unknown key \"\(name.prefix(20))\": reload the page.")
        case "select":
            if let position = raw.position { return .select(position) }
        case "microphone":
            if let source = raw.source.flatMap(Studio.Microphone.init(rawValue:)) { return .microphone(source) }
        case "punch":
            if let chunk = raw.chunk, let seconds = raw.seconds, seconds.isFinite, seconds >= 0 { return .punch(chunk: chunk, seconds: seconds) }
        case "preRoll":
            if let chunk = raw.chunk, let seconds = raw.seconds, seconds.isFinite, seconds >= 0, let lead = raw.lead, lead.isFinite, (0...10).contains(lead) {
                return .preRoll(chunk: chunk, seconds: seconds, lead: lead)
            }
        case "newArticle":
            return .newArticle
        case "open":
            if let article = raw.article, !article.isEmpty { return .open(article) }
        default:
            throw .usage("The page sent an unknown message \"\(raw.type.prefix(20))\": reload the page.")
        }
        throw .usage("The page sent an incomplete \"\(raw.type)\" message: reload the page.")
    }
}
