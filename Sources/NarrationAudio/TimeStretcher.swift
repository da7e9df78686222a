internal import CRubberBand
public import NarrationCore

/// Changes playback speed without changing pitch: Rubber Band in real-time mode.
///
/// Feed it left-justified `Int32` blocks with `process`; it returns the stretched audio that is
/// ready. The first output is aligned with the first input (Rubber Band's start delay is padded
/// and dropped), and `finish()` flushes the tail so that the output is exactly
/// round(input ÷ speed) frames long, so positions stay true. `reset()` after a seek. At speed 1 do not use it at
/// all: the player passes samples through untouched. Owns its `RubberBandState` and the
/// per-channel float buffers handed to it.
public final class TimeStretcher: @unchecked Sendable {
    public let speed: Double
    public let channels: Int
    private let state: RubberBandState
    private var pendingDelay = 0
    private var capacity = 0
    /// Frames fed and returned since the last reset, for the exact length at `finish()`.
    private var inputFrames = 0
    private var outputFrames = 0
    private var planes: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>

    /// The corresponding C function is `rubberband_new`.
    public init(format: AudioFormat, speed: Double) {
        precondition(speed > 0, "a speed must be positive")
        self.speed = speed
        channels = format.channels
        let options = Int32(RubberBandOptionProcessRealTime.rawValue) | Int32(RubberBandOptionPitchHighConsistency.rawValue)
        state = rubberband_new(UInt32(format.sampleRate), UInt32(format.channels), options, 1 / speed, 1)
        planes = .allocate(capacity: format.channels)
        planes.initialize(repeating: nil, count: format.channels)
        ensureCapacity(8_192)
        prime()
    }

    deinit {
        rubberband_delete(state)
        for channel in 0..<channels { planes[channel]?.deallocate() }
        planes.deallocate()
    }

    /// Forgets everything fed so far (after a seek or a jump).
    public func reset() {
        rubberband_reset(state)
        inputFrames = 0
        outputFrames = 0
        prime()
    }

    /// Stretches one block of interleaved samples.
    /// - Returns: interleaved left-justified samples ready to play (possibly none).
    ///   The corresponding C functions are `rubberband_process` and `rubberband_retrieve`.
    public func process(_ samples: UnsafeBufferPointer<Int32>) -> [Int32] {
        let frames = samples.count / channels
        ensureCapacity(frames)
        let scale = 1 / Float(Int32.max)
        for channel in 0..<channels {
            let plane = planes[channel]!
            for frame in 0..<frames { plane[frame] = Float(samples[frame * channels + channel]) * scale }
        }
        inputFrames += frames
        feed(frames: frames, final: false)
        return collect(limit: nil)
    }

    /// The rest of the stretched audio after the last block: Rubber Band keeps some back, so
    /// silence pushes it out, and the whole output is cut to round(input ÷ speed) frames.
    public func finish() -> [Int32] {
        let expected = Int((Double(inputFrames) / speed).rounded())
        let flush = Int(rubberband_get_latency(state)) + Int(rubberband_get_preferred_start_pad(state)) + 4_096
        ensureCapacity(flush)
        for channel in 0..<channels { planes[channel]!.update(repeating: 0, count: flush) }
        feed(frames: flush, final: true)
        return collect(limit: expected)
    }

    private func ensureCapacity(_ frames: Int) {
        guard frames > capacity else { return }
        for channel in 0..<channels {
            planes[channel]?.deallocate()
            planes[channel] = .allocate(capacity: frames)
        }
        capacity = frames
        rubberband_set_max_process_size(state, UInt32(frames))
    }

    /// Pads the start so that output lines up with input, as Rubber Band 3 recommends.
    private func prime() {
        let pad = Int(rubberband_get_preferred_start_pad(state))
        pendingDelay = Int(rubberband_get_start_delay(state))
        guard pad > 0 else { return }
        ensureCapacity(pad)
        for channel in 0..<channels { planes[channel]!.update(repeating: 0, count: pad) }
        feed(frames: pad, final: false)
    }

    private func feed(frames: Int, final: Bool) {
        planes.withMemoryRebound(to: UnsafePointer<Float>?.self, capacity: channels) { input in
            rubberband_process(state, input, UInt32(frames), final ? 1 : 0)
        }
    }

    /// Everything Rubber Band has ready, without its start delay, and at most up to `limit`
    /// output frames since the last reset.
    private func collect(limit: Int?) -> [Int32] {
        var interleaved: [Int32] = []
        while case let available = Int(rubberband_available(state)), available > 0 {
            ensureCapacity(available)
            let retrieved = Int(rubberband_retrieve(state, planes, UInt32(available)))
            let skipped = min(pendingDelay, retrieved)
            pendingDelay -= skipped
            var end = retrieved
            if let limit { end = max(skipped, min(retrieved, skipped + limit - outputFrames)) }
            outputFrames += end - skipped
            interleaved.reserveCapacity(interleaved.count + (end - skipped) * channels)
            for frame in skipped..<end {
                for channel in 0..<channels {
                    let value = max(-1, min(1, planes[channel]![frame])) * Float(Int32.max)
                    interleaved.append(Int32(clamping: Int64(value.rounded())))
                }
            }
        }
        return interleaved
    }
}
