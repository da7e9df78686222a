import NarrationCore
import Testing

@Suite("A take's WAV header, as recovery checks and rewrites it")
struct TakeHeaderTests {
    let stereo24 = AudioFormat(sampleRate: 48_000, channels: 2, bitsPerSample: 24)

    @Test("the header's fields: RIFF and data sizes, PCM tag, channels, rate, byte rate, alignment, depth")
    func fields() {
        let header = TakeHeader.bytes(for: stereo24, frames: 1_000)
        #expect(header.count == TakeHeader.size)
        #expect(header == Array("RIFF".utf8) + [0x94, 0x17, 0, 0] + Array("WAVEfmt ".utf8) + [16, 0, 0, 0, 1, 0, 2, 0]
            + [0x80, 0xBB, 0, 0] + [0x00, 0x65, 0x04, 0] + [6, 0, 24, 0] + Array("data".utf8) + [0x70, 0x17, 0, 0])
    }

    @Test("an odd data size counts its pad byte in the RIFF size and the file's length")
    func padByte() {
        let mono24 = AudioFormat(sampleRate: 44_100, channels: 1, bitsPerSample: 24)
        let header = TakeHeader.bytes(for: mono24, frames: 1_001)
        #expect(header[4..<8] == [0xE0, 0x0B, 0, 0], "36 + 3 003 + 1")
        #expect(header[40..<44] == [0xBB, 0x0B, 0, 0], "3 003")
        #expect(TakeHeader.fileLength(frames: 1_001, format: mono24) == 44 + 3_004)
        #expect(TakeHeader.fileLength(frames: 1_000, format: mono24) == 44 + 3_000)
    }

    @Test("whole frames only: a torn frame at the end and a file shorter than the header hold none of it")
    func frames() {
        #expect(TakeHeader.frames(inFileOfSize: 44 + 6 * 1_000 + 5, format: stereo24) == 1_000)
        #expect(TakeHeader.frames(inFileOfSize: 10, format: stereo24) == 0)
        #expect(TakeHeader.frames(inFileOfSize: 44 + 1, format: .speech) == 0)
    }

    @Test("intact whatever sizes it declares; any other byte changed, another format or a short header is damage")
    func intact() {
        let header = TakeHeader.bytes(for: .speech, frames: 500)
        #expect(TakeHeader.isIntact(header, format: .speech))
        for index in 0..<TakeHeader.size {
            var changed = header
            changed[index] ^= 0x20
            let isSize = (4..<8).contains(index) || (40..<44).contains(index)
            #expect(TakeHeader.isIntact(changed, format: .speech) == isSize, "byte \(index)")
        }
        #expect(!TakeHeader.isIntact(header, format: stereo24))
        #expect(!TakeHeader.isIntact(Array(header.prefix(43)), format: .speech))
        #expect(!TakeHeader.isIntact([], format: .speech))
    }
}
