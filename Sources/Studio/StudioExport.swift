import Narration
import NarrationCore

/// The background export in the studio: after every change to the chunks, the new chunks are
/// measured, the article's export is made ready (with a profile that has one: queue then encodes
/// only what the last take changed) and, after a take, the take is checked (`StudioTakeCheck`).
/// The session polls what was made and found.
final class StudioExport {
    private let library: NarrationLibrary
    private let profile: DeliveryProfile
    private let language: String
    private let checkQueue: TakeCheckWork?
    /// The article's export kept nearly made between takes, for a profile that has one.
    private var ready: ReadyExport?
    /// The chunks the export was last made ready for (shown as "ready to queue" while they are
    /// the article's chunks), and those the export being made now is for.
    private var readyFor: [ChunkID]?
    private var preparingFor: [ChunkID] = []
    /// The work started after the last change, until its findings are collected.
    private var takeCheck: StudioTakeCheck?

    init(library: NarrationLibrary, profile: DeliveryProfile, language: String, checkQueue: TakeCheckWork? = nil) {
        self.library = library
        self.profile = profile
        self.language = language
        self.checkQueue = checkQueue
    }

    /// Starts afresh on `article` (nil: none is open), forgetting the last article's export.
    func open(_ article: Article?) {
        ready?.clear()
        ready = article.flatMap { article in
            ReadyExport.applies(to: profile, format: article.format) ? ReadyExport(scratchFolder: library.root.articleURL(article.id)) : nil
        }
        readyFor = nil
    }

    /// A take starts: it gets the cores; the export is made ready again after it.
    func pauseForTake() {
        ready?.stop()
    }

    /// Starts what follows a change to the chunks (now `chunks`): measuring new chunks, making
    /// the export ready again, and (with `checking`) the take check.
    func afterChange(of article: Article, chunks: [ChunkID], checking: Bool) {
        preparingFor = chunks
        takeCheck = StudioTakeCheck(
            library: library, article: article, language: language, checking: checking, queue: checkQueue, ready: ready.map { ($0, profile) })
    }

    /// Whether the export is ready for exactly `chunks`.
    func isReady(for chunks: [ChunkID]) -> Bool {
        if takeCheck?.exportReady == true { readyFor = preparingFor }
        return readyFor == chunks
    }

    /// The take check's findings, once, when it is over; nil while it runs or when none was started.
    func takeFindings() -> [TakeCheck]? {
        guard let checks = takeCheck?.checks else { return nil }
        takeCheck = nil
        return checks
    }

    /// The export made ready for queue to reuse, and the work still making it.
    var forQueue: (ReadyExport, StudioTakeCheck?)? { ready.map { ($0, takeCheck) } }
}
