/// The LAME info tag of a stream made by several encoders: the first encoder's tag, which
/// describes only its own frames, rewritten for the whole stream (shared/MP3-PARALLEL.md,
/// step 5). Decoders read the encoder delay and padding from it, so that the file decodes to
/// exactly the samples encoded.
public enum MP3InfoTag {
    /// Rewrites `tag` (a whole info-tag frame) for `frames` audio frames of `audioBytes` bytes
    /// holding `samples` samples per channel, CBR at `kbps`, whose bytes have CRC-16 `audioCRC`.
    /// - Returns: false when `tag` has no "Info" or "Xing" marker.
    public static func rewrite(
        _ tag: inout [UInt8], frames: Int, audioBytes: Int, samples: Int, kbps: Int, audioCRC: UInt16
    ) -> Bool {
        guard let marker = (13..<min(40, max(13, tag.count - 4))).first(where: { tag[$0..<($0 + 4)].elementsEqual("Info".utf8) || tag[$0..<($0 + 4)].elementsEqual("Xing".utf8) }),
            marker + 156 <= tag.count
        else { return false }
        let total = tag.count + audioBytes
        put(UInt32(frames), at: marker + 8, in: &tag)
        put(UInt32(total), at: marker + 12, in: &tag)
        tag.replaceSubrange((marker + 16)..<(marker + 116), with: seekTable(frames: frames, kbps: kbps))
        let delay = Int(tag[marker + 141]) << 4 | Int(tag[marker + 142] >> 4)
        let padding = frames * MP3Frame.samplesPerFrame - delay - samples
        tag[marker + 142] = UInt8((delay & 15) << 4 | (padding >> 8) & 15)
        tag[marker + 143] = UInt8(padding & 0xFF)
        put(UInt32(total), at: marker + 148, in: &tag)
        tag[marker + 152] = UInt8(audioCRC >> 8)
        tag[marker + 153] = UInt8(audioCRC & 0xFF)
        let tagCRC = tag.withUnsafeBufferPointer { crc16(0, UnsafeBufferPointer(rebasing: $0[0..<(marker + 154)])) }
        tag[marker + 154] = UInt8(tagCRC >> 8)
        tag[marker + 155] = UInt8(tagCRC & 0xFF)
        return true
    }

    /// LAME's seek table for `frames` CBR frames (its `addVbr` and `Xing_seek_table`): 100
    /// bytes, entry i the byte position of i % of the stream in 256ths.
    static func seekTable(frames: Int, kbps: Int) -> [UInt8] {
        var bag = [Int](repeating: 0, count: 400)
        var position = 0, seen = 0, want = 1, sum = 0
        for _ in 0..<frames {
            sum += kbps
            seen += 1
            guard seen >= want else { continue }
            if position < bag.count {
                bag[position] = sum
                position += 1
                seen = 0
            }
            if position == bag.count {
                for index in stride(from: 1, to: bag.count, by: 2) { bag[index / 2] = bag[index] }
                want *= 2
                position /= 2
            }
        }
        var table = [UInt8](repeating: 0, count: 100)
        guard position > 0 else { return table }
        for entry in 1..<100 {
            // With LAME's mix of single and double precision, so that the table matches its own.
            let fraction = Float(entry) / Float(100)
            let slot = min(Int(Double(fraction * Float(position)).rounded(.down)), position - 1)
            table[entry] = UInt8(min(255, Int(256 * Double(Float(bag[slot])) / Double(Float(sum)))))
        }
        return table
    }

    /// CRC-16 as LAME computes it for the info tag (polynomial 0x8005, reflected, from `crc`).
    public static func crc16(_ crc: UInt16, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt16 {
        var crc = crc
        for byte in bytes { crc = (crc >> 8) ^ crcTable[Int((crc ^ UInt16(byte)) & 0xFF)] }
        return crc
    }

    private static let crcTable: [UInt16] = (0..<256).map { value in
        var crc = UInt16(value)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xA001 : crc >> 1 }
        return crc
    }

    private static func put(_ value: UInt32, at offset: Int, in bytes: inout [UInt8]) {
        for index in 0..<4 { bytes[offset + index] = UInt8((value >> (24 - 8 * UInt32(index))) & 0xFF) }
    }
}
