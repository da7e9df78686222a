import NarrationCore
import NarrationTestSupport
import Testing

@Suite("Reading a partial WAV header for recovery")
struct WAVLayoutTests {
    @Test("the data offset and format are found, also past other chunks")
    func parse() throws {
        let plain = try WAVLayout.parse(WAVHeaders.canonical(), name: "a.wav")
        #expect(plain.dataOffset == 44 && plain.dataSizeOffset == 40 && plain.blockAlign == 2)
        let listed = try WAVLayout.parse(WAVHeaders.canonical(channels: 2, bits: 24, list: true), name: "b.wav")
        #expect(listed.dataOffset == 44 + 14 && listed.channels == 2 && listed.bitsPerSample == 24 && listed.blockAlign == 6)
    }

    @Test("the repair declares the whole frames on disk and drops a torn frame")
    func repair() throws {
        let layout = try WAVLayout.parse(WAVHeaders.canonical(channels: 2, bits: 24, declaredData: 600), name: "c.wav")
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
        (Array(WAVHeaders.canonical().prefix(30)), "fmt chunk is truncated"),
        (Array(WAVHeaders.canonical().prefix(36)), "no data chunk"),
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
            var bytes = WAVHeaders.canonical(list: Bool.random(using: &generator))
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
