import NarrationCore
import Testing

@Suite("Reading a partial WAV header for recovery")
struct WAVLayoutTests {
    /// A canonical 44-byte PCM header, optionally with a LIST chunk before the data.
    static func header(channels: Int = 1, rate: Int = 44_100, bits: Int = 16, declaredData: UInt32 = 0, list: Bool = false) -> [UInt8] {
        func le32(_ value: Int) -> [UInt8] { WAVRepair.littleEndian(UInt32(truncatingIfNeeded: value)) }
        func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        let align = channels * bits / 8
        var bytes = Array("RIFF".utf8) + le32(36) + Array("WAVE".utf8)
        bytes += Array("fmt ".utf8) + le32(16) + le16(1) + le16(channels) + le32(rate) + le32(rate * align) + le16(align) + le16(bits)
        if list { bytes += Array("LIST".utf8) + le32(5) + Array("INFOx".utf8) + [0] }
        bytes += Array("data".utf8) + WAVRepair.littleEndian(declaredData)
        return bytes
    }

    @Test("the data offset and format are found, also past other chunks")
    func parse() throws {
        let plain = try WAVLayout.parse(Self.header(), name: "a.wav")
        #expect(plain.dataOffset == 44 && plain.dataSizeOffset == 40 && plain.blockAlign == 2)
        let listed = try WAVLayout.parse(Self.header(channels: 2, bits: 24, list: true), name: "b.wav")
        #expect(listed.dataOffset == 44 + 14 && listed.channels == 2 && listed.bitsPerSample == 24 && listed.blockAlign == 6)
    }

    @Test("the repair declares the whole frames on disk and drops a torn frame")
    func repair() throws {
        let layout = try WAVLayout.parse(Self.header(channels: 2, bits: 24, declaredData: 600), name: "c.wav")
        let frames = layout.frames(inFileOfSize: 44 + 6 * 1_000 + 4)
        #expect(frames == 1_000)
        let repair = layout.repair(frames: frames)
        #expect(repair.dataSize == 6_000)
        #expect(repair.riffSize == 36 + 6_000)
        #expect(repair.fileLength == 44 + 6_000)
        #expect(layout.frames(inFileOfSize: 10) == 0)
    }

    @Test("damaged headers are refused with a reason, never a trap", arguments: [
        ([UInt8](), "does not start with a RIFF/WAVE header"),
        (Array("RIFF\0\0\0\0WAVX".utf8), "does not start with a RIFF/WAVE header"),
        (Array(header().prefix(30)), "fmt chunk is truncated"),
        (Array(header().prefix(36)), "no data chunk"),
    ])
    func damaged(bytes: [UInt8], reason: String) {
        #expect {
            try WAVLayout.parse(bytes, name: "x.wav")
        } throws: { error in
            (error as? NarrationError)?.kind == .fileCorrupt && (error as? NarrationError)?.message.contains(reason) == true
        }
    }

    @Test("random bytes after a valid start never trap the parser")
    func randomBytes() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            var bytes = Self.header(list: Bool.random(using: &generator))
            let cut = Int.random(in: 0...bytes.count, using: &generator)
            bytes = Array(bytes.prefix(cut))
            for _ in 0..<Int.random(in: 0...4, using: &generator) where !bytes.isEmpty {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            bytes += (0..<Int.random(in: 0...64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if let layout = try? WAVLayout.parse(bytes, name: "fuzz.wav") {
                #expect(layout.dataOffset <= bytes.count)
                #expect(layout.blockAlign > 0)
            }
        }
    }
}
