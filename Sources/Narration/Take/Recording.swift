public import Foundation
import NarrationAudio
public import NarrationCore
import Synchronization

/// One take being recorded into an article.
///
/// Two threads of its own do the work, never the Swift concurrency pool: the capture thread
/// blocks in ALSA reads and meters what it gets; the writer thread appends to the partial file
/// and checkpoints it (header rewritten, data fsynced) every 200 ms of audio. The capture thread
/// never waits for the disk or for whoever watches `status`.
///
/// Life: `NarrationLibrary.prepareRecording` opens the device, locks the article and creates the
/// partial file; `start()` starts capture; `requestStop()` (or the duration, a failed device or a
/// full disk) ends it; `finish()` waits, then commits the take to the article.
public final class Recording: Sendable {
    /// Why capture ended.
    public enum StopReason: Sendable, Equatable {
        case durationReached
        case requested
        /// The device failed or went away; what was captured before is kept.
        case deviceFailed(NarrationError)
        /// The disk filled; what was written before is kept.
        case diskFull(NarrationError)
    }

    /// What the take looks like now, for a live display.
    public struct Status: Sendable {
        public var frames: FrameCount
        /// When the first captured frame was sampled, in seconds on `CLOCK_MONOTONIC`; nil until
        /// audio flows. Devices may take a moment to deliver after starting: tell the volunteer
        /// to speak only once this is set.
        public var firstFrameTime: Double?
        public var overruns: Int
        public var stopReason: StopReason?
        /// The frames on disk for certain (written and forced to disk at a checkpoint): what a
        /// page uploading the take may forget.
        public var durableFrames: FrameCount
    }

    /// How the take ended and where it went.
    public struct Outcome: Sendable {
        /// The committed chunk; nil when nothing was captured or the commit must wait for recovery.
        public let chunk: Chunk?
        public let index: ChunkIndex?
        /// Where the chunk's file is once committed.
        public let file: URL
        /// The chunks the take replaced (a re-record, or every chunk of a paragraph read again),
        /// now in the article's trash.
        public let replaced: [ChunkID]
        public let reason: StopReason
        /// Set when the take could not be committed now: it stays as a partial file that the
        /// next command adopts, and this says why.
        public let deferredBecause: NarrationError?
        /// The article's export that the new chunk withdrew, if it had one.
        public var withdrawn: WithdrawnExport? = nil
        /// The paragraph of the article's text the take reads, if it has a text.
        public var paragraph: Paragraph? = nil
        /// For a punch: the frame of the chunk the take begins at, and the take's own length.
        public var punch: (at: FrameCount, takeFrames: FrameCount)? = nil
    }

    public let article: Article
    public let chunkID: ChunkID
    /// The paragraph of the article's text the take reads, when the article has a text.
    public let paragraph: Paragraph?
    /// The paragraph after it, for a glimpse of what comes next.
    public let upNext: Paragraph?
    /// The capture device (or the stream of a browser's microphone): the recording is its one owner.
    let device: any CaptureSource
    /// The capture device's name, as the volunteer gave it.
    public var deviceName: String { device.name }
    /// The exact number of frames to record, if limited.
    public let durationFrames: FrameCount?
    /// For punch-and-roll: what to play before `start()`.
    public let preRoll: PreRoll?
    /// The frames the take's file held when it was prepared: a take whose upload resumed after
    /// the server restarted goes on after them.
    public let resumedFrom: FrameCount

    private let root: DataRoot
    private let catalog: Catalog
    /// Told when the take is committed (`finish`).
    private let takesKept: TakesKept?
    private let target: TakeTarget
    private let writer: SoundFileWriter
    /// The article's lock (and, in a catalog hosts share, its lease) and the disk space set
    /// aside, held from preparation until `finish()` has committed (or set aside) the take, and
    /// whether capture was started.
    private let life: Mutex<Life>
    private let queue = SampleQueue()
    private let stopRequested = Atomic<Bool>(false)
    private let shared: Mutex<Shared>
    private let threads = DispatchGroup()

    private struct Life {
        var started = false
        var lock: ArticleLock?
        var lease: ArticleLease?
        var reserve: SpaceReserve?
    }

    private struct Shared {
        var frames: FrameCount = 0
        var firstFrameTime: Double?
        var overruns = 0
        var meterWindow: LevelAccumulator
        var total: LevelAccumulator
        var stopReason: StopReason?
        var writeFailure: NarrationError?
        var durableFrames: FrameCount
    }

