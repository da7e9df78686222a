public import Foundation
public import NarrationAudio
public import NarrationCore

/// Takes that a page uploads from the browser's microphone, as the page stores them first in
/// the browser and sends them in numbered pieces (see the web studio's Protocol.md).
///
/// Such a take records as any other (`Recording` over a `StreamedCapture`): the pieces feed its
/// stream in order, its writer checkpoints them, and it is committed once every frame up to the
/// length the page gives has come. When the page's connection or the server breaks first, the
/// take is set aside (`Recording.setAside()`): registered, its partial file kept, left alone by
/// recovery for `uploadPatience`, and resumed here when the page comes back with the rest.
extension NarrationLibrary {
    /// How long an uploaded take whose page has not come back is left to its upload before
    /// recovery keeps what arrived, as it keeps any interrupted take.
    public static let uploadPatience: TimeInterval = 7 * 24 * 3600

    /// What the catalog knows of the upload `key`; nil when no page began a take with it.
    public func takeUpload(_ key: TakeUploadKey) throws(NarrationError) -> TakeUploadRecord? {
        try catalog.takeUpload(key)
    }

    /// The takes still being uploaded into `article` (set aside, or recording), oldest first.
    public func uploads(into article: ArticleID) throws(NarrationError) -> [TakeUploadRecord] {
        try catalog.uploads(into: article)
    }

    /// The frames on disk of an uploaded take set aside: its partial file's whole frames.
    public func uploadedFrames(_ record: TakeUploadRecord, format: AudioFormat) -> FrameCount {
        TakeHeader.frames(inFileOfSize: FileSystem.size(root.partialURL(record.chunk, of: record.article)), format: format)
    }

    /// Takes up again a take set aside while its page was away: the article is locked (and held
    /// from the other hosts), the partial file's header is made to match its whole frames, and
    /// the take records on after them from `stream` (whose count starts there), to be committed
    /// where it was meant to go. A take this host holds no partial file of (begun through
    /// another host) starts here anew, from its first frame.
    /// - Throws: `usage` when the take is not one being uploaded into `article` by this
    ///   account; `articleBusy` while another take records, here or through another host;
    ///   `fileSystem`, `foreignFile`.
    public func resumeUpload(_ tag: TakeUploadTag, into article: Article, stream: (FrameCount) -> StreamedCapture) throws(NarrationError) -> Recording {
        guard let record = try catalog.takeUpload(tag.key), record.article == article.id, record.account == tag.account else {
            throw .usage("That take is not one of this article's: reload the page.")
        }
        guard record.stage == .uploading, let pending = try catalog.pendingTake(record.chunk) else {
            throw .usage("That take is on the server already.")
        }
        let lock = try ArticleLock.acquire(for: article, at: root.lockURL(article.id), purpose: .recording)
        let lease = try ArticleLease.take(article, host: host, catalog: catalog)
        let partial = root.partialURL(record.chunk, of: article.id)
        let frames: FrameCount
        let writer: SoundFileWriter
        if FileSystem.exists(partial) {
            frames = try TakeFile.repair(partial, format: article.format).frames
            writer = try SoundFileWriter(continuing: partial.path, format: article.format)
        } else {
            // Begun through another host (which died or let the page go) or lost here: the page
            // kept every piece until the take is committed, so it sends the take again from its start.
            try root.prepareArticle(article.id)
            frames = 0
            writer = try SoundFileWriter(creating: partial.path, format: article.format)
            try writer.checkpoint()
        }
        let reserve = try SpaceReserve(at: root.articleURL(article.id).appendingPathComponent("space.reserve"))
        let plan = try catalog.readingPlan(of: article)
        let paragraph = plan.paragraphs.first { $0.id == pending.paragraph }
        let input = stream(frames)
        guard input.format == article.format else {
            throw .usage("The browser's microphone sends \(input.format) but the article is \(article.format): reload the page.")
        }
        return Recording(
            article: article, chunkID: record.chunk, paragraph: paragraph, upNext: paragraph.flatMap(plan.paragraph(after:)), device: input,
            durationFrames: nil, root: root, catalog: catalog, target: pending.target, writer: writer, lock: lock, lease: lease, reserve: reserve,
            resumedFrom: frames, takesKept: takesKept)
    }

    /// Keeps what arrived of an uploaded take whose page will not send the rest: it is
    /// committed as a recovered chunk, as recovery keeps an interrupted take.
    /// - Returns: the sentence recovery gives; nil when there was nothing to keep.
    public func keepWhatArrived(_ key: TakeUploadKey) throws(NarrationError) -> String? {
        guard let record = try catalog.takeUpload(key), record.stage == .uploading else { return nil }
        return TakeRecovery.run(root: root, catalog: catalog, only: record.chunk, host: host).first
    }
}
