internal import CALSA
import NarrationCore

/// An open ALSA PCM with its hardware parameters set for an article's format: the single owner
/// of a `snd_pcm_t` (and of the configuration tree it was opened from, if any). `CaptureDevice`
/// and `PlaybackDevice` each hold one.
final class PCM {
    enum Direction {
        case capture, playback

        var stream: snd_pcm_stream_t { self == .capture ? SND_PCM_STREAM_CAPTURE : SND_PCM_STREAM_PLAYBACK }
        var verb: String { self == .capture ? "capture" : "playback" }
    }

    let name: String
    let format: AudioFormat
    let layout: SampleLayout
    let periodFrames: FrameCount
    let bufferFrames: FrameCount
    private(set) var handle: OpaquePointer?
    private var configuration: OpaquePointer?

    /// Opens `name` and negotiates `format`.
    /// - Throws: `deviceNotFound`, `deviceBusy`, `deviceUnsupportedFormat`, `deviceFailed`.
    ///   The corresponding C functions are `snd_pcm_open` and `snd_pcm_open_lconf`.
    init(
        name: String, direction: Direction, format: AudioFormat, periodSeconds: Double, bufferSeconds: Double,
        definitions: ALSADefinitions?
    ) throws(NarrationError) {
        _ = silenceALSAOnce
        self.name = name
        self.format = format
        var pcm: OpaquePointer?
        let configuration = try definitions?.makeConfiguration(device: name)
        let opened = configuration.map { snd_pcm_open_lconf(&pcm, name, direction.stream, 0, $0) }
            ?? snd_pcm_open(&pcm, name, direction.stream, 0)
        do {
            try check(opened, "open for \(direction.verb)", device: name)
            let negotiated = try HardwareParameters.negotiate(
                pcm!, device: name, format: format, periodSeconds: periodSeconds, bufferSeconds: bufferSeconds)
            layout = negotiated.layout
            periodFrames = negotiated.periodFrames
            bufferFrames = negotiated.bufferFrames
        } catch {
            if let pcm { snd_pcm_close(pcm) }
            if let configuration { snd_config_delete(configuration) }
            throw error
        }
        self.handle = pcm
        self.configuration = configuration
    }

    /// The open handle. Using a closed PCM is a bug in the engine.
    var pcm: OpaquePointer {
        guard let handle else { preconditionFailure("PCM \"\(name)\" used after close") }
        return handle
    }

    /// Closes the device. The corresponding C function is `snd_pcm_close`.
    func close() throws(NarrationError) {
        guard let handle else { return }
        self.handle = nil
        defer { releaseConfiguration() }
        try check(snd_pcm_close(handle), "close", device: name)
    }

    /// A device whose owner went away without closing it (a take or a player dropped after an
    /// error) is closed here, so it is free for the next take; this never traps, as a debug
    /// assertion would take the whole program (and an unfinished take's audio) down with it.
    deinit {
        if let handle { snd_pcm_close(handle) }
        releaseConfiguration()
    }

    private func releaseConfiguration() {
        if let configuration { snd_config_delete(configuration) }
        configuration = nil
    }
}