    init(
        article: Article, chunkID: ChunkID, paragraph: Paragraph?, upNext: Paragraph?, device: any CaptureSource, durationFrames: FrameCount?, root: DataRoot,
        catalog: Catalog, target: TakeTarget, writer: SoundFileWriter, lock: ArticleLock, lease: ArticleLease? = nil, reserve: SpaceReserve,
        preRoll: PreRoll? = nil, resumedFrom: FrameCount = 0, takesKept: TakesKept? = nil
    ) {
        self.takesKept = takesKept
        self.preRoll = preRoll
        self.resumedFrom = resumedFrom
        self.article = article
        self.chunkID = chunkID
        self.paragraph = paragraph
        self.upNext = upNext
        self.device = device
        self.durationFrames = durationFrames
        self.root = root
        self.catalog = catalog
        self.target = target
        self.writer = writer
        self.life = Mutex(Life(lock: lock, lease: lease, reserve: reserve))
        let channels = article.format.channels
        self.shared = Mutex(
            Shared(
                frames: resumedFrom, meterWindow: LevelAccumulator(channels: channels), total: LevelAccumulator(channels: channels),
                durableFrames: resumedFrom))
    }

    /// Where the take is written until it is committed.
    public var partialURL: URL { root.partialURL(chunkID, of: article.id) }

    /// Starts capturing. Call once.
    public func start() throws(NarrationError) {
        let first = life.withLock { life in
            defer { life.started = true }
            return !life.started
        }
        precondition(first, "a recording starts once")
        try device.start()
        spawn("narrate-capture") { self.captureLoop() }
        spawn("narrate-writer") { self.writeLoop() }
    }

    /// Asks capture to stop; returns at once. Safe from any thread, any number of times.
    /// A streamed source is ended instead, so that what it holds is still written.
    public func requestStop() {
        if device.drainsOnStop {
            device.endInput()
        } else {
            stopRequested.store(true, ordering: .releasing)
        }
    }

    /// A snapshot for a live display.
    public var status: Status {
        shared.withLock {
            Status(frames: $0.frames, firstFrameTime: $0.firstFrameTime, overruns: $0.overruns, stopReason: $0.stopReason, durableFrames: $0.durableFrames)
        }
    }

    /// The levels of each channel since the previous call: what a meter shows now.
    public func takeMeterLevels() -> [ChannelLevel]? {
        shared.withLock { state in
            guard state.meterWindow.frames > 0 else { return nil }
            let levels = state.meterWindow.levels
            state.meterWindow.reset()
            return levels
        }
    }

    /// Waits until capture has ended, then commits the take to the article (or, if that cannot
    /// be done now, leaves it for the next command to adopt and says why in the outcome).
    public func finish() -> Outcome {
        if life.withLock({ $0.started }) { threads.wait() }
        let captureEnded = ContinuousClock.now
        try? device.close()
        let state = shared.withLock { $0 }
        let reason = state.stopReason ?? .requested
        var frames = writer.framesWritten
        var peak = state.total.peak
        var rms = state.total.rms
        defer { freeArticle() }  // the article is free again once the take is committed or set aside
        do {
            try writer.close()
        } catch {
            // The header could not be finalised (the disk is full): give back the space set
            // aside, then make the header match what is on disk.
            giveBackReserve()
            do {
                frames = try TakeFile.repair(partialURL, format: article.format).frames
            } catch {
                // The file stays as it is, registered: the next command adopts it.
                return Outcome(chunk: nil, index: nil, file: partialURL, replaced: [], reason: reason, deferredBecause: error)
            }
        }
        // The disk may be full: give back the space set aside so that the commit finds room.
        giveBackReserve()
        if state.writeFailure != nil || resumedFrom > 0, frames > 0, let measured = try? TakeFile.measure(partialURL) {
            (frames, peak, rms) = measured
        }
        guard frames > 0 else {
            try? FileManager.default.removeItem(at: partialURL)
            try? catalog.abandonTake(chunkID)
            return Outcome(chunk: nil, index: nil, file: partialURL, replaced: [], reason: reason, deferredBecause: nil)
        }
        let chunk = Chunk(
            id: chunkID, articleID: article.id, frames: frames, format: article.format, peak: peak, rms: rms,
            overruns: state.overruns, recovered: false, recordedAt: Date(), paragraphID: paragraph?.id)
        do {
            let placed = try TakeCommit.commit(chunk, target: target, from: partialURL, root: root, catalog: catalog)
            takesKept?.kept(.init(article: article.id, chunk: chunk.id, frames: chunk.frames, captureEndToDurable: ContinuousClock.now - captureEnded))
            if placed.withdrawn != nil { OutboxSweep.run(root: root, catalog: catalog) }
            var outcome = Outcome(
                chunk: placed.chunk, index: placed.index, file: root.chunkURL(placed.chunk.id, of: article.id), replaced: placed.replaced,
                reason: reason, deferredBecause: nil, withdrawn: placed.withdrawn, paragraph: paragraph)
            if case .punch(_, let frame) = target {
                outcome.punch = (at: frame, takeFrames: chunk.frames)
            }
            return outcome
        } catch {
            return Outcome(chunk: nil, index: nil, file: partialURL, replaced: [], reason: reason, deferredBecause: error)
        }
    }

