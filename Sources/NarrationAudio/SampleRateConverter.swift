internal import CSoxr
import NarrationCore

/// Converts a stream of interleaved samples from one rate to another: libsoxr, the resampler
/// of SoX, at its high quality (20-bit, linear phase), not a filter of ours. The single owner of
/// its `soxr_t`.
///
/// Feed it with `convert` as the samples come and end with `finish`, which returns what the
/// filter still holds. Over the whole stream the output has `frames × outputRate / inputRate`
/// frames, rounded to the nearest (libsoxr compensates its own delay).
public final class SampleRateConverter: @unchecked Sendable {
    public let inputRate: Int
    public let outputRate: Int
    public let channels: Int
    private var resampler: soxr_t?

    /// The corresponding C function is `soxr_create`.
    public init(from inputRate: Int, to outputRate: Int, channels: Int) {
        precondition(inputRate > 0 && outputRate > 0 && channels > 0, "a rate conversion needs positive rates and channels")
        self.inputRate = inputRate
        self.outputRate = outputRate
        self.channels = channels
        var error: soxr_error_t?
        var io = soxr_io_spec(SOXR_INT32_I, SOXR_INT32_I)
        var quality = soxr_quality_spec(UInt(SOXR_HQ), 0)
        var runtime = soxr_runtime_spec(1)
        resampler = soxr_create(Double(inputRate), Double(outputRate), UInt32(channels), &error, &io, &quality, &runtime)
        // soxr_create fails only for impossible parameters (checked above) or no memory.
        precondition(resampler != nil && error == nil, "libsoxr could not create a resampler: \(error.map { String(cString: $0) } ?? "no memory")")
    }

    deinit { soxr_delete(resampler) }

    /// The most frames one block of output holds, whatever the ratio: an 8 kHz file going to
    /// 48 kHz, or a long input, never makes a block larger than this.
    public static let outputBlockFrames = 16_384

    /// Converts interleaved left-justified samples; returns the frames ready so far (the filter
    /// holds back its delay until `finish`). The corresponding C function is `soxr_process`.
    /// For input whose output may be large, `convert(_:emit:)` hands it over in bounded blocks.
    public func convert(_ input: UnsafeBufferPointer<Int32>) -> [Int32] {
        var output: [Int32] = []
        convert(input) { output.append(contentsOf: $0) }
        return output
    }

    /// Converts interleaved left-justified samples, handing the frames ready so far to `emit` in
    /// blocks of at most `outputBlockFrames` frames, as they are made.
    public func convert<E: Error>(_ input: UnsafeBufferPointer<Int32>, emit: (ArraySlice<Int32>) throws(E) -> Void) throws(E) {
        precondition(input.count % channels == 0, "convert takes whole frames")
        try process(input.baseAddress, frames: input.count / channels, emit: emit)
    }

    /// Ends the stream: the frames the filter still holds.
    public func finish() -> [Int32] {
        var output: [Int32] = []
        finish { output.append(contentsOf: $0) }
        return output
    }

    /// Ends the stream, handing what the filter still holds to `emit` in bounded blocks.
    public func finish<E: Error>(emit: (ArraySlice<Int32>) throws(E) -> Void) throws(E) {
        try process(nil, frames: 0, emit: emit)
    }

    private func process<E: Error>(_ input: UnsafePointer<Int32>?, frames: Int, emit: (ArraySlice<Int32>) throws(E) -> Void) throws(E) {
        var consumed = 0
        let room = Self.outputBlockFrames
        var block = [Int32](repeating: 0, count: room * channels)
        while true {
            var used = 0
            var made = 0
            let error = block.withUnsafeMutableBytes { out in
                soxr_process(
                    resampler, input.map { UnsafeRawPointer($0 + consumed * channels) }, input == nil ? 0 : frames - consumed, &used,
                    out.baseAddress, room, &made)
            }
            precondition(error == nil, "libsoxr failed: \(error.map { String(cString: $0) } ?? "")")
            consumed += used
            if made > 0 { try emit(block[0..<(made * channels)]) }
            // Input: until all is taken and the output block was not filled; flush: until nothing comes.
            if input == nil ? made == 0 : (consumed == frames && made < room) { break }
        }
    }

    /// Converts a whole signal at once (for short signals and tests).
    public static func convert(_ samples: [Int32], channels: Int, from inputRate: Int, to outputRate: Int) -> [Int32] {
        let converter = SampleRateConverter(from: inputRate, to: outputRate, channels: channels)
        var output = samples.withUnsafeBufferPointer { converter.convert($0) }
        output += converter.finish()
        return output
    }
}
