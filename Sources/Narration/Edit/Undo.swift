import Foundation
public import NarrationCore

extension NarrationLibrary {
    /// Reverses the last edit `scope` allows (see `UndoScope`): the chunk list, the article's
    /// details or its deletion as they were before it, with the files of chunks that come back
    /// returned from the article's trash and those that leave moved into it. The files
    /// themselves are never rewritten, so what comes back is byte for byte what was there.
    /// - Throws: `usage` when there is nothing to undo; `chunkFileMissing` when a file to bring
    ///   back is gone from the trash (after `prune`), in which case nothing changes;
    ///   `articleBusy` while the article is being recorded or exported.
    public func undo(_ scope: UndoScope) throws(NarrationError) -> UndoneEdit {
        // Lock the article the edit belongs to before reversing it.
        let candidate: ArticleID
        switch scope {
        case .article(let id):
            candidate = id
        case .latest(let current):
            let deletion = try catalog.history(of: nil, kinds: [.deleteArticle]).first { $0.undoneAt == nil }
            let own = try current.flatMap { (id) throws(NarrationError) in try catalog.history(of: id).first { $0.undoneAt == nil } }
            guard let latest = [deletion, own].compactMap({ $0 }).max(by: { $0.number < $1.number }) else {
                throw NarrationError(.usage, "There is nothing to undo: no edit of the article is left to reverse.", remedy: .showHistory)
            }
            candidate = latest.article
        }
        let article = try catalog.article(id: candidate, includingTrash: true)
        let lock = try ArticleLock.acquire(for: article, at: root.lockURL(candidate), purpose: .edit)
        defer { withExtendedLifetime(lock) {} }
        let root = self.root
        let undone = try catalog.undo(candidate) { article, leaving, returning in
            var missing: [ChunkID] = []
            for id in returning where !FileSystem.exists(root.chunkURL(id, of: article)) && !FileSystem.exists(root.trashedChunkURL(id, of: article)) {
                missing.append(id)
            }
            if !missing.isEmpty {
                throw NarrationError(
                    .chunkFileMissing,
                    "Undo would bring back \(missing.count == 1 ? "a chunk whose file is" : "\(missing.count) chunks whose files are") no longer in the article's trash (it is emptied when the recordings are pruned after delivery), so nothing was changed.")
            }
            for id in leaving where FileSystem.exists(root.chunkURL(id, of: article)) {
                try FileSystem.move(root.chunkURL(id, of: article), to: root.trashedChunkURL(id, of: article))
            }
            for id in returning where !FileSystem.exists(root.chunkURL(id, of: article)) {
                try FileSystem.move(root.trashedChunkURL(id, of: article), to: root.chunkURL(id, of: article))
            }
        }
        FileSystem.syncDirectory(root.chunksURL(undone.edit.article))
        if undone.withdrawn != nil { OutboxSweep.run(root: root, catalog: catalog) }
        return undone
    }
}
