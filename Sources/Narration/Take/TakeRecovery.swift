import Foundation
import NarrationCore

/// Adopts takes whose recorder died (crash, `kill -9`, power cut, full disk).
///
/// Every take is registered in the catalog before its partial file exists, and its article is
/// locked while it records. A registered take whose article lock is free was abandoned: its file
/// gets its header written anew for the whole frames on disk (see `TakeHeader`: this also mends
/// a damaged header) and is committed as a recovered chunk, where the take was meant to go. A
/// re-record is never allowed to replace the good take this way: it goes right after it instead
/// (see `TakeTarget.forRecovery`).
enum TakeRecovery {
    /// Recovers every abandoned take. A take a page is uploading is left to its upload (the page
    /// resumes it when it comes back) until its partial file has not changed for
    /// `NarrationLibrary.uploadPatience`; `only` recovers that one take at once, uploaded or not.
    /// - Returns: one sentence for the volunteer per take recovered or set aside.
    ///
    /// In a catalog several hosts share, a take is this host's to recover only when its file is
    /// here and no other host holds its article (`ArticleLease`): one with no file here was
    /// begun through another host, which may be recording it still.
    static func run(root: DataRoot, catalog: Catalog, only: ChunkID? = nil, host: String = ArticleLease.thisHost, now: Date = Date()) -> [String] {
        guard var pending = try? catalog.pendingTakes(), !pending.isEmpty else { return [] }
        if let only {
            pending = pending.filter { $0.chunk == only }
        } else if let uploading = try? catalog.uploadingChunks(), !uploading.isEmpty {
            pending = pending.filter { take in
                guard uploading.contains(take.chunk) else { return true }
                let partial = root.partialURL(take.chunk, of: take.article)
                let changed = (try? FileManager.default.attributesOfItem(atPath: partial.path)[.modificationDate] as? Date) ?? nil
                return changed.map { now.timeIntervalSince($0) > NarrationLibrary.uploadPatience } ?? false
            }
        }
        var notices: [String] = []
        for take in pending {
            guard let lock = try? ArticleLock.tryAcquire(root.lockURL(take.article), purpose: .recovery) else {
                continue  // a live recorder holds the article: the take is not abandoned
            }
            if catalog.isShared {
                let here = FileSystem.exists(root.partialURL(take.chunk, of: take.article)) || FileSystem.exists(root.chunkURL(take.chunk, of: take.article))
                guard here else { continue }  // begun through another host
                // Another host records into the article, or the catalog cannot say: not abandoned.
                let otherHolder: Catalog.LeaseHolder?
                do throws(NarrationError) {
                    otherHolder = try catalog.leaseHolder(of: take.article, other: host, now: now)
                } catch {
                    continue
                }
                guard otherHolder == nil else { continue }
            }
            if let notice = recover(take.chunk, of: take.article, target: take.target, paragraph: take.paragraph, root: root, catalog: catalog) {
                notices.append(notice)
            }
            withExtendedLifetime(lock) {}
        }
        return notices
    }

    /// In a catalog several hosts share, removes the partial files of takes this host let go to
    /// another host (its page went on there, from the take's start) once that host committed the
    /// take: its chunk is in the article, with a checked copy in the recordings store or its file
    /// here. A partial file whose take is pending, or whose chunk has no copy anywhere this host
    /// can see, stays.
    /// - Returns: how many partial files were removed.
    @discardableResult
    static func removeHandedOverPartials(root: DataRoot, catalog: Catalog) -> Int {
        guard catalog.isShared, let articles = try? FileManager.default.contentsOfDirectory(atPath: root.articlesURL.path) else { return 0 }
        let suffix = ".partial.wav"
        var removed = 0
        for name in articles where Identifier.isWellFormed(name) {
            let article = ArticleID(name)
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: root.chunksURL(article).path) else { continue }
            let partials = files.filter { $0.hasSuffix(suffix) }.map { ChunkID(String($0.dropLast(suffix.count))) }.filter { Identifier.isWellFormed($0.rawValue) }
            guard !partials.isEmpty, let committed = try? Set(catalog.chunkIDs(of: article)) else { continue }
            for chunk in partials where committed.contains(chunk) {
                let copied = (try? catalog.chunkCopy(of: chunk)) != nil
                guard copied || FileSystem.exists(root.chunkURL(chunk, of: article)) else { continue }
                if (try? FileManager.default.removeItem(at: root.partialURL(chunk, of: article))) != nil { removed += 1 }
            }
        }
        return removed
    }

    private static func recover(
        _ chunkID: ChunkID, of articleID: ArticleID, target: TakeTarget, paragraph: ParagraphID?, root: DataRoot, catalog: Catalog
    ) -> String? {
        let partial = root.partialURL(chunkID, of: articleID)
        let final = root.chunkURL(chunkID, of: articleID)
        let source: URL
        if FileSystem.exists(partial) {
            source = partial
        } else if FileSystem.exists(final) {
            source = final  // renamed, but the catalog transaction did not commit
        } else {
            try? catalog.abandonTake(chunkID)
            return nil
        }
        guard let article = try? catalog.article(matching: articleID.rawValue) else { return nil }
        let damagedHeader = root.trashURL(articleID).appendingPathComponent("\(chunkID.rawValue).damaged-header")
        var headerNote = ""
        do {
            if source == partial {
                try? FileSystem.createDirectory(root.trashURL(articleID))
                let repair = try TakeFile.repair(partial, format: article.format, damagedHeaderCopy: damagedHeader)
                guard repair.frames > 0 else {
                    try? FileManager.default.removeItem(at: partial)
                    try? catalog.abandonTake(chunkID)
                    return nil
                }
                if repair.headerRebuilt {
                    let kept = FileSystem.exists(damagedHeader) ? " (the damaged one is kept as \(damagedHeader.path))" : ""
                    headerNote = " Its header was damaged and has been rebuilt from the article's format\(kept)."
                }
            }
            let measured = try TakeFile.measure(source)
            let chunk = Chunk(
                id: chunkID, articleID: articleID, frames: measured.frames, format: article.format,
                peak: measured.peak, rms: measured.rms, overruns: 0, recovered: true,
                recordedAt: (try? FileManager.default.attributesOfItem(atPath: source.path)[.modificationDate] as? Date) ?? Date(),
                paragraphID: paragraph)
            let placed = try TakeCommit.commit(chunk, target: target.forRecovery, from: source, root: root, catalog: catalog)
            let note = switch target {
            case .replace, .replaceParagraph: " (a re-record of the chunk before it, which was kept)"
            default: ""
            }
            let withdrawn = placed.withdrawn.map { " " + WithdrawnExport.sentence($0, title: article.title) } ?? ""
            return "Recovered an interrupted take of \"\(article.title)\" (\(article.id)) as chunk \(placed.index)\(note): \(Timecode.precise(chunk.duration)).\(headerNote)\(withdrawn)"
        } catch {
            if error.kind == .fileCorrupt {
                let aside = root.trashURL(articleID).appendingPathComponent("\(chunkID.rawValue).damaged.wav")
                try? FileSystem.move(source, to: aside)
                try? catalog.abandonTake(chunkID)
                return "An interrupted take of \"\(article.title)\" could not be repaired and was set aside as \(aside.path): \(error.message)"
            }
            return "An interrupted take of \"\(article.title)\" could not be recovered yet and stays in \(source.path): \(error.message)"
        }
    }
}
