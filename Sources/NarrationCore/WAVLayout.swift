/// The layout of a PCM WAV file's header: the format fields and where the sample data starts.
///
/// Used to adopt a partial chunk after a crash. Its header was kept valid while recording but
/// may lag the data written after the last header update, so the data length is taken from the
/// file's size, never from the header. The parser trusts nothing it reads: every size is
/// bounds-checked against the bytes given.
public struct WAVLayout: Equatable, Sendable {
    public let formatTag: UInt16
    public let channels: Int
    public let sampleRate: Int
    public let bitsPerSample: Int
    public let blockAlign: Int
    /// The byte offset of the first sample.
    public let dataOffset: Int
    /// The byte offset of the data chunk's size field.
    public let dataSizeOffset: Int
    /// The data length the header declares (may be stale).
    public let declaredDataBytes: Int

    /// WAVE_FORMAT_PCM and WAVE_FORMAT_EXTENSIBLE.
    static let pcmTags: Set<UInt16> = [0x0001, 0xFFFE]

    /// Parses the header at the start of `bytes` (the first few kilobytes of the file suffice).
    /// - Throws: `fileCorrupt` when this is not a PCM WAV header, naming what is wrong.
    public static func parse(_ bytes: [UInt8], name: String) throws(NarrationError) -> WAVLayout {
        func corrupt(_ reason: String) -> NarrationError {
            NarrationError(.fileCorrupt, "\(name) is not a usable WAV file: \(reason).")
        }
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WAVE".utf8) else {
            throw corrupt("it does not start with a RIFF/WAVE header")
        }
        var offset = 12
        var format: (tag: UInt16, channels: Int, rate: Int, bits: Int, align: Int)?
        while offset + 8 <= bytes.count {
            let id = bytes[offset..<offset + 4]
            let size = Int(readUInt32(bytes, at: offset + 4))
            let body = offset + 8
            if id.elementsEqual("fmt ".utf8) {
                guard size >= 16, body + 16 <= bytes.count else { throw corrupt("its fmt chunk is truncated") }
                format = (
                    readUInt16(bytes, at: body), Int(readUInt16(bytes, at: body + 2)),
                    Int(readUInt32(bytes, at: body + 4)), Int(readUInt16(bytes, at: body + 14)),
                    Int(readUInt16(bytes, at: body + 12)))
            } else if id.elementsEqual("data".utf8) {
                guard let format else { throw corrupt("its data chunk comes before the fmt chunk") }
                guard pcmTags.contains(format.tag) else { throw corrupt("its samples are not PCM (format \(format.tag))") }
                guard (1...8).contains(format.channels), [16, 24, 32].contains(format.bits),
                    (1_000...768_000).contains(format.rate), format.align == format.channels * format.bits / 8
                else {
                    throw corrupt("its fmt chunk is inconsistent (\(format.channels) channels, \(format.bits) bits, \(format.rate) Hz)")
                }
                return WAVLayout(
                    formatTag: format.tag, channels: format.channels, sampleRate: format.rate,
                    bitsPerSample: format.bits, blockAlign: format.align, dataOffset: body,
                    dataSizeOffset: offset + 4, declaredDataBytes: size)
            }
            // Chunks are word-aligned; a size that runs past the header means we cannot go on.
            let next = body + size + (size & 1)
            guard next > offset, size <= bytes.count else { throw corrupt("a chunk header declares an impossible size") }
            offset = next
        }
        throw corrupt("no data chunk was found in its header")
    }

    /// What a file of `fileSize` bytes holds: whole frames only, a trailing partial frame dropped.
    public func frames(inFileOfSize fileSize: Int) -> FrameCount {
        max(0, fileSize - dataOffset) / blockAlign
    }

    /// The header fields to rewrite so that the file declares exactly `frames` frames.
    public func repair(frames: FrameCount) -> WAVRepair {
        let dataBytes = frames * blockAlign
        return WAVRepair(
            riffSize: UInt32(clamping: dataOffset - 8 + dataBytes), dataSizeOffset: dataSizeOffset,
            dataSize: UInt32(clamping: dataBytes), fileLength: dataOffset + dataBytes, frames: frames)
    }

    private static func readUInt16(_ bytes: [UInt8], at offset: Int) -> UInt16 {
        UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    private static func readUInt32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * UInt32($1)) }
    }
}

/// The header rewrite that makes a partial WAV file whole: the RIFF size at byte 4, the data
/// size at `dataSizeOffset`, and the length to truncate the file to.
public struct WAVRepair: Equatable, Sendable {
    public static let riffSizeOffset = 4
    public let riffSize: UInt32
    public let dataSizeOffset: Int
    public let dataSize: UInt32
    public let fileLength: Int
    public let frames: FrameCount

    /// A 32-bit field as the four little-endian bytes WAV stores.
    public static func littleEndian(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) }
    }
}
