internal import CALSA
import Glibc
public import NarrationCore

/// An open ALSA capture device.
///
/// Reads block, so a capture device belongs on a dedicated thread (see `Recording`), used by that
/// one thread at a time; it is `Sendable` only so that it can be handed to that thread.
/// Overruns are recovered inside `read` and counted in `overruns`. A device that goes away
/// (USB microphone pulled) makes `read` throw `deviceFailed`; everything read before stays valid.
public final class CaptureDevice: @unchecked Sendable {
    public var name: String { pcm.name }
    public var format: AudioFormat { pcm.format }
    /// Frames ALSA delivers per period: the natural size of one read.
    public var periodFrames: FrameCount { pcm.periodFrames }
    /// ALSA's ring buffer, in frames: how long capture may go unread before an overrun.
    public var bufferFrames: FrameCount { pcm.bufferFrames }
    /// Capture overruns recovered so far.
    public private(set) var overruns = 0

    private let pcm: PCM
    private let rawBuffer: UnsafeMutableRawBufferPointer

    /// Opens `name` for capture in `format`.
    ///
    /// - Parameters:
    ///   - periodSeconds: how much audio one read returns; shorter means livelier meters and a
    ///     quicker stop (a stop waits for the read under way), longer means fewer wake-ups. 10 ms:
    ///     100 wake-ups a second cost the recorder about 1 % of a core.
    ///   - bufferSeconds: how far behind the reader may fall before audio is lost.
    ///   - definitions: extra ALSA device definitions to resolve `name` against.
    /// - Throws: `deviceNotFound`, `deviceBusy`, or `deviceUnsupportedFormat` naming what the
    ///   device supports.
    public init(
        name: String, format: AudioFormat, periodSeconds: Double = 0.01, bufferSeconds: Double = 1.0,
        definitions: ALSADefinitions? = nil
    ) throws(NarrationError) {
        pcm = try PCM(
            name: name, direction: .capture, format: format, periodSeconds: periodSeconds,
            bufferSeconds: bufferSeconds, definitions: definitions)
        rawBuffer = .allocate(byteCount: pcm.periodFrames * format.channels * pcm.layout.bytesPerSample, alignment: 8)
    }

    /// Starts the capture stream now, so that the first read returns audio captured from this moment.
    /// The corresponding C function is `snd_pcm_start`.
    public func start() throws(NarrationError) {
        try check(snd_pcm_start(pcm.pcm), "start capturing", device: name)
    }

    /// Reads up to `frames` frames (at most `periodFrames`) into `samples` as left-justified
    /// `Int32`s, blocking until at least some are there.
    ///
    /// An overrun is recovered (the stream restarts) and counted; the call then goes on reading.
    /// - Returns: the number of frames read, at least 1.
    /// - Throws: `deviceFailed` when the device is gone or broken.
    ///   The corresponding C functions are `snd_pcm_readi` and `snd_pcm_recover`.
    public func read(into samples: UnsafeMutableBufferPointer<Int32>, frames: FrameCount) throws(NarrationError) -> FrameCount {
        let handle = pcm.pcm
        let wanted = min(frames, periodFrames)
        precondition(wanted > 0 && samples.count >= wanted * format.channels, "read needs room for the frames asked for")
        while true {
            let result = snd_pcm_readi(handle, rawBuffer.baseAddress, snd_pcm_uframes_t(wanted))
            if result > 0 {
                pcm.layout.decode(UnsafeRawBufferPointer(rawBuffer), count: Int(result) * format.channels, into: samples)
                return Int(result)
            }
            let code = CInt(truncatingIfNeeded: result)
            switch -code {
            case 0, EAGAIN, EINTR:
                continue
            case EPIPE, ESTRPIPE:
                overruns += 1
                try check(snd_pcm_recover(handle, code, 1), "recover from an overrun", device: name)
                try check(snd_pcm_start(handle), "restart capturing after an overrun", device: name)
            default:
                try check(code, "read audio", device: name)
            }
        }
    }

    /// Stops capturing and closes the device.
    public func close() throws(NarrationError) {
        try pcm.close()
    }

    deinit { rawBuffer.deallocate() }
}
