import Foundation
import NarrationCore
import Studio

/// A text message from the page, decoded; see Protocol.md beside this file for the
/// protocol. Anything else is refused with a sentence.
enum PageMessage: Equatable, Sendable {
    /// A key as the terminal studio would get it: the same rules decide what it means. `chunk`
    /// is the id of the chunk the page showed selected (or asked to delete) when the key was
    /// pressed: a key that acts on a chunk acts on that one, or on none when it is gone.
    case key(KeyPress, chunk: ChunkID? = nil)
    /// Select the chunk at this 0-based position.
    case select(Int)
    /// Select the chunk with this id.
    case selectChunk(ChunkID)
    case microphone(Studio.Microphone)
    /// Punch-and-roll over chunk `chunk` from `seconds` into it; `id` is that chunk's id as the
    /// page knew it (the punch is refused when chunk `chunk` is another one now).
    case punch(chunk: Int, seconds: Double, id: ChunkID? = nil)
    /// Punch-and-roll's pre-roll begins on the page: `lead` seconds before `seconds` into chunk
    /// `chunk` play in the browser; the `punch` that follows is the only take that can start.
    case preRoll(chunk: Int, seconds: Double, lead: Double)
    /// Show the new-article form.
    case newArticle
    /// Open this article (the one the form was opened from).
    case open(String)
    /// A key or punch that starts a take the page uploads under `take` (it stores the take's
    /// pieces in the browser first, and sends them numbered: `TakePiece`).
    indirect case uploading(PageMessage, take: TakeUploadKey)
    /// The page stopped the take it uploads under `take`, `frames` frames long: the take ends
    /// once they have all come.
    case stopTake(TakeUploadKey, frames: Int)
    /// The page (maybe after a reload, a dropped connection or the server's restart) holds
    /// pieces of the take `take` not yet on the server; `frames` is the take's length when it
    /// has ended. The server answers with an `upload` message saying where to go on from.
    case resumeTake(TakeUploadKey, frames: Int?)
    /// Keep what arrived of the take `take`, set aside while its page was away, as a chunk: the
    /// page that recorded it will not send the rest (the volunteer moved to another device).
    case keepTake(TakeUploadKey)
    /// Cut the restart `number` of the take `chunk` proposes (`accept`), or leave the take as it
    /// is there; refused when the take or the cut is gone.
    case cut(ChunkID, number: Int, accept: Bool)
    /// Cut every restart proposed in the open article.
    case cutAll

    private struct Raw: Decodable {
        var type: String
        var key: String?
        var position: Int?
        var source: String?
        var chunk: Int?
        var seconds: Double?
        var article: String?
        var id: String?
        var lead: Double?
        var take: String?
        var frames: Int?
        var cut: Int?
        var action: String?
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
        guard raw.id.map({ !$0.isEmpty && $0.count <= 64 }) ?? true else {
            throw .usage("The page sent a chunk id narrate cannot read: reload the page.")
        }
        let chunkID = raw.id.map(ChunkID.init)
        var take: TakeUploadKey?
        if let named = raw.take {
            guard let key = TakeUploadKey(named) else { throw .usage("The page named a take with a key narrate cannot read: reload the page.") }
            take = key
        }
        if let frames = raw.frames, !(0...Int(UInt32.max)).contains(frames) {
            throw .usage("The page gave a take \(frames) frames, which no take has: reload the page.")
        }
        let message = try decode(raw, chunkID: chunkID, take: take)
        switch message {
        case .key, .punch:
            return take.map { .uploading(message, take: $0) } ?? message
        default:
            return message
        }
    }

    private static func decode(_ raw: Raw, chunkID: ChunkID?, take: TakeUploadKey?) throws(NarrationError) -> PageMessage {
        switch raw.type {
        case "key":
            guard let name = raw.key else { break }
            if let key = namedKeys[name] { return .key(key, chunk: chunkID) }
            if name.count == 1, let character = name.first { return .key(.character(character), chunk: chunkID) }
            throw .usage("The page sent an unknown key \"\(name.prefix(20))\": reload the page.")
        case "select":
            if let chunkID { return .selectChunk(chunkID) }
            if let position = raw.position { return .select(position) }
        case "microphone":
            if let source = raw.source.flatMap(Studio.Microphone.init(rawValue:)) { return .microphone(source) }
        case "punch":
            if let chunk = raw.chunk, let seconds = raw.seconds {
                // A time from the page is checked before the engine turns it into frames.
                guard let time = try? AudioTime(seconds: seconds) else {
                    throw .usage("The page asked to correct chunk \(chunk) from \(seconds) s, which is not a time in a chunk (0 to 86400 s): reload the page.")
                }
                return .punch(chunk: chunk, seconds: time.seconds, id: chunkID)
            }
        case "preRoll":
            if let chunk = raw.chunk, let seconds = raw.seconds, let lead = raw.lead, lead.isFinite, (0...10).contains(lead) {
                guard let time = try? AudioTime(seconds: seconds) else {
                    throw .usage("The page asked to correct chunk \(chunk) from \(seconds) s, which is not a time in a chunk (0 to 86400 s): reload the page.")
                }
                return .preRoll(chunk: chunk, seconds: time.seconds, lead: lead)
            }
        case "newArticle":
            return .newArticle
        case "open":
            if let article = raw.article, !article.isEmpty { return .open(article) }
        case "stop":
            if let take, let frames = raw.frames { return .stopTake(take, frames: frames) }
        case "resume":
            if let take { return .resumeTake(take, frames: raw.frames) }
        case "keep":
            if let take { return .keepTake(take) }
        case "cut":
            if let chunkID, let number = raw.cut, let action = raw.action {
                guard (0...9_999).contains(number) else { throw .usage("The page named cut \(number), which no take has: reload the page.") }
                switch action {
                case "accept": return .cut(chunkID, number: number, accept: true)
                case "dismiss": return .cut(chunkID, number: number, accept: false)
                default: throw .usage("The page asked to \"\(action.prefix(20))\" a cut: reload the page.")
                }
            }
        case "cutAll":
            return .cutAll
        default:
            throw .usage("The page sent an unknown message \"\(raw.type.prefix(20))\": reload the page.")
        }
        throw .usage("The page sent an incomplete \"\(raw.type)\" message: reload the page.")
    }
}
