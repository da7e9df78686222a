public import NarrationCore

/// Where played audio goes: an ALSA playback device (`PlaybackDevice`), or an in-memory output
/// that a test reads back and paces itself.
///
/// One thread writes to an output (the player's, or a pre-roll's); `close` is called once, after
/// the last write. `write` may block until the output has room, so an output belongs on a
/// dedicated thread, never on the Swift concurrency pool.
public protocol PlaybackOutput: AnyObject, Sendable {
    /// What the volunteer calls it: the ALSA device name, or a test's name for it.
    var name: String { get }
    var format: AudioFormat { get }
    /// The most frames written in one go.
    var periodFrames: FrameCount { get }
    /// Moments of silence because the writer fell behind, counted so far.
    var underruns: Int { get }

    /// Writes interleaved left-justified samples (whole frames), blocking until all are queued.
    func write(_ samples: UnsafeBufferPointer<Int32>) throws(NarrationError)
    /// Frames written but not yet heard; 0 when the output cannot say.
    func queuedFrames() -> FrameCount
    /// Plays out what is queued, then stops, ready to start again: how a player pauses.
    func drain() throws(NarrationError)
    /// Stops at once, discarding what is queued.
    func stopNow()
    func close() throws(NarrationError)
}

extension PlaybackDevice: PlaybackOutput {}
