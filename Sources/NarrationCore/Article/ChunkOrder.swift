/// Where a new take goes in the article.
public enum ChunkPlacement: Sendable, Equatable {
    /// After the last chunk.
    case append
    /// Before the chunk now at this index; it and those after it move down by one.
    case insert(before: ChunkIndex)
    /// In place of the chunk at this index (re-record); the old take is kept in the article's trash.
    case replace(ChunkIndex)
}

/// The order of an article's chunks and the edits volunteers make to it. Pure value logic: the
/// catalog applies the result in one transaction.
public struct ChunkOrder: Sendable, Equatable {
    public private(set) var ids: [ChunkID]

    public init(_ ids: [ChunkID]) { self.ids = ids }

    public var count: Int { ids.count }

    /// The chunk at a 1-based index.
    /// - Throws: `chunkIndexOutOfRange` naming how many chunks there are.
    public func id(at index: ChunkIndex) throws(NarrationError) -> ChunkID {
        try validate(index)
        return ids[index.position]
    }

    /// Throws unless `index` names an existing chunk.
    public func validate(_ index: ChunkIndex) throws(NarrationError) {
        guard index.number >= 1, index.number <= ids.count else {
            throw .chunkIndexOutOfRange(index, count: ids.count)
        }
    }

    /// Checks that `placement` is possible before anything is recorded for it.
    public func validate(_ placement: ChunkPlacement) throws(NarrationError) {
        switch placement {
        case .append: return
        case .insert(let index), .replace(let index): try validate(index)
        }
    }

    /// Puts `newID` where `placement` says.
    /// - Returns: the id of the chunk that was replaced, if any, and the new chunk's index.
    @discardableResult
    public mutating func place(_ newID: ChunkID, _ placement: ChunkPlacement) throws(NarrationError)
        -> (replaced: ChunkID?, index: ChunkIndex)
    {
        try validate(placement)
        switch placement {
        case .append:
            ids.append(newID)
            return (nil, ChunkIndex(position: ids.count - 1))
        case .insert(let index):
            ids.insert(newID, at: index.position)
            return (nil, index)
        case .replace(let index):
            let old = ids[index.position]
            ids[index.position] = newID
            return (old, index)
        }
    }

    /// Removes the chunk at `index`; those after it move up by one.
    /// - Returns: the removed chunk's id.
    @discardableResult
    public mutating func remove(at index: ChunkIndex) throws(NarrationError) -> ChunkID {
        try validate(index)
        return ids.remove(at: index.position)
    }

    /// The 1-based index of a chunk, if it is in the article.
    public func index(of id: ChunkID) -> ChunkIndex? {
        ids.firstIndex(of: id).map { ChunkIndex(position: $0) }
    }
}
