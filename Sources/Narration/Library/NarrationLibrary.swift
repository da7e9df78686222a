public import Foundation
public import NarrationAudio
public import NarrationCore

/// The volunteer's recordings: the data root, its catalog, and the operations every command uses.
///
/// Opening a library adopts takes abandoned by a crashed recorder; `notices` says what was adopted.
/// A library opened read-only (a data root that cannot be written, for a command that only reads)
/// adopts nothing and changes nothing; its notice says so.
///
/// Front ends read through `records` (the articles, the current one, the history, the activity)
/// and `records(of:)` (one article's chunks, paragraphs, reading plan and take checks), and
/// change things through the library's operations; its `catalog` is the engine's own.
public final class NarrationLibrary: Sendable {
    public let root: DataRoot
    /// The engine's own: front ends read through `records` and change through the operations.
    let catalog: Catalog
    /// Sentences for the volunteer about the opening: takes recovered, or a read-only data root.
    public let notices: [String]
    /// Whether the data root could not be written when the library was opened, so that only
    /// reading (list, chunks, play, export, check) works.
    public let isReadOnly: Bool
    /// The takes this library keeps from now on, for a reading service's metrics.
    public let takesKept = TakesKept()
    /// This host among those sharing the catalog: who holds an article it records into
    /// (`ArticleLease`).
    let host: String

    /// Opens the library at `root`, creating it if new, and recovers abandoned takes.
    /// - Parameter allowingReadOnly: for commands that only read: a root that exists but cannot
    ///   be written is opened read-only (the catalog read-only, no recovery) instead of refused.
    /// - Throws: `dataRootNotWritable`, `catalogCorrupt`.
    public init(root: DataRoot, allowingReadOnly: Bool = false) throws(NarrationError) {
        let access = try root.prepare(allowingReadOnly: allowingReadOnly)
        self.root = root
        self.host = ArticleLease.thisHost
        switch access {
        case .readWrite:
            self.catalog = try Catalog(path: root.catalogURL.path)
            self.notices = TakeRecovery.run(root: root, catalog: catalog)
            self.isReadOnly = false
            OutboxSweep.run(root: root, catalog: catalog)
        case .readOnly:
            self.catalog = try Catalog(readingOnly: root.catalogURL.path)
            self.notices = [Self.readOnlyNotice(root)]
            self.isReadOnly = true
        }
    }

    /// Opens the library whose recordings are at `root` and whose records are in `catalog` (one
    /// that several hosts share, on PostgreSQL), and recovers this host's abandoned takes.
    /// `host` names this host among them (a test gives two libraries in one process two names).
    /// - Throws: `dataRootNotWritable`.
    public init(root: DataRoot, catalog: Catalog, host: String? = nil) throws(NarrationError) {
        _ = try root.prepare(allowingReadOnly: false)
        self.root = root
        self.catalog = catalog
        self.host = host ?? ArticleLease.thisHost
        self.notices = TakeRecovery.run(root: root, catalog: catalog, host: self.host)
        self.isReadOnly = false
        OutboxSweep.run(root: root, catalog: catalog)
    }

    /// Removes the partial files of takes this host let go to another host once that host
    /// committed them (`TakeRecovery.removeHandedOverPartials`). It reads every article's folder,
    /// so a server calls it when it starts, not every command.
    /// - Returns: how many were removed.
    @discardableResult
    public func removeHandedOverPartials() -> Int {
        TakeRecovery.removeHandedOverPartials(root: root, catalog: catalog)
    }

    /// What a read-only library means for the volunteer, said once when it is opened.
    static func readOnlyNotice(_ root: DataRoot) -> String {
        "The data folder \(root.url.path) is read-only: narrate can list, play, check and export, but not record or change anything until it is writable."
    }

    // MARK: Articles

