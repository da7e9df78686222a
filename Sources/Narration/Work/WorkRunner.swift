import Foundation
public import NarrationCore
import SQLEngines
import Synchronization

/// One host's hands on the catalog's queue of background work (`WorkQueue`): it does a job
/// while it holds its lease, renewing the lease as it goes, and then finishes it, fails it (the
/// queue tries it again later) or hands it back.
///
/// Two ways in:
/// - `run`, beside `narrate serve`: takes whatever job of its kinds is due, from any host (one
///   that failed and waited its turn, one a dead host held until its lease ran out), until the
///   task running it is cancelled. When none is due it sleeps `idle`.
/// - `perform`, for work a request or a command asks for and waits on: the job is made due a
///   little later (`handOff`), so that no other host takes it first, and taken by its id at once.
///   If the process dies while doing it, its lease runs out and a host's `run` takes it.
///
/// When the task doing a job is cancelled (the server stopping), the job is handed back at once
/// for another host to do, untried; what the blocking work of a cancelled job still writes is
/// refused by the queue, since the job is no longer this host's.
public final class WorkRunner: Sendable {
    /// Does one job of a kind; throws to fail it (tried again later by the queue).
    public typealias Handler = @Sendable (WorkQueue.Job) async throws(NarrationError) -> Void

    /// How a job of `run` ended, for the log and the metrics.
    public enum Outcome: Sendable {
        case finished(WorkQueue.Job)
        /// It failed; the queue tries it again after its delay, or never once `attempts` ran out.
        case failed(WorkQueue.Job, NarrationError)
        /// This host stopped: the job was given back untried.
        case handedBack(WorkQueue.Job)
        /// The lease ran out while it ran and another host took it: what this host did is not
        /// recorded as the job's end.
        case lost(WorkQueue.Job)
    }

    public let queue: WorkQueue
    /// This host among those sharing the catalog (`NarrationLibrary.host`).
    public let host: String
    /// How long a job is held without renewal: the longest a dead host's job waits for another.
    public let lease: Double
    /// How long `run` sleeps when nothing is due.
    public let idle: Duration
    /// How much later than now a job asked for by `perform` is due for other hosts.
    public let handOff: Double
    private let handlers: Mutex<[String: Handler]> = Mutex([:])
    /// The jobs under way through `perform`, to cancel when the host stops.
    private let performing: Mutex<(next: Int, tasks: [Int: Task<Outcome, Never>], stopped: Bool)> = Mutex((0, [:], false))
    /// The catalog's name, for the sentences of its errors.
    private let catalogName: String

    public init(queue: WorkQueue, host: String, catalogName: String, lease: Double = 10, idle: Duration = .seconds(2), handOff: Double = 60) {
        precondition(lease > 0 && handOff > lease, "a job is held a while, and handed off after its lease")
        self.queue = queue
        self.host = host
        self.catalogName = catalogName
        self.lease = lease
        self.idle = idle
        self.handOff = handOff
    }

    /// The runner of `library`'s catalog, named as its host.
    public convenience init(library: NarrationLibrary, lease: Double = 10, idle: Duration = .seconds(2), handOff: Double = 60) throws(NarrationError) {
        self.init(queue: try library.workQueue(), host: library.host, catalogName: library.catalog.path, lease: lease, idle: idle, handOff: handOff)
    }

    /// Has `run` do the jobs of `kind` with `handler`.
    public func handle(_ kind: String, with handler: @escaping Handler) {
        handlers.withLock { $0[kind] = handler }
    }

    /// The host is stopping: `perform` takes no more jobs, and the jobs it does are cancelled,
    /// and so handed back for another host, as `run`'s are when its task is cancelled.
    public func stop() {
        let tasks = performing.withLock { state in
            state.stopped = true
            return Array(state.tasks.values)
        }
        for task in tasks { task.cancel() }
    }

    // MARK: Doing work

    /// Takes due jobs of the kinds handled and does them, one at a time, until cancelled.
    /// - Parameter ended: told of each job's end.
    public func run(ended: @escaping @Sendable (Outcome) -> Void = { _ in }) async {
        while !Task.isCancelled {
            let kinds = handlers.withLock { Array($0.keys) }
            let job = try? await sql { [queue, host, lease] () throws(SQLEngineError) in
                try queue.take(host: host, lease: lease, now: Self.now(), kinds: kinds)
            }
            if let job, let handler = handlers.withLock({ $0[job.kind] }) {
                ended(await outcome(of: job, handler))
                continue
            }
            guard (try? await Task.sleep(for: idle)) != nil else { return }  // nothing due; cancelled: the server stops
        }
    }

