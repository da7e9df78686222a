internal import CALSA
import Glibc
public import NarrationCore

/// An open ALSA capture PCM: the single owner of its `snd_pcm_t`.
///
/// Reads block, so a capture device belongs on a dedicated thread (see `Recorder`), used by that
/// one thread at a time; it is `Sendable` only so that it can be handed to that thread.
/// Overruns are recovered inside `read` and counted in `overruns`. A device that goes away
/// (USB microphone pulled) makes `read` throw `deviceFailed`; everything read before stays valid.
public final class CaptureDevice: @unchecked Sendable {
    public let name: String
    public let format: AudioFormat
    /// Frames ALSA delivers per period: the natural size of one read.
    public let periodFrames: FrameCount
    /// The size of ALSA's ring buffer, in frames: how long capture may go unread before an overrun.
    public let bufferFrames: FrameCount
    /// Capture overruns recovered so far.
    public private(set) var overruns = 0

    private var pcm: OpaquePointer?
    private var configuration: OpaquePointer?
    private let layout: SampleLayout
    private var rawBuffer: UnsafeMutableRawBufferPointer

    /// Opens `name` for capture in `format`.
    ///
    /// - Parameters:
    ///   - periodSeconds: how much audio one read returns; shorter means livelier meters and a
    ///     quicker stop, longer means fewer wake-ups.
    ///   - bufferSeconds: how far behind the reader may fall before audio is lost.
    ///   - definitions: extra ALSA device definitions to resolve `name` against.
    /// - Throws: `deviceNotFound`, `deviceBusy`, or `deviceUnsupportedFormat` naming what the
    ///   device supports. The corresponding C functions are `snd_pcm_open` and `snd_pcm_hw_params_*`.
    public init(
        name: String, format: AudioFormat, periodSeconds: Double = 0.02, bufferSeconds: Double = 1.0,
        definitions: ALSADefinitions? = nil
    ) throws(NarrationError) {
        _ = silenceALSAOnce
        self.name = name
        self.format = format
        var pcm: OpaquePointer?
        var configuration: OpaquePointer?
        if let definitions {
            configuration = try definitions.makeConfiguration(device: name)
        }
        let opened = configuration.map { snd_pcm_open_lconf(&pcm, name, SND_PCM_STREAM_CAPTURE, 0, $0) }
            ?? snd_pcm_open(&pcm, name, SND_PCM_STREAM_CAPTURE, 0)
        do {
            try check(opened, "open for capture", device: name)
        } catch {
            if let configuration { snd_config_delete(configuration) }
            throw error
        }
        self.pcm = pcm
        self.configuration = configuration
        do {
            let negotiated = try HardwareParameters.negotiate(
                pcm!, device: name, format: format, periodSeconds: periodSeconds, bufferSeconds: bufferSeconds)
            self.layout = negotiated.layout
            self.periodFrames = negotiated.periodFrames
            self.bufferFrames = negotiated.bufferFrames
        } catch {
            snd_pcm_close(pcm)
            if let configuration { snd_config_delete(configuration) }
            self.pcm = nil
            self.configuration = nil
            self.rawBuffer = UnsafeMutableRawBufferPointer(start: nil, count: 0)
            throw error
        }
        self.rawBuffer = .allocate(byteCount: periodFrames * format.channels * layout.bytesPerSample, alignment: 8)
    }

    /// Starts the capture stream now, so that the first read returns audio captured from this moment.
    /// The corresponding C function is `snd_pcm_start`.
    public func start() throws(NarrationError) {
        try check(snd_pcm_start(requirePCM()), "start capturing", device: name)
    }

    /// Reads up to `frames` frames (at most `periodFrames`) into `samples` as left-justified
    /// `Int32`s, blocking until at least some are there.
    ///
    /// An overrun is recovered (the stream restarts) and counted; the call then goes on reading.
    /// - Returns: the number of frames read, at least 1.
    /// - Throws: `deviceFailed` when the device is gone or broken.
    ///   The corresponding C functions are `snd_pcm_readi` and `snd_pcm_recover`.
    public func read(into samples: UnsafeMutableBufferPointer<Int32>, frames: FrameCount) throws(NarrationError) -> FrameCount {
        let pcm = try requirePCM()
        let wanted = min(frames, periodFrames)
        precondition(wanted > 0 && samples.count >= wanted * format.channels, "read needs room for the frames asked for")
        while true {
            let result = snd_pcm_readi(pcm, rawBuffer.baseAddress, snd_pcm_uframes_t(wanted))
            if result > 0 {
                let count = Int(result) * format.channels
                layout.decode(UnsafeRawBufferPointer(rawBuffer), count: count, into: samples)
                return Int(result)
            }
            let code = CInt(truncatingIfNeeded: result)
            switch -code {
            case 0, EAGAIN, EINTR:
                continue
            case EPIPE, ESTRPIPE:
                overruns += 1
                try check(snd_pcm_recover(pcm, code, 1), "recover from an overrun", device: name)
                try check(snd_pcm_start(pcm), "restart capturing after an overrun", device: name)
            default:
                try check(code, "read audio", device: name)
            }
        }
    }

    /// Frames captured and waiting to be read, without blocking; 0 if the device cannot say.
    /// The corresponding C function is `snd_pcm_avail`.
    public func availableFrames() -> FrameCount {
        guard let pcm else { return 0 }
        let available = snd_pcm_avail(pcm)
        return available > 0 ? Int(available) : 0
    }

    /// Stops capturing and closes the device. The corresponding C function is `snd_pcm_close`.
    public func close() throws(NarrationError) {
        guard let pcm else { return }
        self.pcm = nil
        defer { releaseConfiguration() }
        try check(snd_pcm_close(pcm), "close", device: name)
    }

    deinit {
        if let pcm {
            assertionFailure("CaptureDevice \"\(name)\" was not closed")
            snd_pcm_close(pcm)
        }
        releaseConfiguration()
        rawBuffer.deallocate()
    }

    private func releaseConfiguration() {
        if let configuration { snd_config_delete(configuration) }
        configuration = nil
    }

    private func requirePCM() throws(NarrationError) -> OpaquePointer {
        guard let pcm else { throw NarrationError(.deviceFailed, "Audio device \"\(name)\" is already closed.") }
        return pcm
    }
}