    /// Creates an article, its folders, and makes it the current one.
    /// - Throws: a usage error for an empty title, or a title, publication or narrator holding
    ///   NUL (`ControlCharacters.requireNoNUL`).
    public func newArticle(title: String, publication: String, narrator: String, format: AudioFormat) throws(NarrationError) -> Article {
        let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw NarrationError(.usage, "The title is empty.", remedy: .giveTitle) }
        try ControlCharacters.requireNoNUL(title, in: "title")
        try ControlCharacters.requireNoNUL(publication, in: "publication")
        try ControlCharacters.requireNoNUL(narrator, in: "narrator")
        try format.validate()
        let article = Article(
            id: ArticleID.random(), title: trimmed, publication: publication, narrator: narrator,
            format: format, createdAt: Date())
        try root.prepareArticle(article.id)
        try catalog.add(article)
        return article
    }

    /// The publication and narrator of the most recently started article that names them (each
    /// on its own), for a new article's form to offer when config.toml sets none; "" where no
    /// article names one.
    public func recentCredits() -> (publication: String, narrator: String) {
        let articles = (try? catalog.articles()) ?? []
        return (articles.first { !$0.publication.isEmpty }?.publication ?? "", articles.first { !$0.narrator.isEmpty }?.narrator ?? "")
    }

    /// The article `id` names (a full id or a unique prefix), else the current article.
    /// - Throws: `unknownArticle`, `noCurrentArticle`.
    public func article(_ id: String?) throws(NarrationError) -> Article {
        if let id { return try catalog.article(matching: id) }
        guard let current = try catalog.currentArticle() else { throw .noCurrentArticle }
        return current
    }

    /// Makes `article` the one later commands default to.
    public func use(_ article: Article) throws(NarrationError) {
        try catalog.setCurrentArticle(article.id)
    }

    // MARK: Reading

    /// The library's records, read-only: its articles, the current one, the history of edits and
    /// the volunteer's activity.
    public var records: LibraryRecords { LibraryRecords(catalog: catalog) }

    /// One article's records, read-only: its chunks, paragraphs, reading plan and take checks.
    public func records(of article: Article) -> ArticleRecords { ArticleRecords(article: article, catalog: catalog) }

    // MARK: Chunks

    /// What is wrong with a chunk's file, as far as its header and size tell.
    public enum FileProblem: Sendable, Equatable {
        /// There is no file.
        case missing
        /// The file holds only `frames` whole frames of the catalog's count (cut short).
        case truncated(frames: FrameCount)
        /// The file is a WAV of another format than the article's (replaced by another file).
        case otherFormat(AudioFormat)
        /// The file cannot be read, or is not a WAV file narrate wrote; says why.
        case unreadable(String)

        /// "missing", "truncated", "otherFormat" or "unreadable": the key scripts read.
        public var name: String {
            switch self {
            case .missing: "missing"
            case .truncated: "truncated"
            case .otherFormat: "otherFormat"
            case .unreadable: "unreadable"
            }
        }
    }

    /// A chunk as the listing shows it: its index, where its file is, and what is wrong with the file.
    public struct ChunkEntry: Sendable {
        public let index: ChunkIndex
        public let chunk: Chunk
        public let file: URL
        /// Nil when the file's header and length are what the catalog says.
        public let problem: FileProblem?

        public var fileMissing: Bool { problem == .missing }
    }

    /// The article's chunks in order, each with its file checked by its header and size (fast:
    /// no audio is read). A file that an interrupted delete left in the trash is put back,
    /// unless the library is read-only.
    public func chunkEntries(of article: Article) throws(NarrationError) -> [ChunkEntry] {
        try catalog.chunks(of: article).enumerated().map { position, chunk in
            let file = root.chunkURL(chunk.id, of: article.id)
            var problem = Self.fileProblem(of: file, chunk: chunk)
            if problem == .missing, !isReadOnly {
                let trashed = root.trashedChunkURL(chunk.id, of: article.id)
                if FileSystem.exists(trashed), (try? FileSystem.move(trashed, to: file)) != nil {
                    problem = Self.fileProblem(of: file, chunk: chunk)
                }
            }
            return ChunkEntry(index: ChunkIndex(position: position), chunk: chunk, file: file, problem: problem)
        }
    }

    /// Removes the chunk at `index` from the article; its file goes to the article's trash. The
    /// article's export, if it had one, is withdrawn (see `WithdrawnExport`).
    /// - Parameter expected: the chunk a screen showed at `index`: when another is there now,
    ///   nothing is deleted (a list shown before another command changed the article).
    /// - Returns: the removed chunk and the export withdrawn.
    /// - Throws: `chunkIndexOutOfRange`, `articleBusy` while the article is being recorded, `usage`
    ///   when the chunk at `index` is not `expected`.
    @discardableResult
    public func deleteChunk(at index: ChunkIndex, of article: Article, expected: ChunkID? = nil) throws(NarrationError) -> (
        chunk: Chunk, withdrawn: WithdrawnExport?
    ) {
        let lock = try ArticleLock.acquire(for: article, at: root.lockURL(article.id), purpose: .edit)
        defer { withExtendedLifetime(lock) {} }
        let root = self.root
        let deleted = try catalog.deleteChunk(at: index, of: article, expected: expected) { id in
            let file = root.chunkURL(id, of: article.id)
            if FileSystem.exists(file) { try FileSystem.move(file, to: root.trashedChunkURL(id, of: article.id)) }
        }
        if deleted.withdrawn != nil { OutboxSweep.run(root: root, catalog: catalog) }
        return deleted
    }

    // MARK: Recording

    /// Everything a take needs before it starts: the article locked, the placement checked,
    /// the paragraph it reads chosen, the device open, the take registered and its partial file
    /// created. Nothing is captured until `Recording.start()`.
    ///
    /// In an article with a text, a take reads a paragraph: `reading` names which, and where it
    /// goes follows from it (see `ReadingPlan`); without `reading`, an appended take reads the
    /// next paragraph not read, and a re-recorded or inserted one reads the paragraph of the
    /// chunk it replaces or goes before.
    ///
    /// With `punch`, the take goes over chunk `punch.index` from `punch.seconds` on (punch-and-roll,
    /// see `PunchCommit`) and reads that chunk's paragraph; `Recording.preRoll` is what to play
    /// before starting it.
    /// - Throws: `articleBusy`, `chunkIndexOutOfRange`, a usage error for a paragraph that cannot
    ///   be read, the device's errors, `diskFull`.
    public func prepareRecording(
        into article: Article, placement: ChunkPlacement, reading: ReadingPlan.Choice? = nil, punch: PunchRequest? = nil, device name: String,
        duration: Double?, definitions: ALSADefinitions? = nil
    ) throws(NarrationError) -> Recording {
        try prepareRecording(
            into: article, placement: placement, reading: reading, punch: punch, input: .device(name, definitions: definitions), duration: duration)
    }

    /// Where a take's audio comes from.
    public enum CaptureInput: Sendable {
        /// An ALSA capture device, opened in the article's format.
        case device(String, definitions: ALSADefinitions?)
        /// Audio sent by another program (the web studio's browser microphone), in the article's format.
        case streamed(StreamedCapture)
    }

    /// Prepares a take from `input`: as `prepareRecording(into:placement:reading:punch:device:duration:definitions:)`.
    /// With `upload`, a page uploads the take's audio under that key: its take can be set aside
    /// and resumed (`resumeUpload`) when the page's connection or the server breaks.
    public func prepareRecording(
        into article: Article, placement: ChunkPlacement, reading: ReadingPlan.Choice? = nil, punch: PunchRequest? = nil,
        input: CaptureInput, duration: Double?, upload: TakeUploadTag? = nil
    ) throws(NarrationError) -> Recording {
        let durationFrames = try duration.map { (seconds) throws(NarrationError) in try AudioTime(seconds: seconds).frames(at: article.format) }
        let lock = try ArticleLock.acquire(for: article, at: root.lockURL(article.id), purpose: .recording)
        let lease = try ArticleLease.take(article, host: host, catalog: catalog)
        let order = try catalog.order(of: article.id)
        let plan = try catalog.readingPlan(of: article)
        var target = try TakeTarget(placement, in: order)
        var paragraph: Paragraph?
        var preRoll: PreRoll?
        if let punch {
            try order.validate(punch.index)
            let entry = try chunkEntries(of: article)[punch.index.position]
            try entry.requireUsable()
            // The request's numbers may come from a page or a typed line: checked before any arithmetic.
            let frame = try AudioTime(seconds: punch.seconds).frames(at: article.format)
            let preRollFrames = try AudioTime(seconds: punch.preRollSeconds).frames(at: article.format)
            guard frame < entry.chunk.frames else {
                throw NarrationError(
                    .usage, "Chunk \(punch.index.number) is \(Timecode.precise(entry.chunk.duration)) long, so \(Timecode.precise(punch.seconds)) is not in it.",
                    remedy: .punchWithinChunk)
            }
            target = .punch(entry.chunk.id, frame: frame)
            paragraph = plan.paragraphs.first { $0.id == entry.chunk.paragraphID }
            let start = max(0, frame - preRollFrames)
            preRoll = PreRoll(file: entry.file, frames: start..<frame, format: article.format)
        } else if let reading {
            let take = try plan.take(reading, title: article.title)
            (target, paragraph) = (TakeTarget(take.position), take.paragraph)
        } else if !plan.paragraphs.isEmpty {
            switch placement {
            case .append:
                let take = try plan.take(.next, title: article.title)
                (target, paragraph) = (TakeTarget(take.position), take.paragraph)
            case .insert(let index), .replace(let index):
                let bound = plan.chunks[index.position].paragraph
                paragraph = plan.paragraphs.first { $0.id == bound }
            }
        }
        let device: any CaptureSource
        switch input {
        case .device(let name, let definitions):
            device = try CaptureDevice(name: name, format: article.format, definitions: definitions)
        case .streamed(let stream):
            guard stream.format == article.format else {
                throw .usage("The browser's microphone sends \(stream.format) but the article is \(article.format): reload the page.")
            }
            device = stream
        }
        let chunkID = ChunkID.random()
        do {
            try root.prepareArticle(article.id)
            let reserve = try SpaceReserve(at: root.articleURL(article.id).appendingPathComponent("space.reserve"))
            try catalog.beginTake(chunkID, of: article.id, target: target, paragraph: paragraph?.id, at: Date(), upload: upload)
            let writer = try SoundFileWriter(creating: root.partialURL(chunkID, of: article.id).path, format: article.format)
            try writer.checkpoint()
            try use(article)
            return Recording(
                article: article, chunkID: chunkID, paragraph: paragraph, upNext: paragraph.flatMap(plan.paragraph(after:)), device: device,
                durationFrames: durationFrames, root: root,
                catalog: catalog, target: target, writer: writer, lock: lock, lease: lease, reserve: reserve, preRoll: preRoll, takesKept: takesKept)
        } catch {
            try? device.close()
            try? catalog.abandonTake(chunkID)
            try? FileManager.default.removeItem(at: root.partialURL(chunkID, of: article.id))
            throw error
        }
    }
}
