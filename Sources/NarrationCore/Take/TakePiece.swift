/// One numbered piece of a take a page uploads (the web studio's browser microphone), as it
/// travels in one binary WebSocket message, its samples as they are (`NRP1`) or compressed
/// without loss (`NRP2`, `PieceCodec`: about 0.4 to 0.55 of the bytes on speech, which is what
/// lets a backlog after an outage go up faster than real time on a slow link):
///
/// | bytes | `NRP1` | `NRP2` |
/// |---|---|---|
/// | 0–3 | `NRP1` | `NRP2` |
/// | 4–19 | the take's upload key (`TakeUploadKey`), 16 bytes | the same |
/// | 20–23 | the piece's first frame in the take, unsigned 32-bit little-endian | the same |
/// | 24–27 | the CRC-32 (IEEE, as zlib's) of the samples | the piece's frames |
/// | 28–31 | the samples: little-endian signed 16-bit PCM, channels interleaved, whole frames | the CRC-32 of the decoded samples |
/// | 32– | (the samples go on) | the `PieceCodec` payload |
///
/// A message that is not this is refused with a sentence; the piece's numbers are checked
/// here, before anyone computes with them.
public struct TakePiece: Sendable, Equatable {
    public static let magic: [UInt8] = Array("NRP1".utf8)
    public static let compressedMagic: [UInt8] = Array("NRP2".utf8)
    public static let headerSize = 28
    public static let compressedHeaderSize = 32

    /// Whether `message` claims to be a piece (either layout): the first three bytes.
    public static func isPiece(_ message: [UInt8]) -> Bool { message.starts(with: magic[0..<3]) }
    /// The most samples one piece carries: 10 s of stereo at 48 kHz, well under the WebSocket's
    /// 1 MiB message limit.
    public static let maximumSampleBytes = 10 * 48_000 * 2 * 2

    public var key: TakeUploadKey
    public var firstFrame: FrameCount
    /// Little-endian signed 16-bit PCM, whole frames.
    public var samples: [UInt8]

    public init(key: TakeUploadKey, firstFrame: FrameCount, samples: [UInt8]) {
        self.key = key
        self.firstFrame = firstFrame
        self.samples = samples
    }

    /// Reads a piece of a take in `channels` channels.
    /// - Throws: a sentence naming what is wrong (the page is out of date or the piece was damaged).
    public init(_ message: [UInt8], channels: Int) throws(NarrationError) {
        let unreadable = NarrationError.usage("The page sent audio narrate cannot read (not a numbered piece of a take): reload the page.")
        let tooLong = NarrationError.usage("The page sent a piece of a take longer than 10 s: reload the page.")
        let samples: [UInt8]
        let checksum: UInt32
        if message.count >= Self.compressedHeaderSize, Array(message[0..<4]) == Self.compressedMagic {
            // The frame count is checked before anything is decoded or allocated.
            let frames = FrameCount(Self.uint32(message, at: 24))
            guard channels > 0, channels <= 2, frames >= 1 else { throw unreadable }
            guard frames * 2 * channels <= Self.maximumSampleBytes else { throw tooLong }
            samples = try PieceCodec.decodePCM(Array(message[Self.compressedHeaderSize...]), channels: channels, frames: frames)
            checksum = Self.uint32(message, at: 28)
        } else {
            guard message.count >= Self.headerSize, Array(message[0..<4]) == Self.magic else { throw unreadable }
            samples = Array(message[Self.headerSize...])
            guard samples.count <= Self.maximumSampleBytes else { throw tooLong }
            checksum = Self.uint32(message, at: 24)
        }
        guard channels > 0, samples.count % (2 * channels) == 0 else {
            throw .usage("The page sent a piece of a take that is not whole frames of \(channels)-channel 16-bit audio: reload the page.")
        }
        guard checksum == Self.checksum(samples) else {
            throw .usage("A piece of the take arrived damaged (its checksum does not match): the page sends it again.")
        }
        key = TakeUploadKey(bytes: message[4..<20])
        firstFrame = FrameCount(Self.uint32(message, at: 20))
        self.samples = samples
    }

    /// The message that carries the piece (what the page sends; for tests and tools), its
    /// samples compressed when `compressed` (in `channels` channels).
    public func message(compressed: Bool, channels: Int) -> [UInt8] {
        guard compressed else { return message }
        var bytes = Self.compressedMagic
        bytes += Array(message[4..<24])
        for value in [UInt32(samples.count / (2 * channels)), Self.checksum(samples)] {
            for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
        }
        return bytes + PieceCodec.encode(pcm: samples, channels: channels)
    }

    /// The message that carries the piece as it is (`NRP1`).
    public var message: [UInt8] {
        var bytes = Self.magic
        var digits = Array(key.rawValue.utf8).makeIterator()
        func nibble(_ digit: UInt8) -> UInt8 { digit <= 0x39 ? digit - 0x30 : digit - 0x61 + 10 }
        while let high = digits.next(), let low = digits.next() { bytes.append(nibble(high) << 4 | nibble(low)) }
        for value in [UInt32(truncatingIfNeeded: firstFrame), Self.checksum(samples)] {
            for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
        }
        return bytes + samples
    }

    private static func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << UInt32(8 * $1) }
    }

    /// CRC-32 (IEEE 802.3, reflected, as zlib's `crc32` and JavaScript's usual table). Written
    /// here rather than taken from ZIPFoundation, which has one, because that package is kept
    /// to the book and Office archives; the page computes the same ten lines.
    public static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }
}
