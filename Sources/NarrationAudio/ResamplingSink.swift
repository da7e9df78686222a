public import NarrationCore

/// An `AudioSink` that converts the sample rate on the way into another sink: what an Ogg Opus
/// export of a 44.1 kHz article writes through, since Opus takes 48 kHz (see `SampleRateConverter`:
/// libsoxr, streaming, its delay compensated, so the file holds `round(frames × 48000 / 44100)`
/// frames and the audio is not shifted in time).
public final class ResamplingSink: AudioSink, @unchecked Sendable {
    private let converter: SampleRateConverter
    private let sink: any AudioSink

    /// Samples arrive at `inputRate` and go into `sink`, which must be made for `outputRate`.
    public init(from inputRate: Int, to outputRate: Int, channels: Int, into sink: any AudioSink) {
        converter = SampleRateConverter(from: inputRate, to: outputRate, channels: channels)
        self.sink = sink
    }

    public func write(_ samples: UnsafeBufferPointer<Int32>) throws(NarrationError) {
        let converted = converter.convert(samples)
        guard !converted.isEmpty else { return }
        try converted.withUnsafeBufferPointer { (buffer) throws(NarrationError) in try sink.write(buffer) }
    }

    /// Writes what the converter still holds, then closes the sink.
    public func close() throws(NarrationError) {
        let rest = converter.finish()
        if !rest.isEmpty {
            do throws(NarrationError) {
                try rest.withUnsafeBufferPointer { (buffer) throws(NarrationError) in try sink.write(buffer) }
            } catch {
                try? sink.close()
                throw error
            }
        }
        try sink.close()
    }
}
