public import NarrationCore

/// What the take check found in an article in review, for the proof-listener: the restarts it
/// proposes to cut (`ProposedCut`) and the flags it raised (`TakeHint`) that the volunteer has
/// neither accepted nor dismissed, each with the take and paragraph it belongs to.
///
/// Looking and listening are for anyone who may see the article in review (`view`); cutting and
/// leaving a take as it is are the proof-listener's (`review`), the same edit the studio makes
/// (`acceptCuts`: one edit of the article's history, which undo takes back) and the same
/// dismissal, each written with its line of the audit log in one transaction. A cut is named by
/// its take and its number in that take's check, so a take cut or recorded again meanwhile (a new
/// take with a new id) is refused with a sentence, never confused with another.
extension ReviewDesk {
    /// A flag the take check raised on a take, and where the take is in the article.
    public struct TakeFlag: Sendable, Equatable {
        public let chunk: ChunkID
        public let index: ChunkIndex
        /// The paragraph of the text the take reads (1 is the first), if it reads one.
        public let paragraph: Int?
        public let hint: TakeHint
    }

    /// The take check's open cuts and flags of an article, in the article's order.
    public struct TakeFindings: Sendable {
        public let cuts: [TakeCut]
        public let flags: [TakeFlag]
        /// The first frame of each take in the article's audio, so that a time in a take is
        /// placed in the article's.
        public let takeStarts: [ChunkID: FrameCount]
    }

    /// The open cuts and flags of the takes of the article of `context`, as the catalog has
    /// them now, for anyone who may see it (`view`).
    /// - Throws: `reviewNotAllowed` for anyone else; the catalog's errors.
    public func findings(_ context: Context) throws(NarrationError) -> TakeFindings {
        guard Permissions.may(context.account, .view, context.relation) else { throw .reviewNotAllowed }
        let checks = try library.records(of: context.article).takeChecks()
        let numbers = context.reviewed.paragraphNumbers
        var cuts: [TakeCut] = []
        var flags: [TakeFlag] = []
        var starts: [ChunkID: FrameCount] = [:]
        var frame = 0
        for (position, chunk) in context.reviewed.chunks.enumerated() {
            starts[chunk.id] = frame
            frame += chunk.frames
            guard let check = checks[chunk.id] else { continue }
            let (index, paragraph) = (ChunkIndex(position: position), chunk.paragraph.flatMap { numbers[$0] })
            cuts += check.openCuts.map { TakeCut(chunk: chunk.id, index: index, paragraph: paragraph, number: $0.number, cut: $0.cut) }
            flags += check.openHints.map { TakeFlag(chunk: chunk.id, index: index, paragraph: paragraph, hint: $0) }
        }
        return TakeFindings(cuts: cuts, flags: flags, takeStarts: starts)
    }

    /// The surroundings of the open cut `number` of the take `chunk`, as read and as it would be
    /// cut (`cutPreview`), for anyone who may see the article (`view`).
    /// - Throws: `reviewNotAllowed`; `takeLeftArticle`, `noOpenCut`; the file's errors.
    public func cutPreview(_ number: Int, ofChunk chunk: ChunkID, in context: Context) throws(NarrationError) -> (cut: TakeCut, preview: CutPreview) {
        guard Permissions.may(context.account, .view, context.relation) else { throw .reviewNotAllowed }
        let cut = try openCut(number, ofChunk: chunk, in: context)
        return (cut, try library.cutPreview(number, ofChunk: chunk, of: context.article))
    }

    /// Cuts the open cut `number` out of the take `chunk`, as the studio does: one edit of the
    /// article, under its lock, with the audit line of the proof-listener's in its transaction.
    /// The proof-listener's (`review`), on an article ready for review.
    /// - Throws: `reviewNotAllowed`; `takeLeftArticle`, `noOpenCut` (nothing is cut);
    ///   `articleBusy` while the article is being recorded into or changed; the file's errors.
    public func acceptCut(_ number: Int, ofChunk chunk: ChunkID, in context: Context) throws(NarrationError) -> (cut: TakeCut, result: CutResult) {
        guard Permissions.may(context.account, .review, context.relation) else { throw .reviewNotAllowed }
        let cut = try openCut(number, ofChunk: chunk, in: context)
        let audit = context.service.auditLine(.reviewCutAccepted, by: context.account, detail: Self.detail(of: cut, in: context.article.id))
        guard let result = try library.acceptCuts([number], ofChunk: chunk, of: context.article, audit: audit) else {
            throw .noOpenCut(in: cut.index)
        }
        return (cut, result)
    }

    /// Leaves the take `chunk` as it is at its open cut `number` (the cut is dismissed, as the
    /// studio dismisses it), with the proof-listener's audit line in the same transaction.
    /// The proof-listener's (`review`), on an article ready for review.
    /// - Throws: `reviewNotAllowed`; `takeLeftArticle`, `noOpenCut` (nothing is written).
    @discardableResult
    public func leaveCut(_ number: Int, ofChunk chunk: ChunkID, in context: Context) throws(NarrationError) -> TakeCut {
        guard Permissions.may(context.account, .review, context.relation) else { throw .reviewNotAllowed }
        let cut = try openCut(number, ofChunk: chunk, in: context)
        let audit = context.service.auditLine(.reviewCutLeft, by: context.account, detail: Self.detail(of: cut, in: context.article.id))
        guard try library.dismissCut(number, ofChunk: chunk, audit: audit) else { throw .noOpenCut(in: cut.index) }
        return cut
    }

    /// The open cut `number` of the take `chunk` of the article, as the catalog has it now.
    private func openCut(_ number: Int, ofChunk chunk: ChunkID, in context: Context) throws(NarrationError) -> TakeCut {
        let chunks = try library.records(of: context.article).chunks()
        guard let position = chunks.firstIndex(where: { $0.id == chunk }) else { throw .takeLeftArticle }
        guard let cut = try library.proposedCuts(of: context.article).first(where: { $0.chunk == chunk && $0.number == number }) else {
            throw .noOpenCut(in: ChunkIndex(position: position))
        }
        return cut
    }

    /// "article k3f9x2ab, chunk 2 (paragraph 3): at 0.2 s: “the storm” read twice: cut 0.20–0.50 s"
    private static func detail(of cut: TakeCut, in article: ArticleID) -> String {
        "article \(article), chunk \(cut.index.number)\(cut.paragraph.map { " (paragraph \($0))" } ?? ""): \(cut.cut)"
    }
}

extension NarrationError {
    /// A take named by a review that is no longer in its article (cut, recorded again, deleted).
    public static let takeLeftArticle = NarrationError(
        .chunkIndexOutOfRange, "That take is no longer in the article: it was cut, recorded again or deleted meanwhile. Reload the article to see what is left to decide.")

    /// A cut that is not open in its take: cut or left as it is already, or never proposed.
    public static func noOpenCut(in index: ChunkIndex) -> NarrationError {
        NarrationError(
            .chunkIndexOutOfRange,
            "Chunk \(index.number) has no such cut left to decide: it was cut or left as it is meanwhile. Reload the article to see what is left.")
    }
}
