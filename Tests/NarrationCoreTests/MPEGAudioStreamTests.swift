import Foundation
import NarrationCore
import Testing

@Suite("MP3 files walked frame by frame before decoding")
struct MPEGAudioStreamTests {
    /// `count` MPEG-1 layer III frames at 44.1 kHz mono, `kbps` each (no padding), the first
    /// carrying an Info tag that counts `tagged` frames when given.
    static func stream(kbps: [Int], tagged: Int? = nil) -> Data {
        let indexes = [32: 1, 40: 2, 48: 3, 56: 4, 64: 5, 80: 6, 96: 7, 112: 8, 128: 9, 160: 10]
        var data = Data()
        func frame(_ rate: Int, info: Int?) {
            var bytes = [UInt8](repeating: 0, count: 144 * rate * 1_000 / 44_100)
            bytes[0] = 0xFF
            bytes[1] = 0xFB
            bytes[2] = UInt8(indexes[rate]! << 4)
            bytes[3] = 0xC0  // mono
            if let info {
                bytes.replaceSubrange(21..<25, with: Array("Info".utf8))
                bytes[28] = 1
                bytes.replaceSubrange(29..<33, with: withUnsafeBytes(of: UInt32(info).bigEndian, Array.init))
            }
            data += bytes
        }
        if let tagged { frame(kbps[0], info: tagged) }
        for rate in kbps { frame(rate, info: nil) }
        return data
    }

    @Test("a constant and a variable bitrate stream, with an ID3v1 tag at the end")
    func whole() {
        let constant = Self.stream(kbps: Array(repeating: 128, count: 10), tagged: 10) + Data("TAG".utf8) + Data(count: 125)
        guard case .whole(let summary) = MPEGAudioStream.inspect(constant) else { Issue.record("not whole"); return }
        #expect(summary.frames == 10)
        #expect(summary.bitrate == "128 kbit/s")
        guard case .whole(let variable) = MPEGAudioStream.inspect(Self.stream(kbps: [64, 128, 128, 64])) else { Issue.record("not whole"); return }
        #expect(variable.bitrate == "VBR, 96 kbit/s on average")
    }

    @Test("junk between frames, a last frame cut, and fewer frames than the Info tag counts")
    func broken() {
        let frames = Self.stream(kbps: Array(repeating: 128, count: 4))
        #expect(MPEGAudioStream.inspect(frames + Data([1, 2, 3]) + frames) == .junk(offset: 1_668, size: 3_339))
        #expect(MPEGAudioStream.inspect(frames.prefix(1_500)) == .truncated(offset: 1_251, needed: 417, held: 249))
        #expect(MPEGAudioStream.inspect(Self.stream(kbps: Array(repeating: 128, count: 4), tagged: 6)) == .shorterThanItsTag(frames: 4, tagged: 6))
        #expect(MPEGAudioStream.inspect(Data("RIFF....WAVE".utf8)) == .notMPEG)
        #expect(MPEGAudioStream.inspect(Data("ID3".utf8) + Data([3, 0, 0, 0x80, 0, 0, 0])) == .junk(offset: 0, size: 10))
        #expect(MPEGAudioStream.inspect(Data([0xFF, 0xFF, 0xFF, 0xFF])) == .junk(offset: 0, size: 4))
    }
}