    /// Asks for `kind` of work on `subject` (for `asker`, see `WorkQueue.enqueue`) and does it here and now with `body`, under the
    /// job's lease: finished when `body` returns, failed (tried again later by a host's `run`)
    /// when it throws.
    /// - Returns: `body`'s result; nil when the job is already another host's (asked for before
    ///   and held there), or this host is stopping: another host does it.
    /// - Throws: `body`'s error; `articleBusy` when the host stopped while doing it (`stop`):
    ///   handed back, another host does it.
    public func perform<T: Sendable>(
        _ kind: String, subject: String, asker: String? = nil, _ body: @escaping @Sendable (WorkQueue.Job) async throws(NarrationError) -> T
    ) async throws(NarrationError) -> T? {
        let now = Self.now()
        let stopping = performing.withLock { $0.stopped }
        let job = try await sql { [queue, host, lease, handOff] () throws(SQLEngineError) -> WorkQueue.Job? in
            // A stopping host asks for the work, due now, for another host to do.
            let id = try queue.enqueue(kind, subject: subject, asker: asker, due: stopping ? now : now + handOff, now: now)
            return stopping ? nil : try queue.take(id, host: host, lease: lease, now: now)
        }
        guard let job else { return nil }
        let result = Mutex<T?>(nil)
        // Done in a task of its own, which `stop` cancels; so does the caller's cancellation.
        let task = Task {
            await outcome(of: job) { job throws(NarrationError) in
                let value = try await body(job)
                result.withLock { $0 = value }
            }
        }
        let (number, stopped) = performing.withLock { state in
            state.next += 1
            state.tasks[state.next] = task
            return (state.next, state.stopped)
        }
        if stopped { task.cancel() }
        defer { _ = performing.withLock { $0.tasks.removeValue(forKey: number) } }
        switch await withTaskCancellationHandler(operation: { await task.value }, onCancel: { task.cancel() }) {
        case .finished, .lost: return result.withLock { $0 }
        case .handedBack: throw Self.handedBack
        case .failed(_, let error): throw error
        }
    }

    /// Does `job` with `handler` while renewing its lease, and ends it in the queue.
    private func outcome(of job: WorkQueue.Job, _ handler: @escaping Handler) async -> Outcome {
        let (queue, lease) = (self.queue, self.lease)
        let renewing = Task.detached {
            while (try? await Task.sleep(for: .seconds(lease / 3))) != nil {
                let kept = try? await BlockingWork.run(named: "narrate-work") { () throws(SQLEngineError) in try queue.renew(job, lease: lease, now: Self.now()) }
                if kept == false { return }  // another host took it: nothing more to renew
            }
        }
        defer { renewing.cancel() }
        let ending: Result<Void, NarrationError>
        do throws(NarrationError) {
            try await handler(job)
            ending = .success(())
        } catch {
            ending = .failure(error)
        }
        let cancelled = Task.isCancelled
        // The queue is told even when the catalog was away a moment: a few tries, then the lease decides.
        for attempt in 0..<5 {
            let recorded: Bool?
            switch ending {
            case .success:
                recorded = try? await sql { () throws(SQLEngineError) in try queue.finish(job, now: Self.now()) }
                if let recorded { return recorded ? .finished(job) : .lost(job) }
            case .failure where cancelled:
                recorded = try? await sql { () throws(SQLEngineError) in try queue.handBack(job, now: Self.now()) }
                if let recorded { return recorded ? .handedBack(job) : .lost(job) }
            case .failure(let error):
                recorded = try? await sql { () throws(SQLEngineError) in try queue.fail(job, problem: error.message, now: Self.now()) }
                if let recorded { return recorded ? .failed(job, error) : .lost(job) }
            }
            try? await Task.sleep(for: .milliseconds(200 << attempt))
        }
        if case .failure(let error) = ending { return .failed(job, error) }
        return .lost(job)
    }

    /// Runs one call of the queue off the concurrency pool, its error in words about the catalog.
    private func sql<T: Sendable>(_ body: @escaping @Sendable () throws(SQLEngineError) -> T) async throws(NarrationError) -> T {
        let (name, dialect) = (catalogName, queue.engine.dialect)
        return try await BlockingWork.run(named: "narrate-work") { () throws(NarrationError) -> T in
            do throws(SQLEngineError) {
                return try body()
            } catch {
                throw Catalog.translate(error, path: name, dialect: dialect)
            }
        }
    }

    static func now() -> Double { Date().timeIntervalSince1970 }

    /// Why a job asked for by `perform` was left undone: the host stopped.
    static let handedBack = NarrationError(
        .articleBusy, "This server of the service is stopping: the work was handed to another server, which does it in a moment.")
}

extension NarrationLibrary {
    /// The catalog's queue of background work, shared by the hosts of a reading service.
    public func workQueue() throws(NarrationError) -> WorkQueue {
        do throws(SQLEngineError) {
            return try WorkQueue(engine: catalog.engine)
        } catch {
            throw Catalog.translate(error, path: catalog.path, dialect: catalog.engine.dialect)
        }
    }
}
