public import NarrationCore

/// Where a take's audio comes from: an ALSA capture device (`CaptureDevice`), or audio another
/// program sends (`StreamedCapture`, the web studio's browser microphone).
///
/// One thread reads a source (see `Recording`); `start`, `read` and `close` are called in that
/// order, from that thread or before it starts.
public protocol CaptureSource: AnyObject, Sendable {
    /// What the volunteer calls it: the ALSA device name, or "the browser's microphone".
    var name: String { get }
    /// The most frames one `read` returns.
    var periodFrames: FrameCount { get }
    /// Audio lost because the reader fell behind, counted in stretches.
    var overruns: Int { get }
    /// Whether the source ends by itself after a stop is asked for, once what it holds is read:
    /// then a stop must not cut it short (`endInput()` ends it).
    var drainsOnStop: Bool { get }

    func start() throws(NarrationError)
    /// Reads up to `frames` frames as left-justified `Int32`s. Returns 0 when nothing came for a
    /// short while (ask again, or stop) and when the source has ended (`hasEnded`).
    func read(into samples: UnsafeMutableBufferPointer<Int32>, frames: FrameCount) throws(NarrationError) -> FrameCount
    /// True once the source will never return audio again.
    var hasEnded: Bool { get }
    /// Tells a draining source that no more audio will come; what it holds is still read.
    func endInput()
    func close() throws(NarrationError)
}

extension CaptureDevice: CaptureSource {
    /// ALSA capture stops when asked: what the device holds then is not wanted.
    public var drainsOnStop: Bool { false }
    public var hasEnded: Bool { false }
    public func endInput() {}
}
