public import Foundation
public import NarrationAudio
public import NarrationCore
import Synchronization

/// One chunk in a player's queue: its article index, file and length.
public struct PlaybackItem: Sendable, Equatable {
    public let index: ChunkIndex
    public let file: URL
    public let frames: FrameCount

    public init(index: ChunkIndex, file: URL, frames: FrameCount) {
        self.index = index
        self.file = file
        self.frames = frames
    }
}

/// Plays a run of an article's chunks as one continuous PCM stream: nothing inserted between
/// chunks, nothing dropped. At speed 1 and volume 1 the device receives the chunks' samples
/// unchanged.
///
/// A playback thread of its own reads the chunk files and writes to the device; the transport
/// calls (`pause`, `seek`, `jump`, `setSpeed`, …) only queue a command and return at once.
/// Seeks move the stream position by exactly the requested number of frames.
///
/// Pause and resume play every frame exactly once: pausing lets the audio already queued in the
/// device (about 0.12 s) play out and stops the device (`PlaybackDevice.drain()`); resuming
/// writes on from the next frame. Measured through PulseAudio (`parec` on a null sink with
/// `norewinds=1`) and on ALSA `file` devices: N pauses, not one frame lost or repeated. On a
/// PulseAudio null sink that rewinds (its default), a recording of the monitor misses about
/// 40 ms each time any stream starts after silence, whatever the player does before; that is
/// the server taking back audio it had already handed to the recorder, not lost playback.
/// `snd_pcm_pause` is not used: the PulseAudio plugin reports that it can pause but keeps
/// playing (its ALSA layer only changes state), and re-writing `snd_pcm_delay` frames after
/// `snd_pcm_drop` is off by hundreds of frames there, because its delay is interpolated.
///
/// Volume and speed can change while playing (`setVolume`, `setSpeed`); a change is heard once
/// the audio already queued in the device has played. A speed change finishes the stretch of
/// what was read so far and starts a new one from the next frame: nothing is skipped or
/// repeated, and the stretched length stays round(frames ÷ speed) for each stretch.
public final class QueuePlayer: @unchecked Sendable {
    public enum State: Sendable, Equatable {
        case playing
        case paused
        /// Played to the end of the queue.
        case finished
        /// Stopped by `stop()`.
        case stopped
        /// The device failed or a chunk could not be read.
        case failed(NarrationError)

        public var isOver: Bool {
            switch self {
            case .playing, .paused: false
            case .finished, .stopped, .failed: true
            }
        }
    }

    public struct Status: Sendable {
        public var state: State
        /// The chunk being heard, as its article index.
        public var chunk: ChunkIndex
        /// Frames heard so far, counted from the start of the queue (the source's frames, whatever the speed).
        public var position: FrameCount
        /// Frames heard of the current chunk.
        public var positionInChunk: FrameCount
        /// Frames in the whole queue.
        public var total: FrameCount
        public var underruns: Int
        /// The speed and the linear volume being applied now.
        public var speed: Double
        public var volume: Double
    }

    public let format: AudioFormat
    public let items: [PlaybackItem]
    /// The speed and volume playback starts with (`status` has the ones applied now).
    public let speed: Double
    public let volume: Double
    /// The playback device (or an in-memory output): the player is its one owner.
    let device: any PlaybackOutput
    /// Where each item starts in the queue, in frames; the last entry is the total.
    private let starts: [FrameCount]

    private enum Command {
        case pause, resume, togglePause, seek(FrameCount), jump(Int), next, previous, stop
        case setVolume(Double), setSpeed(Double)
    }

    private let control = NSCondition()
    private var commands: [Command] = []
    private let shared: Mutex<(status: Status, meter: LevelAccumulator)>
    private let finished = DispatchGroup()
    private var started = false

