/// A number of audio frames (one sample per channel). Counts are exact; durations derive from them.
public typealias FrameCount = Int

/// The PCM format of an article's chunks: fixed when the article is created.
///
/// Samples travel through the engine as interleaved `Int32` values, left-justified: a 16-bit
/// sample `s` is carried as `s << 16`, a 24-bit one as `s << 8`. Full scale is therefore always
/// `Int32.max`, whatever the bit depth, and metering needs no per-format code.
public struct AudioFormat: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The rates a volunteer may choose for an article.
    public static let supportedSampleRates = [16_000, 22_050, 44_100, 48_000]
    public static let supportedChannelCounts = [1, 2]
    public static let supportedBitDepths = [16, 24]

    /// 44.1 kHz mono 16-bit: what a speech recording needs, and what the delivery profiles expect.
    public static let speech = AudioFormat(sampleRate: 44_100, channels: 1, bitsPerSample: 16)

    public var sampleRate: Int
    public var channels: Int
    public var bitsPerSample: Int

    public init(sampleRate: Int, channels: Int, bitsPerSample: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.bitsPerSample = bitsPerSample
    }

    /// Checks the format against what articles support.
    /// - Throws: `NarrationError.unsupportedFormat` naming the value and the choices.
    public func validate() throws(NarrationError) {
        guard Self.supportedSampleRates.contains(sampleRate) else {
            throw .unsupportedFormat(
                "Sample rate \(sampleRate) Hz is not supported. Use one of \(Self.list(Self.supportedSampleRates)) Hz.")
        }
        guard Self.supportedChannelCounts.contains(channels) else {
            throw .unsupportedFormat("\(channels) channels are not supported. Use 1 (mono) or 2 (stereo).")
        }
        guard Self.supportedBitDepths.contains(bitsPerSample) else {
            throw .unsupportedFormat("\(bitsPerSample)-bit samples are not supported. Use 16 or 24.")
        }
    }

    /// Bytes one frame takes in a WAV file of this format.
    public var bytesPerFrame: Int { channels * bitsPerSample / 8 }

    /// The exact number of frames in `seconds` of audio: `round(seconds × rate)`.
    ///
    /// `seconds` is the engine's own (a constant, a measured length) or an `AudioTime`'s, checked
    /// where it came in: a number from outside that was not checked is a bug, and traps here.
    public func frames(forSeconds seconds: Double) -> FrameCount {
        precondition(seconds.isFinite && abs(seconds) <= 1e9, "frames(forSeconds:) was given \(seconds) s: check times from outside with AudioTime")
        return FrameCount((seconds * Double(sampleRate)).rounded())
    }

    /// The duration of `frames` frames, in seconds.
    public func seconds(_ frames: FrameCount) -> Double {
        Double(frames) / Double(sampleRate)
    }

    /// "44100 Hz, mono, 16-bit"
    public var description: String {
        "\(sampleRate) Hz, \(channels == 1 ? "mono" : channels == 2 ? "stereo" : "\(channels) channels"), \(bitsPerSample)-bit"
    }

    private static func list(_ values: [Int]) -> String {
        values.map(String.init).joined(separator: ", ")
    }
}
