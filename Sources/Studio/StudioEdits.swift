import Foundation
import Narration
import NarrationCore

/// The edits the studio makes to the open article's chunks and paragraphs (undo, delete, skip,
/// a take moved to the paragraph its check heard, hints dismissed, restarts cut or left), each
/// one library call and the sentence that says what it did. The session then reads the article
/// again.
enum StudioEdits {
    /// What an edit did: what to say, and what follows it.
    struct Done {
        var notice: StudioState.Notice
        /// Whether what follows a change to the chunks runs (the export made ready again): nil
        /// when it does not, else whether the take check runs too.
        var afterChange: Bool?
        /// The position to select afterwards, if it moves.
        var select: Int?
        /// Whether the reading pane goes back to following the text.
        var followsText = false
    }

    /// Takes back the article's last edit and says which.
    static func undo(_ article: Article, library: NarrationLibrary) throws(NarrationError) -> Done {
        let undone = try library.undo(.article(article.id))
        let note = undone.withdrawn.map { " " + WithdrawnExport.sentence($0, title: article.title) } ?? ""
        return Done(
            notice: .init("Undone: \(undone.edit.summary) Press u again to go one edit further back.\(note)"), afterChange: false,
            followsText: true)
    }

    /// Deletes chunk `index`, the chunk `shown` (by its id: another command may have changed the list).
    static func delete(_ index: ChunkIndex, shown: ChunkID?, of article: Article, library: NarrationLibrary) throws(NarrationError) -> (Done, ChunkID) {
        let (chunk, withdrawn) = try library.deleteChunk(at: index, of: article, expected: shown)
        let note = withdrawn.map { " " + WithdrawnExport.sentence($0, title: article.title) } ?? ""
        let notice = StudioState.Notice(
            "Chunk \(index) deleted (\(Timecode.tenths(chunk.format.seconds(chunk.frames)))); its file is in the article's trash.\(note)")
        return (Done(notice: notice, afterChange: false), chunk.id)
    }

    /// Skips paragraph `number`, or unskips it: one edit that undo reverses.
    static func skip(_ number: Int, skipping: Bool, of article: Article, library: NarrationLibrary) throws(NarrationError) -> Done {
        _ = try library.skipParagraphs([number], skipping: skipping, of: article)
        return Done(
            notice: .init(
                skipping
                    ? "Paragraph \(number) is skipped: it is not read, and in no chapter or transcript. Press k on it again to read it after all, or u to undo."
                    : "Paragraph \(number) is to be read again."))
    }

    /// Puts chunk `index` on paragraph `paragraph`, among that paragraph's chunks; undo puts it back.
    static func move(_ index: ChunkIndex, toParagraph paragraph: Int, of article: Article, library: NarrationLibrary) throws(NarrationError) -> Done {
        let moved = try library.rebindChunk(at: index, toParagraph: paragraph, of: article)
        let place = moved.to == moved.from ? "" : " (it is chunk \(moved.to) now)"
        let note = moved.withdrawn.map { " " + WithdrawnExport.sentence($0, title: article.title) } ?? ""
        return Done(
            notice: .init("Chunk \(moved.from) now reads paragraph \(paragraph)\(place). Press u to undo.\(note)"), afterChange: true,
            select: moved.to.position)
    }

    /// Dismisses the hints of `entry`'s take in the catalog: the chunk is no longer flagged, here
    /// or in any studio.
    static func dismissHints(of entry: NarrationLibrary.ChunkEntry, library: NarrationLibrary) throws(NarrationError) -> Done {
        try library.dismissHints(ofChunk: entry.chunk.id)
        return Done(notice: .init("Chunk \(entry.index)'s hint is dismissed: it is no longer marked."))
    }

    /// Cuts restart `number` out of the take `take`: one edit, which undo takes back byte for byte.
    /// - Throws: a usage error when the cut was accepted or dismissed meanwhile; the library's
    ///   errors (the take deleted or replaced meanwhile, its file, the article busy).
    static func acceptCut(_ number: Int, of take: ChunkID, in article: Article, library: NarrationLibrary) throws(NarrationError) -> Done {
        guard let result = try library.acceptCuts([number], ofChunk: take, of: article) else {
            throw .usage("That cut was made or left already: nothing was cut.")
        }
        let note = result.withdrawn.map { " " + WithdrawnExport.sentence($0, title: article.title) } ?? ""
        let format = article.format
        return Done(
            notice: .init(
                "Cut \(seconds(format.seconds(result.framesCut))) out of chunk \(result.index) where words were read again; it is \(seconds(result.chunk.duration)) now. Press u to undo.\(note)"),
            afterChange: false, select: result.index.position)
    }

    /// Cuts every restart proposed in the article, one edit per take.
    static func acceptAllCuts(of article: Article, library: NarrationLibrary) throws(NarrationError) -> Done {
        let results = try library.acceptAllCuts(of: article)
        guard let first = results.first else { return Done(notice: .init("No cut is left to make.")) }
        let count = results.reduce(0) { $0 + $1.cuts }
        let frames = results.reduce(0) { $0 + $1.framesCut }
        let takes = results.count == 1 ? "chunk \(first.index)" : "\(results.count) chunks"
        let undo = results.count == 1 ? "Press u to undo." : "Press u to undo, one chunk at a time."
        let note = results.compactMap(\.withdrawn).first.map { " " + WithdrawnExport.sentence($0, title: article.title) } ?? ""
        return Done(
            notice: .init(
                "Cut \(count == 1 ? "1 restart" : "\(count) restarts") out of \(takes): \(seconds(article.format.seconds(frames))) taken out in all. \(undo)\(note)"),
            afterChange: false, select: first.index.position)
    }

    /// Leaves the take `take` as it is at restart `number`: the cut is no longer proposed, here or
    /// in any studio. Not an edit: the take is unchanged.
    static func dismissCut(_ cut: StudioState.Cut, library: NarrationLibrary) throws(NarrationError) -> Done {
        guard try library.dismissCut(cut.number, ofChunk: cut.take) else {
            return Done(notice: .init("That cut was made or left already: nothing changed."))
        }
        return Done(notice: .init("Chunk \(cut.chunk) is left as it is at \(seconds(cut.start)): that cut is no longer proposed."))
    }

    /// "0.75 s", "12.40 s": seconds as a cut's notice says them.
    static func seconds(_ value: Double) -> String {
        String(format: "%.2f s", value.isFinite ? value : 0)
    }
}
