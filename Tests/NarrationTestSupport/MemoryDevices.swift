public import Foundation
public import Narration
public import NarrationAudio
public import NarrationCore
import Synchronization

/// An in-memory playback output: it keeps every frame written, and the test decides how fast
/// what is written is heard (`hear(frames:)`), so that a player's position is where the test put
/// it, on a machine of any speed.
///
/// Unpaced (the default), everything written is heard at once and `write` never waits. Paced,
/// `write` waits while more than `bufferFrames` are queued unheard, as a device's ring buffer
/// does. `drain()` plays out what is queued at once; `stopNow()` drops it unheard.
public final class MemoryPlayback: PlaybackOutput, @unchecked Sendable {
    public let name: String
    public let format: AudioFormat
    public let periodFrames: FrameCount
    public let bufferFrames: FrameCount
    public var underruns: Int { 0 }

    private let condition = NSCondition()
    // Guarded by `condition`.
    private var written: [Int32] = []
    private var heardFrames: FrameCount = 0
    /// How many frames the test has let be heard so far (paced outputs).
    private var allowance: FrameCount = 0
    private var paced: Bool
    private var closed = false

    /// - Parameter paced: whether the test paces what is heard (`hear(frames:)`).
    public init(name: String = "memory speaker", format: AudioFormat, paced: Bool = false, periodFrames: FrameCount = 441, bufferFrames: FrameCount = 2_205) {
        self.name = name
        self.format = format
        self.paced = paced
        self.periodFrames = periodFrames
        self.bufferFrames = bufferFrames
    }

    public func write(_ samples: UnsafeBufferPointer<Int32>) throws(NarrationError) {
        precondition(samples.count % format.channels == 0, "samples must be whole frames")
        condition.lock()
        defer { condition.unlock() }
        written.append(contentsOf: samples)
        heardFrames = paced ? min(written.count / format.channels, allowance) : written.count / format.channels
        // A test that fails before it lets the rest be heard must still end: its session stops
        // pacing when it is let go, and, failing that, the output stops after an hour without
        // room. (Not sooner: in the whole suite on two cores a test's awaits can wait many
        // minutes for a thread, and a valve of ten minutes let playback run on past a pause the
        // test had not yet made.)
        let giveUp = Date().addingTimeInterval(3_600)
        while paced && !closed && written.count / format.channels - heardFrames > bufferFrames {
            if !condition.wait(until: giveUp) { paced = false }
            heardFrames = paced ? min(written.count / format.channels, allowance) : written.count / format.channels
        }
    }

    public func queuedFrames() -> FrameCount {
        condition.withLock { written.count / format.channels - heardFrames }
    }

    public func drain() throws(NarrationError) {
        condition.withLock {
            heardFrames = written.count / format.channels
            allowance = max(allowance, heardFrames)
            condition.broadcast()
        }
    }

    public func stopNow() {
        condition.withLock {
            written.removeLast((written.count / format.channels - heardFrames) * format.channels)
            condition.broadcast()
        }
    }

    public func close() throws(NarrationError) {
        condition.withLock {
            closed = true
            condition.broadcast()
        }
    }

    /// Lets `frames` more be heard (paced outputs): what is written up to there is heard as it
    /// comes, and a waiting write goes on.
    public func hear(frames: FrameCount) {
        condition.withLock {
            allowance += frames
            heardFrames = min(written.count / format.channels, allowance)
            condition.broadcast()
        }
    }

    /// Hears everything from now on, as an unpaced output does.
    public func stopPacing() {
        condition.withLock {
            paced = false
            heardFrames = written.count / format.channels
            condition.broadcast()
        }
    }

    /// The samples written and not dropped, interleaved.
    public var samples: [Int32] { condition.withLock { written } }
    /// The frames written and not dropped.
    public var frames: FrameCount { condition.withLock { written.count / format.channels } }
    /// Whether the player or pre-roll closed it.
    public var isClosed: Bool { condition.withLock { closed } }
}

/// The studio's microphone and speaker in memory: each take's microphone is a `StreamedCapture`
/// the test speaks into (`speak(_:)`), and each play opens a `MemoryPlayback` the test reads back
/// and paces. What the studio opened is kept in order.
public final class MemoryDevices: Sendable {
    private struct Opened {
        var microphones: [StreamedCapture] = []
        var speakers: [MemoryPlayback] = []
        var failure: NarrationError?
    }

    private let opened = Mutex(Opened())
    private let pacedPlayback: Bool

    /// - Parameter pacedPlayback: whether the speakers wait for the test to hear what they play.
    public init(pacedPlayback: Bool = false) {
        self.pacedPlayback = pacedPlayback
    }

    /// A take's microphone: a new stream in `format`.
    public func capture(_ format: AudioFormat) -> NarrationLibrary.CaptureInput {
        let microphone = StreamedCapture(name: "memory microphone", format: format)
        opened.withLock { $0.microphones.append(microphone) }
        return .streamed(microphone)
    }

    /// A play's speaker: a new output in `format`, or the failure `failNextPlayback(_:)` set.
    public func playback(_ format: AudioFormat) throws(NarrationError) -> any PlaybackOutput {
        let speaker = MemoryPlayback(format: format, paced: pacedPlayback)
        try opened.withLock { (opened) throws(NarrationError) in
            if let failure = opened.failure {
                opened.failure = nil
                throw failure
            }
            opened.speakers.append(speaker)
        }
        return speaker
    }

    /// Every speaker opened hears everything from now on.
    public func stopPacing() {
        for speaker in speakers { speaker.stopPacing() }
    }

    /// The next play fails to open its output with `error`.
    public func failNextPlayback(_ error: NarrationError) {
        opened.withLock { $0.failure = error }
    }

    /// The microphone of the latest take.
    public var microphone: StreamedCapture? { opened.withLock { $0.microphones.last } }
    /// The speaker of the latest play (or pre-roll).
    public var speaker: MemoryPlayback? { opened.withLock { $0.speakers.last } }
    /// Every speaker opened, in order.
    public var speakers: [MemoryPlayback] { opened.withLock { $0.speakers } }

    /// Sends `bytes` (16-bit little-endian, the take's channels interleaved) from the latest take's microphone.
    public func speak(_ bytes: [UInt8]) {
        microphone?.append(bytes)
    }
}
