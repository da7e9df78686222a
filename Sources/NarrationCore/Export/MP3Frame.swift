/// One MPEG-1 Layer III frame as the parallel MP3 encoder needs to see it: where it is, how
/// long, and the few side-info fields that decide whether two encoders' streams can be joined
/// before it (ISO/IEC 11172-3, 2.4.1.3 and 2.4.1.7).
///
/// Only MPEG-1 (32, 44.1 and 48 kHz) is parsed: the rates a parallel encode is made at. Lower
/// rates are MPEG-2 Layer III, one granule per frame, and are encoded in one stream.
public struct MP3Frame: Sendable, Equatable {
    /// Offset of the frame's header in the bytes it was parsed from.
    public var offset: Int
    /// The whole frame, header included.
    public let length: Int
    /// Header, CRC (when present) and side info: the payload starts here.
    public let sideInfoEnd: Int
    /// How many bytes before this frame's payload its main data begins (the bit reservoir).
    public let mainDataBegin: Int
    /// Bits of main data, all granules and channels.
    public let mainDataBits: Int
    /// Block type (0 long, 1 start, 2 short, 3 stop) of each channel's first and last granule.
    public let firstBlockTypes: [UInt8]
    public let lastBlockTypes: [UInt8]
    public let channels: Int

    public static let samplesPerFrame = 1_152
    static let bitrates = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 0]
    /// By the header's rate index; 0 is reserved.
    static let sampleRates = [44_100, 48_000, 32_000, 0]
    /// The rates of MPEG-1 Layer III.
    public static let mpeg1SampleRates = [32_000, 44_100, 48_000]

    /// Reads the frame whose header is at `offset` of `bytes`; nil when the four bytes there are
    /// not an MPEG-1 Layer III header or the frame runs past the end of `bytes`.
    public init?(in bytes: UnsafeBufferPointer<UInt8>, at offset: Int) {
        guard offset + 4 <= bytes.count else { return nil }
        let h1 = bytes[offset + 1], h2 = bytes[offset + 2], h3 = bytes[offset + 3]
        guard bytes[offset] == 0xFF, h1 & 0xE0 == 0xE0, (h1 >> 3) & 3 == 3, (h1 >> 1) & 3 == 1 else { return nil }
        let bitrate = Self.bitrates[Int(h2 >> 4)], rate = Self.sampleRates[Int((h2 >> 2) & 3)]
        guard bitrate > 0, rate > 0 else { return nil }
        let length = 144 * bitrate * 1_000 / rate + Int((h2 >> 1) & 1)
        let channels = h3 >> 6 == 3 ? 1 : 2
        let sideInfoStart = offset + 4 + (h1 & 1 == 0 ? 2 : 0)
        let sideInfoLength = channels == 1 ? 17 : 32
        guard offset + length <= bytes.count, sideInfoStart + sideInfoLength <= offset + length else { return nil }

        var reader = BitReader(bytes: bytes, byte: sideInfoStart)
        mainDataBegin = reader.read(9)
        reader.skip(channels == 1 ? 5 + 4 : 3 + 8)  // private bits, scfsi
        var bits = 0
        var blockTypes: [[UInt8]] = [[], []]
        for granule in 0..<2 {
            for _ in 0..<channels {
                bits += reader.read(12)  // part2_3_length
                reader.skip(9 + 8 + 4)  // big_values, global_gain, scalefac_compress
                if reader.read(1) == 1 {  // window switching
                    blockTypes[granule].append(UInt8(reader.read(2)))
                    reader.skip(1 + 10 + 9)  // mixed block, table selects, subblock gains
                } else {
                    blockTypes[granule].append(0)
                    reader.skip(15 + 7)  // table selects, region counts
                }
                reader.skip(3)  // preflag, scalefac_scale, count1table_select
            }
        }
        self.offset = offset
        self.length = length
        self.channels = channels
        sideInfoEnd = sideInfoStart - offset + sideInfoLength
        mainDataBits = bits
        firstBlockTypes = blockTypes[0]
        lastBlockTypes = blockTypes[1]
    }

    /// Whether a frame whose last granules have `previous` block types may be followed by this
    /// one: the window halves that overlap must have the same slope (a start or short block
    /// ends short, a short or stop block begins short), channel by channel.
    public func mayFollow(_ previous: [UInt8]) -> Bool {
        zip(previous, firstBlockTypes).allSatisfy { before, after in
            (before == 1 || before == 2) == (after == 2 || after == 3)
        }
    }
}

/// Reads big-endian bit fields.
private struct BitReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var position: Int

    init(bytes: UnsafeBufferPointer<UInt8>, byte: Int) {
        self.bytes = bytes
        position = byte * 8
    }

    mutating func read(_ count: Int) -> Int {
        var value = 0
        for _ in 0..<count {
            value = value << 1 | Int((bytes[position >> 3] >> (7 - UInt8(position & 7))) & 1)
            position += 1
        }
        return value
    }

    mutating func skip(_ count: Int) { position += count }
}
