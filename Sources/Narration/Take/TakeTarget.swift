import NarrationCore

/// Where a take goes, by chunk identity rather than index, so that it stays right while other
/// commands edit the article (and after a crash).
enum TakeTarget: Equatable, Sendable {
    case append
    case insertBefore(ChunkID)
    /// For another chunk of a paragraph, and for recovered takes of a re-record (see `forRecovery`).
    case insertAfter(ChunkID)
    case replace(ChunkID)
    /// In place of this chunk, the first of its paragraph; the paragraph's other chunks go to the
    /// trash with it (a paragraph read again).
    case replaceParagraph(ChunkID)
    /// Punch-and-roll: the take goes over this chunk from `frame` on, joined with a crossfade
    /// (see `PunchJoin`); the chunk as it was goes to the trash.
    case punch(ChunkID, frame: FrameCount)

    init(_ position: ReadingPlan.Position) {
        switch position {
        case .append: self = .append
        case .before(let id): self = .insertBefore(id)
        case .after(let id): self = .insertAfter(id)
        case .replacingParagraphFrom(let id): self = .replaceParagraph(id)
        }
    }

    init(_ placement: ChunkPlacement, in order: ChunkOrder) throws(NarrationError) {
        switch placement {
        case .append: self = .append
        case .insert(let index): self = .insertBefore(try order.id(at: index))
        case .replace(let index): self = .replace(try order.id(at: index))
        }
    }

    init(stored kind: String, target: String?) {
        switch (kind, target) {
        case ("insert", let id?): self = .insertBefore(ChunkID(id))
        case ("insertAfter", let id?): self = .insertAfter(ChunkID(id))
        case ("replace", let id?): self = .replace(ChunkID(id))
        case ("replaceParagraph", let id?): self = .replaceParagraph(ChunkID(id))
        case ("punch", let stored?):
            // "<chunk id>@<frame>"
            let parts = stored.split(separator: "@")
            if parts.count == 2, let frame = Int(parts[1]), frame >= 0 {
                self = .punch(ChunkID(String(parts[0])), frame: frame)
            } else {
                self = .append
            }
        default: self = .append
        }
    }

    var storedKind: String {
        switch self {
        case .append: "append"
        case .insertBefore: "insert"
        case .insertAfter: "insertAfter"
        case .replace: "replace"
        case .replaceParagraph: "replaceParagraph"
        case .punch: "punch"
        }
    }

    var storedTarget: String? {
        switch self {
        case .append: nil
        case .insertBefore(let id), .insertAfter(let id), .replace(let id), .replaceParagraph(let id): id.rawValue
        case .punch(let id, let frame): "\(id.rawValue)@\(frame)"
        }
    }

    /// Where a take recovered after a crash goes. A crashed re-record or punch may be a
    /// fragment, so it never replaces the good take: it goes right after it, and the volunteer
    /// chooses.
    var forRecovery: TakeTarget {
        switch self {
        case .replace(let id), .replaceParagraph(let id), .punch(let id, _): return .insertAfter(id)
        default: return self
        }
    }

    /// The placement in the current order; a target that was deleted meanwhile falls back to the end.
    func placement(in order: ChunkOrder) -> ChunkPlacement {
        switch self {
        case .append:
            return .append
        case .insertBefore(let id):
            return order.index(of: id).map { .insert(before: $0) } ?? .append
        case .insertAfter(let id):
            guard let index = order.index(of: id), index.number < order.count else { return .append }
            return .insert(before: ChunkIndex(index.number + 1))
        case .replace(let id), .replaceParagraph(let id), .punch(let id, _):
            return order.index(of: id).map { .replace($0) } ?? .append
        }
    }
}
