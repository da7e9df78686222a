internal import CALSA
import Glibc
import NarrationCore

/// Negotiates an open PCM's hardware parameters for an article's format: interleaved access, the
/// exact rate and channel count, and a sample layout of the right depth.
///
/// When the device cannot do the format, the error says what it can do, so that the volunteer
/// can create the article in a format that fits the microphone.
enum HardwareParameters {
    struct Negotiated {
        let layout: SampleLayout
        let periodFrames: FrameCount
        let bufferFrames: FrameCount
    }

    /// The corresponding C functions are `snd_pcm_hw_params_any`, `…_set_access`, `…_set_format`,
    /// `…_set_channels`, `…_set_rate`, `…_set_period_size_near`, `…_set_buffer_size_near` and
    /// `snd_pcm_hw_params`.
    static func negotiate(
        _ pcm: OpaquePointer, device: String, format: AudioFormat, periodSeconds: Double, bufferSeconds: Double
    ) throws(NarrationError) -> Negotiated {
        var params: OpaquePointer?
        try check(snd_pcm_hw_params_malloc(&params), "allocate hardware parameters", device: device)
        defer { snd_pcm_hw_params_free(params) }
        try check(snd_pcm_hw_params_any(pcm, params), "read its capabilities", device: device)
        try check(
            snd_pcm_hw_params_set_access(pcm, params, SND_PCM_ACCESS_RW_INTERLEAVED),
            "use interleaved access", device: device)

        let capabilities = describeCapabilities(pcm, params, device: device)
        guard let layout = SampleLayout.candidates(bitsPerSample: format.bitsPerSample)
            .first(where: { snd_pcm_hw_params_test_format(pcm, params, $0.alsaFormat) == 0 })
        else {
            throw unsupported(device, "\(format.bitsPerSample)-bit samples", capabilities)
        }
        try check(snd_pcm_hw_params_set_format(pcm, params, layout.alsaFormat), "use \(layout.name) samples", device: device)
        guard snd_pcm_hw_params_set_channels(pcm, params, UInt32(format.channels)) == 0 else {
            throw unsupported(device, "\(format.channels) channel\(format.channels == 1 ? "" : "s")", capabilities)
        }
        guard snd_pcm_hw_params_set_rate(pcm, params, UInt32(format.sampleRate), 0) == 0 else {
            throw unsupported(device, "\(format.sampleRate) Hz", capabilities)
        }
        var period = snd_pcm_uframes_t(max(32, format.frames(forSeconds: periodSeconds)))
        var direction: CInt = 0
        try check(snd_pcm_hw_params_set_period_size_near(pcm, params, &period, &direction), "set the period size", device: device)
        var buffer = snd_pcm_uframes_t(max(Int(period) * 4, format.frames(forSeconds: bufferSeconds)))
        try check(snd_pcm_hw_params_set_buffer_size_near(pcm, params, &buffer), "set the buffer size", device: device)
        try check(snd_pcm_hw_params(pcm, params), "apply \(format)", device: device)
        try check(snd_pcm_hw_params_get_period_size(params, &period, &direction), "read the period size", device: device)
        try check(snd_pcm_hw_params_get_buffer_size(params, &buffer), "read the buffer size", device: device)
        return Negotiated(layout: layout, periodFrames: Int(period), bufferFrames: Int(buffer))
    }

    private static func unsupported(_ device: String, _ what: String, _ capabilities: String) -> NarrationError {
        NarrationError(
            .deviceUnsupportedFormat,
            "Audio device \"\(device)\" cannot record \(what); it supports \(capabilities).",
            subject: .device(device), remedy: .chooseSupportedFormat)
    }

    /// "16-bit, 1 channel, 8000–48000 Hz", read from a fresh copy of the device's full parameter space.
    private static func describeCapabilities(_ pcm: OpaquePointer, _ params: OpaquePointer?, device: String) -> String {
        var minRate: UInt32 = 0, maxRate: UInt32 = 0, minChannels: UInt32 = 0, maxChannels: UInt32 = 0
        var direction: CInt = 0
        snd_pcm_hw_params_get_rate_min(params, &minRate, &direction)
        snd_pcm_hw_params_get_rate_max(params, &maxRate, &direction)
        snd_pcm_hw_params_get_channels_min(params, &minChannels)
        snd_pcm_hw_params_get_channels_max(params, &maxChannels)
        let depths = [16, 24].filter { bits in
            SampleLayout.candidates(bitsPerSample: bits).contains { snd_pcm_hw_params_test_format(pcm, params, $0.alsaFormat) == 0 }
        }
        let depthText = depths.isEmpty ? "no 16- or 24-bit samples" : depths.map { "\($0)-bit" }.joined(separator: " and ")
        let channelText = minChannels == maxChannels
            ? "\(minChannels) channel\(minChannels == 1 ? "" : "s")" : "\(minChannels)–\(min(maxChannels, 64)) channels"
        let rateText = minRate == maxRate ? "\(minRate) Hz" : "\(minRate)–\(maxRate) Hz"
        return "\(depthText), \(channelText), \(rateText)"
    }
}
