/// The WAV header every take starts with, and what recovery needs to know of it.
///
/// The recorder writes takes through libsndfile (`SF_FORMAT_WAV`, 16- or 24-bit PCM), which
/// starts each file with this 44-byte header and the samples right after it; a test checks that
/// against the writer's real output for every supported format. So a take's header is fully
/// determined by its article's format and its length: recovery never has to trust, or parse,
/// the header it finds. It compares the fixed fields, and writes the whole header anew with the
/// sizes of the whole frames on disk, which also repairs a header that a crash, a torn write or a
/// bad sector damaged.
public enum TakeHeader {
    /// The header's length: the byte offset of the first sample.
    public static let size = 44

    /// The header for `frames` frames of `format`. An odd data size is followed by a pad byte,
    /// which the RIFF size counts, as libsndfile writes a closed file.
    public static func bytes(for format: AudioFormat, frames: FrameCount) -> [UInt8] {
        let align = format.bytesPerFrame
        let dataBytes = frames * align
        return Array("RIFF".utf8) + le32(36 + dataBytes + (dataBytes & 1)) + Array("WAVE".utf8)
            + Array("fmt ".utf8) + le32(16) + le16(1) + le16(format.channels) + le32(format.sampleRate)
            + le32(format.sampleRate * align) + le16(align) + le16(format.bitsPerSample)
            + Array("data".utf8) + le32(dataBytes)
    }

    /// Whether `bytes`, the start of a take's file, is a header of `format`, whatever sizes it
    /// declares (they lag the samples written after the last checkpoint).
    public static func isIntact(_ bytes: [UInt8], format: AudioFormat) -> Bool {
        guard bytes.count >= size else { return false }
        let expected = self.bytes(for: format, frames: 0)
        return bytes[0..<4] == expected[0..<4] && bytes[8..<40] == expected[8..<40]
    }

    /// The whole frames a take file of `fileSize` bytes holds; a trailing partial frame is dropped.
    public static func frames(inFileOfSize fileSize: Int, format: AudioFormat) -> FrameCount {
        max(0, fileSize - size) / format.bytesPerFrame
    }

    /// The length of a take file of `frames` frames, its pad byte included.
    public static func fileLength(frames: FrameCount, format: AudioFormat) -> Int {
        let dataBytes = frames * format.bytesPerFrame
        return size + dataBytes + (dataBytes & 1)
    }

    private static func le32(_ value: Int) -> [UInt8] {
        let field = UInt32(clamping: value)
        return (0..<4).map { UInt8(truncatingIfNeeded: field >> (8 * UInt32($0))) }
    }

    private static func le16(_ value: Int) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
    }
}