    /// Ends a take whose audio a page is still uploading without committing it: what arrived is
    /// written and forced to disk, the article is free again, and the take stays registered
    /// with its partial file, for the page to resume when it comes back (recovery leaves an
    /// uploaded take to its upload). Instead of `finish()`; the stream is ended first.
    /// - Returns: the frames the partial file holds.
    public func setAside() -> FrameCount {
        requestStop()
        if life.withLock({ $0.started }) { threads.wait() }
        try? device.close()
        defer { freeArticle() }
        giveBackReserve()
        do {
            try writer.close()
            return writer.framesWritten
        } catch {
            return (try? TakeFile.repair(partialURL, format: article.format).frames) ?? 0
        }
    }

    /// Lets go of the article's lock and lease: other commands and hosts may take it.
    private func freeArticle() {
        let lease = life.withLock { life in
            life.lock = nil
            defer { life.lease = nil }
            return life.lease
        }
        lease?.end()
    }

    /// Gives back the disk space set aside for the take, so that finishing it finds room.
    private func giveBackReserve() {
        life.withLock { life in
            life.reserve?.release()
            life.reserve = nil
        }
    }

    // MARK: Threads

    private func spawn(_ name: String, _ body: @escaping @Sendable () -> Void) {
        threads.enter()
        DedicatedThread.start(named: name, because: .realTimeAudio) { [threads] in
            body()
            threads.leave()
        }
    }

    private func captureLoop() {
        let channels = article.format.channels
        var block = [Int32](repeating: 0, count: device.periodFrames * channels)
        var captured: FrameCount = 0
        var reason: StopReason = .requested
        var levels = LevelAccumulator(channels: channels)  // reused for every block
        while !stopRequested.load(ordering: .acquiring) {
            var wanted = device.periodFrames
            if let durationFrames {
                guard captured < durationFrames else { reason = .durationReached; break }
                wanted = min(wanted, durationFrames - captured)
            }
            let read: FrameCount
            do {
                read = try block.withUnsafeMutableBufferPointer { (buffer) throws(NarrationError) in
                    try device.read(into: buffer, frames: wanted)
                }
            } catch {
                reason = .deviceFailed(error)
                break
            }
            guard read > 0 else {
                if device.hasEnded { break }
                continue  // a streamed source had nothing for a moment
            }
            let samples = Array(block[0..<(read * channels)])
            levels.reset()
            samples.withUnsafeBufferPointer { levels.add($0) }
            queue.push(samples)
            captured += read
            let overruns = device.overruns
            let firstFrameTime = captured == read ? MonotonicClock.now() - article.format.seconds(read) : nil
            shared.withLock { state in
                if let firstFrameTime { state.firstFrameTime = firstFrameTime }
                state.frames = resumedFrom + captured
                state.overruns = overruns
                state.meterWindow.merge(levels)
                state.total.merge(levels)
            }
        }
        if let durationFrames, captured >= durationFrames { reason = .durationReached }
        shared.withLock { state in
            if state.stopReason == nil { state.stopReason = reason }
        }
        queue.close()
    }

    /// Writes what capture queued and checkpoints every 200 ms of audio. A streamed take (a
    /// page's upload) also checkpoints when the queue runs dry with 50 ms or more unsaved: its
    /// audio comes in bursts, and the page forgets only what a checkpoint made durable.
    private func writeLoop() {
        let checkpointFrames = article.format.frames(forSeconds: 0.2)
        let idleCheckpointFrames = device.drainsOnStop ? article.format.frames(forSeconds: 0.05) : checkpointFrames
        var sinceCheckpoint: FrameCount = 0
        var failed = false
        while let block = queue.pop() {
            guard !failed else { continue }
            do {
                try block.withUnsafeBufferPointer { (buffer) throws(NarrationError) in try writer.write(buffer) }
                sinceCheckpoint += block.count / article.format.channels
                if sinceCheckpoint >= checkpointFrames || (sinceCheckpoint >= idleCheckpointFrames && queue.isEmpty) {
                    try writer.checkpoint()
                    sinceCheckpoint = 0
                    let written = writer.framesWritten
                    shared.withLock { $0.durableFrames = written }
                }
            } catch {
                failed = true
                shared.withLock { state in
                    state.writeFailure = error
                    state.stopReason = error.kind == .diskFull ? .diskFull(error) : .deviceFailed(error)
                }
                requestStop()
            }
        }
    }

}