    /// - Parameters:
    ///   - speed: 0.5…2.0, pitch preserved; 1 passes samples through.
    ///   - volume: 0…1; 1 passes samples through.
    public init(items: [PlaybackItem], format: AudioFormat, device: any PlaybackOutput, speed: Double = 1, volume: Double = 1) {
        precondition(!items.isEmpty, "a queue needs at least one chunk")
        precondition((0.5...2).contains(speed) && (0...1).contains(volume), "speed and volume are validated by the caller")
        self.items = items
        self.format = format
        self.device = device
        self.speed = speed
        self.volume = volume
        var starts = [0]
        for item in items { starts.append(starts.last! + item.frames) }
        self.starts = starts
        let status = Status(
            state: .playing, chunk: items[0].index, position: 0, positionInChunk: 0, total: starts.last!, underruns: 0,
            speed: speed, volume: volume)
        shared = Mutex((status, LevelAccumulator(channels: format.channels)))
    }

    // MARK: Transport

    /// Starts playing at `offset` frames into the chunk with article index `chunk` (the first
    /// chunk of the queue if nil). Call once.
    public func play(from chunk: ChunkIndex? = nil, offset: FrameCount = 0) {
        precondition(!started, "a player plays once")
        started = true
        let item = chunk.flatMap { index in items.firstIndex { $0.index == index } } ?? 0
        let start = min(starts[item] + max(0, offset), starts.last!)
        finished.enter()
        DedicatedThread.start(named: "narrate-playback", because: .realTimeAudio) { [self] in
            run(from: start)
            finished.leave()
        }
    }

    public func pause() { send(.pause) }
    public func resume() { send(.resume) }
    public func togglePause() { send(.togglePause) }
    /// Moves the stream by `seconds` (negative: back), within the queue.
    public func seek(by seconds: Double) { send(.seek(FrameCount((seconds * Double(format.sampleRate)).rounded()))) }
    public func next() { send(.next) }
    public func previous() { send(.previous) }
    public func stop() { send(.stop) }

    /// Changes the volume, a linear gain 0…1 (1 passes samples through), from the next block on.
    public func setVolume(_ linear: Double) {
        precondition((0...1).contains(linear), "a volume is 0…1")
        send(.setVolume(linear))
    }

    /// Changes the speed, 0.5…2 with the pitch kept (1 passes samples through), from the next
    /// frame read on, without a gap.
    public func setSpeed(_ speed: Double) {
        precondition((0.5...2).contains(speed), "a speed is 0.5…2")
        send(.setSpeed(speed))
    }

    /// Jumps to the chunk with article index `chunk`.
    /// - Returns: false when that chunk is not in the queue.
    @discardableResult
    public func jump(to chunk: ChunkIndex) -> Bool {
        guard let item = items.firstIndex(where: { $0.index == chunk }) else { return false }
        send(.jump(item))
        return true
    }

    public var status: Status { shared.withLock { $0.status } }

    /// Levels of what was played since the previous call, per channel.
    public func takeMeterLevels() -> [ChannelLevel]? {
        shared.withLock { state in
            guard state.meter.frames > 0 else { return nil }
            defer { state.meter.reset() }
            return state.meter.levels
        }
    }

    /// Waits until playback is over, closes the device and returns the final status.
    public func wait() -> Status {
        if started { finished.wait() }
        try? device.close()
        return status
    }

    private func send(_ command: Command) {
        control.lock()
        commands.append(command)
        control.signal()
        control.unlock()
    }

    /// The commands sent since the last call; while paused, waits for one.
    private func takeCommands(waiting: Bool) -> [Command] {
        control.lock()
        defer { control.unlock() }
        while waiting && commands.isEmpty { control.wait() }
        defer { commands.removeAll() }
        return commands
    }

    // MARK: The playback thread

