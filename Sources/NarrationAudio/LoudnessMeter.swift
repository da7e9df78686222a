internal import CEBUR128
public import NarrationCore

/// EBU R128 loudness and true peak: libebur128, the reference implementation, not a meter of ours.
/// The single owner of its `ebur128_state`.
public final class LoudnessMeter: @unchecked Sendable {
    private var state: UnsafeMutablePointer<ebur128_state>?
    public let channels: Int

    /// - Parameter truePeak: whether to measure the true peak too (4× oversampling: most of the
    ///   meter's time). The corresponding C function is `ebur128_init`.
    public init(format: AudioFormat, truePeak: Bool = true) {
        channels = format.channels
        let mode = Int32(EBUR128_MODE_I.rawValue | (truePeak ? EBUR128_MODE_TRUE_PEAK.rawValue : 0))
        guard let state = ebur128_init(UInt32(format.channels), UInt(format.sampleRate), mode) else {
            preconditionFailure("libebur128 could not allocate a meter")
        }
        self.state = state
    }

    deinit { ebur128_destroy(&state) }

    /// Adds interleaved left-justified samples. The corresponding C function is `ebur128_add_frames_int`.
    public func add(_ samples: UnsafeBufferPointer<Int32>) {
        let result = ebur128_add_frames_int(state, samples.baseAddress, samples.count / channels)
        precondition(result == Int32(EBUR128_SUCCESS.rawValue), "libebur128 refused frames (\(result))")
    }

    /// Integrated loudness in LUFS; nil for audio too short or too quiet to measure (−∞).
    public var integratedLoudness: Double? {
        var value = 0.0
        guard ebur128_loudness_global(state, &value) == Int32(EBUR128_SUCCESS.rawValue), value.isFinite else { return nil }
        return value
    }

    /// The integrated loudness of the meters' audio taken together, as if one meter had heard it
    /// all (their blocks gated as one set). The corresponding C function is
    /// `ebur128_loudness_global_multiple`.
    public static func integratedLoudness(of meters: [LoudnessMeter]) -> Double? {
        var states = meters.map(\.state)
        var value = 0.0
        guard ebur128_loudness_global_multiple(&states, states.count, &value) == Int32(EBUR128_SUCCESS.rawValue), value.isFinite else {
            return nil
        }
        return value
    }

    /// The highest true peak over all channels, in dBTP. The corresponding C function is `ebur128_true_peak`.
    public var truePeak: Decibels {
        var highest = 0.0
        for channel in 0..<channels {
            var value = 0.0
            if ebur128_true_peak(state, UInt32(channel), &value) == Int32(EBUR128_SUCCESS.rawValue) { highest = max(highest, value) }
        }
        return Decibels(amplitude: highest)
    }
}
