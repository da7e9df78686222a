/// An Ogg Opus export's bitrate, in kbit/s for the whole stream: the speech default and the
/// range narrate accepts.
///
/// Opus codes full-band (20 kHz) speech from about 24 kbit/s mono; 32 leaves room for
/// sibilants and room tone (measured on the same speech: a quarter of an MP3's 128, loudness
/// within 0.3 LU). Stereo gets 48 rather than twice 32: libopus codes the two channels of one
/// voice jointly, and most of a stereo narration is the same voice on both sides.
public enum OpusBitrate {
    /// What libopus takes: 6 kbit/s (narrow-band speech) to 256 kbit/s per channel pair; narrate
    /// allows 6…256 for the stream.
    public static let range = 6...256

    /// 32 kbit/s for mono, 48 for stereo (see above).
    public static func speechDefault(channels: Int) -> Int { channels == 1 ? 32 : 48 }

    /// Refuses a bitrate outside `range`, saying which it takes.
    /// - Throws: `usage`.
    public static func validate(_ kbps: Int) throws(NarrationError) {
        guard range.contains(kbps) else {
            throw .usage("\(kbps) kbit/s is not an Ogg Opus bitrate. Use \(range.lowerBound) to \(range.upperBound).")
        }
    }
}
