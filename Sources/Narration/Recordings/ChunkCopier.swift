import Foundation
public import NarrationCore
import Synchronization

/// A reading service's copying of its chunks to the recordings store while it runs: a round
/// (`NarrationLibrary.copyChunks(to:)`) when the service starts, so that a host coming back
/// copies what it holds; another as soon as a take is kept; and one after each `interval` in
/// case a round failed or another edit made a chunk (a trim, an import). A round that fails is
/// tried again after 1 s, then 2, 4… up to `interval`; nothing is lost meanwhile, since the
/// chunk stays durable on this host's disk.
///
/// A timer and a wake-up, not a thread: between rounds the task waits on `wakeUps`, which the
/// takes kept and the timer feed (at most one waiting, so a burst of takes makes one
/// round).
public final class ChunkCopier: Sendable {
    public let library: NarrationLibrary
    public let recordings: RecordingStore
    /// The longest wait between rounds, and between tries of a failing round.
    public let interval: Duration

    /// One chunk copied, with the time from its take kept on this host to its copy recorded
    /// (nil for a chunk kept before this service started, or made by an edit).
    public struct Copied: Sendable {
        public let copy: ChunkCopy
        public let sinceKept: Duration?
    }

    private let wakeUps: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation
    /// When each take kept on this host since the service started was kept, until it is copied.
    private let keptAt = Mutex<[ChunkID: Date]>([:])

    public init(library: NarrationLibrary, recordings: RecordingStore, interval: Duration = .seconds(30)) {
        self.library = library
        self.recordings = recordings
        self.interval = interval
        (wakeUps, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        library.takesKept.listen { [weak self] take in
            self?.keptAt.withLock { $0[take.chunk] = Date() }
            self?.wake.yield()
        }
    }

    /// Copies rounds until the task running it is cancelled (the server stopping).
    /// - Parameter told: after each round, of its chunks copied or of its error.
    public func run(told: @escaping @Sendable (Result<[Copied], NarrationError>) -> Void = { _ in }) async {
        let interval = self.interval
        let timer = Task { [wake] in
            while (try? await Task.sleep(for: interval)) != nil { wake.yield() }
        }
        defer { timer.cancel() }
        wake.yield()  // the first round at once, with the trash: what this host held while it was away
        var retry = Duration.seconds(1)
        var first = true
        for await _ in wakeUps {
            let result = await round(includingTrash: first)
            if case .success = result { first = false }
            switch result {
            case .success(let copied):
                told(.success(copied))
                retry = .seconds(1)
            case .failure(let error):
                told(.failure(error))
                guard (try? await Task.sleep(for: retry)) != nil else { return }
                retry = min(retry * 2, interval)
                wake.yield()
            }
        }
    }

    /// One round now, as the service does before it stops: waits for it at most `limit`.
    /// - Returns: the round's result, or nil when it did not end within `limit`.
    public func finalRound(within limit: Duration) async -> Result<[Copied], NarrationError>? {
        await withTaskGroup(of: Result<[Copied], NarrationError>?.self) { group in
            group.addTask { await self.round() }
            group.addTask {
                try? await Task.sleep(for: limit)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// One round: every chunk this host holds without a copy.
    func round(includingTrash: Bool = false) async -> Result<[Copied], NarrationError> {
        do throws(NarrationError) {
            let round = try await library.copyChunks(to: recordings, includingTrash: includingTrash)
            // Each copy's own time (its `storedAt`), not the round's end: a round copies several.
            let copied = keptAt.withLock { kept in
                round.copied.map { copy in
                    Copied(copy: copy, sinceKept: kept.removeValue(forKey: copy.chunk).map { .seconds(max(0, copy.storedAt.timeIntervalSince($0))) })
                }
            }
            return .success(copied)
        } catch {
            return .failure(error)
        }
    }
}