    private func item(containing position: FrameCount) -> Int {
        var low = 0
        var high = items.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= position { low = middle } else { high = middle - 1 }
        }
        return low
    }

    private func run(from start: FrameCount) {
        let total = starts.last!
        let channels = format.channels
        var speed = self.speed
        /// The speed asked for: applied once playing, so that a change while paused plays nothing.
        var wantedSpeed = speed
        var volume = self.volume
        var stretcher = speed == 1 ? nil : TimeStretcher(format: format, speed: speed)
        var cursor = start
        var paused = false
        var reader: (item: Int, file: SoundFileReader)?
        var block = [Int32](repeating: 0, count: device.periodFrames * channels)
        var levels = LevelAccumulator(channels: channels)  // reused for every block

        func finish(_ state: State) {
            shared.withLock { $0.status.state = state }
        }

        func move(to position: FrameCount) {
            cursor = min(max(0, position), total)
            reader = nil
            stretcher?.reset()
        }

        /// Plays out the stretcher's tail: everything read so far, stretched.
        func finishStretch() throws(NarrationError) {
            guard let tail = stretcher?.finish() else { return }
            try tail.withUnsafeBufferPointer { (buffer) throws(NarrationError) in try device.write(buffer) }
        }

        do {
            while true {
                for command in takeCommands(waiting: paused) {
                    switch command {
                    case .pause where !paused, .togglePause where !paused:
                        try device.drain()
                        paused = true
                    case .resume where paused, .togglePause where paused:
                        paused = false
                    case .pause, .resume, .togglePause:
                        break
                    case .seek(let frames):
                        move(to: cursor + frames)
                    case .jump(let item):
                        move(to: starts[item])
                    case .next:
                        move(to: starts[min(item(containing: cursor) + 1, items.count)])
                    case .previous:
                        move(to: starts[max(item(containing: cursor) - 1, 0)])
                    case .stop:
                        device.stopNow()
                        publish(cursor: cursor, paused: false, speed: speed, volume: volume)
                        return finish(.stopped)
                    case .setVolume(let linear):
                        volume = linear
                    case .setSpeed(let new):
                        wantedSpeed = new
                    }
                }
                if !paused && wantedSpeed != speed {
                    try finishStretch()
                    stretcher = wantedSpeed == 1 ? nil : TimeStretcher(format: format, speed: wantedSpeed)
                    speed = wantedSpeed
                }
                if paused {
                    publish(cursor: cursor, paused: true, speed: speed, volume: volume)
                    continue
                }
                guard cursor < total else {
                    try finishStretch()
                    try device.drain()
                    publish(cursor: total, paused: false, speed: speed, volume: volume)
                    return finish(.finished)
                }
                let current = item(containing: cursor)
                if reader?.item != current {
                    let file = try SoundFileReader(path: items[current].file.path)
                    try file.seek(to: cursor - starts[current])
                    reader = (current, file)
                }
                let wanted = min(device.periodFrames, starts[current + 1] - cursor)
                let read = try block.withUnsafeMutableBufferPointer { (buffer) throws(NarrationError) in
                    try reader!.file.read(into: buffer, frames: wanted)
                }
                guard read == wanted else {
                    throw NarrationError(
                        .fileCorrupt,
                        "Chunk \(items[current].index)'s file \(items[current].file.path) ended early, at frame \(cursor - starts[current] + read).")
                }
                let count = read * channels
                block.withUnsafeMutableBufferPointer { buffer in
                    SampleGain(linear: volume).apply(to: UnsafeMutableBufferPointer(rebasing: buffer[0..<count]), bitsPerSample: format.bitsPerSample)
                }
                try block.withUnsafeBufferPointer { (buffer) throws(NarrationError) in
                    let samples = UnsafeBufferPointer(rebasing: buffer[0..<count])
                    levels.reset()
                    levels.add(samples)
                    shared.withLock { $0.meter.merge(levels) }
                    if let stretcher {
                        let stretched = stretcher.process(samples)
                        try stretched.withUnsafeBufferPointer { (out) throws(NarrationError) in try device.write(out) }
                    } else {
                        try device.write(samples)
                    }
                }
                cursor += read
                publish(cursor: cursor, paused: false, speed: speed, volume: volume)
            }
        } catch {
            device.stopNow()
            finish(.failed(error as? NarrationError ?? NarrationError(.deviceFailed, "Playback failed: \(error).")))
        }
    }

    /// Publishes the position being heard: the stream position less what the device still holds.
    private func publish(cursor: FrameCount, paused: Bool, speed: Double, volume: Double) {
        let queued = paused ? 0 : FrameCount(Double(device.queuedFrames()) * speed)
        let heard = max(0, cursor - queued)
        let current = item(containing: min(heard, max(0, starts.last! - 1)))
        let underruns = device.underruns
        shared.withLock { state in
            state.status.state = paused ? .paused : .playing
            state.status.position = heard
            state.status.chunk = items[current].index
            state.status.positionInChunk = heard - starts[current]
            state.status.underruns = underruns
            state.status.speed = speed
            state.status.volume = volume
        }
    }
}
