internal import CALSA
import Glibc
public import NarrationCore

/// An open ALSA playback device.
///
/// Writes block until the device has room, so a playback device belongs on a dedicated thread
/// (see `QueuePlayer`). Underruns are recovered inside `write` and counted in `underruns`; a
/// device that goes away makes `write` throw `deviceFailed`. Playback starts once a buffer's worth
/// is written (or at `drain()`), so a short queue plays whole.
public final class PlaybackDevice: @unchecked Sendable {
    public var name: String { pcm.name }
    public var format: AudioFormat { pcm.format }
    public var periodFrames: FrameCount { pcm.periodFrames }
    /// ALSA's ring buffer, in frames: how much audio is queued ahead of what is heard.
    public var bufferFrames: FrameCount { pcm.bufferFrames }
    /// Underruns recovered so far (each one is a moment of silence).
    public private(set) var underruns = 0

    private let pcm: PCM
    private let rawBuffer: UnsafeMutableRawBufferPointer

    /// Opens `name` for playback in `format`.
    /// - Parameter bufferSeconds: how much audio is queued in the device: also how long pause
    ///   takes to be heard, since pausing lets the queued audio play out.
    /// - Throws: `deviceNotFound`, `deviceBusy`, `deviceUnsupportedFormat`.
    ///   The corresponding C functions are `snd_pcm_sw_params_*`.
    public init(
        name: String, format: AudioFormat, periodSeconds: Double = 0.02, bufferSeconds: Double = 0.12,
        definitions: ALSADefinitions? = nil
    ) throws(NarrationError) {
        pcm = try PCM(
            name: name, direction: .playback, format: format, periodSeconds: periodSeconds,
            bufferSeconds: bufferSeconds, definitions: definitions)
        rawBuffer = .allocate(byteCount: pcm.periodFrames * format.channels * pcm.layout.bytesPerSample, alignment: 8)
        do {
            var params: OpaquePointer?
            try check(snd_pcm_sw_params_malloc(&params), "allocate software parameters", device: name)
            defer { snd_pcm_sw_params_free(params) }
            try check(snd_pcm_sw_params_current(pcm.pcm, params), "read software parameters", device: name)
            try check(
                snd_pcm_sw_params_set_start_threshold(pcm.pcm, params, snd_pcm_uframes_t(pcm.bufferFrames)),
                "set the start threshold", device: name)
            try check(snd_pcm_sw_params(pcm.pcm, params), "apply software parameters", device: name)
        } catch {
            try? pcm.close()
            throw error
        }
    }

    /// Writes interleaved left-justified samples (whole frames), blocking until all are queued.
    /// - Throws: `deviceFailed` when the device is gone or broken.
    ///   The corresponding C functions are `snd_pcm_writei` and `snd_pcm_recover`.
    public func write(_ samples: UnsafeBufferPointer<Int32>) throws(NarrationError) {
        let handle = pcm.pcm
        let channels = format.channels
        precondition(samples.count % channels == 0, "samples must be whole frames")
        var frameOffset = 0
        let totalFrames = samples.count / channels
        while frameOffset < totalFrames {
            let block = min(periodFrames, totalFrames - frameOffset)
            let slice = UnsafeBufferPointer(rebasing: samples[(frameOffset * channels)..<((frameOffset + block) * channels)])
            pcm.layout.encode(slice, count: block * channels, into: rawBuffer)
            var written = 0
            while written < block {
                let pointer = rawBuffer.baseAddress! + written * channels * pcm.layout.bytesPerSample
                let result = snd_pcm_writei(handle, pointer, snd_pcm_uframes_t(block - written))
                if result > 0 {
                    written += Int(result)
                    continue
                }
                let code = CInt(truncatingIfNeeded: result)
                switch -code {
                case 0, EAGAIN, EINTR:
                    continue
                case EPIPE, ESTRPIPE:
                    underruns += 1
                    try check(snd_pcm_recover(handle, code, 1), "recover from an underrun", device: name)
                default:
                    try check(code, "play audio", device: name)
                }
            }
            frameOffset += block
        }
    }

    /// Frames written but not yet heard; 0 when the device cannot say.
    /// The corresponding C function is `snd_pcm_delay`.
    public func queuedFrames() -> FrameCount {
        var delay: snd_pcm_sframes_t = 0
        guard snd_pcm_delay(pcm.pcm, &delay) == 0 else { return 0 }
        return max(0, Int(delay))
    }

    /// Plays out what is queued, then stops; the device is ready to start again afterwards.
    ///
    /// This is how the player pauses: every frame written is played once, none is thrown away
    /// and none needs writing again, on any device whose drain plays its buffer out (hardware,
    /// `file`, PulseAudio's plugin, whose drain waits for the server to have taken every frame).
    /// A pause is heard once the queued audio (`bufferFrames`) has played. `snd_pcm_pause` would
    /// pause at once, but the PulseAudio plugin reports that it can (`snd_pcm_hw_params_can_pause`)
    /// and keeps playing, so it cannot be trusted to mean the same on every device.
    /// The corresponding C functions are `snd_pcm_drain` and `snd_pcm_prepare`.
    public func drain() throws(NarrationError) {
        let result = snd_pcm_drain(pcm.pcm)
        if result < 0 && result != -EPIPE { try check(result, "finish playing", device: name) }
        try check(snd_pcm_prepare(pcm.pcm), "get ready to play", device: name)
    }

    /// Stops at once, discarding what is queued. The corresponding C function is `snd_pcm_drop`.
    public func stopNow() {
        snd_pcm_drop(pcm.pcm)
        snd_pcm_prepare(pcm.pcm)
    }

    public func close() throws(NarrationError) {
        try pcm.close()
    }

    deinit { rawBuffer.deallocate() }
}
