import Narration
import NarrationAudio
import NarrationCore
import Synchronization

/// A proposed cut heard in the studio before the volunteer decides: the seconds around it, as
/// read or as they would be cut (`CutPreview`), made and played through the studio's speaker as
/// blocking work (`BlockingWork`), so that the screen keeps drawing while the volunteer listens.
/// Nothing waits for it: the session polls `isOver` and `error`; `stop()` ends it within one
/// block of the speaker.
final class StudioCutListening: Sendable {
    private struct Progress {
        var stopped = false
        var over = false
        var failure: NarrationError?
    }

    /// Seconds heard either side of the cut.
    static let context = 2.5

    private let progress = Mutex(Progress())

    /// Makes the preview of cut `number` of the take `take` and plays it through the output
    /// `open` makes.
    init(
        library: NarrationLibrary, article: Article, take: ChunkID, number: Int, asCut: Bool,
        output open: @escaping @Sendable (AudioFormat) throws(NarrationError) -> any PlaybackOutput
    ) {
        Task.detached { [self] in
            await BlockingWork.run(named: "narrate-cut-preview") { [self] in
                do throws(NarrationError) {
                    let preview = try library.cutPreview(number, ofChunk: take, of: article, context: Self.context)
                    guard !isStopped else { return finish(nil) }
                    try preview.play(asCut: asCut, on: try open(preview.format)) { self.isStopped }
                    finish(nil)
                } catch {
                    finish(error)
                }
            }
        }
    }

    private var isStopped: Bool { progress.withLock { $0.stopped } }

    private func finish(_ failure: NarrationError?) {
        progress.withLock {
            $0.failure = failure
            $0.over = true
        }
    }

    /// Whether it has played to its end, been stopped, or failed.
    var isOver: Bool { progress.withLock { $0.over } }

    /// Why the preview could not be made or played, once it could not.
    var error: NarrationError? { progress.withLock { $0.failure } }

    /// Stops it at once (the speaker drops what it holds); it is over within one block.
    func stop() {
        progress.withLock { $0.stopped = true }
    }
}
