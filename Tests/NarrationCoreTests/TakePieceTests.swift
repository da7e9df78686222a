import Foundation
import NarrationCore
import Testing

/// The numbered pieces a page uploads a take in: read back exactly, and refused with a sentence
/// when damaged, cut or not whole frames.
@Suite("Pieces of an uploaded take")
struct TakePieceTests {
    private static let key = TakeUploadKey("00112233445566778899aabbccddeeff")!

    @Test("the checksum is zlib's CRC-32, and a piece reads back as it was written")
    func roundTrip() throws {
        #expect(TakePiece.checksum(Array("123456789".utf8)) == 0xCBF4_3926)  // the CRC-32 check value
        #expect(TakePiece.checksum([]) == 0)
        let samples: [UInt8] = (0..<400).map { UInt8($0 % 251) }
        let piece = TakePiece(key: Self.key, firstFrame: 70_000, samples: samples)
        let message = piece.message
        #expect(message.count == 28 + 400)
        #expect(Array(message[0..<4]) == Array("NRP1".utf8))
        #expect(Array(message[4..<20]) == [0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff])
        #expect(Array(message[20..<24]) == [0x70, 0x11, 0x01, 0x00])  // 70,000 little-endian
        #expect(try TakePiece(message, channels: 2) == piece)
        #expect(TakeUploadKey(bytes: message[4..<20]) == Self.key)
    }

    @Test("a compressed piece (NRP2) reads back to the same samples, and a damaged one is refused")
    func compressed() throws {
        let samples: [UInt8] = (0..<8_820).flatMap { index -> [UInt8] in
            let value = Int16(3_000 * sin(Double(index) / 7))
            return [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
        }
        let piece = TakePiece(key: Self.key, firstFrame: 44_100, samples: samples)
        let message = piece.message(compressed: true, channels: 1)
        #expect(Array(message[0..<4]) == Array("NRP2".utf8))
        #expect(message.count < samples.count / 2)
        #expect(try TakePiece(message, channels: 1) == piece)
        var damaged = message
        damaged[28] ^= 1  // the checksum
        #expect(throws: NarrationError.usage("A piece of the take arrived damaged (its checksum does not match): the page sends it again.")) {
            try TakePiece(damaged, channels: 1)
        }
        var huge = message
        huge[24] = 0xFF; huge[25] = 0xFF; huge[26] = 0xFF; huge[27] = 0x7F  // two thousand million frames
        #expect(throws: NarrationError.usage("The page sent a piece of a take longer than 10 s: reload the page.")) { try TakePiece(huge, channels: 1) }
        #expect(throws: NarrationError.self) { try TakePiece(Array(message.dropLast(3)), channels: 1) }
    }

    @Test("keys are 32 lowercase hexadecimal digits, nothing else")
    func keys() {
        #expect(TakeUploadKey("00112233445566778899aabbccddeeff") != nil)
        for text in ["", "00112233445566778899AABBCCDDEEFF", "00112233445566778899aabbccddeef", "00112233445566778899aabbccddeeff0", "g0112233445566778899aabbccddeeff", "../../../../etc/passwd/../../../x"] {
            #expect(TakeUploadKey(text) == nil, "\(text)")
        }
    }

    @Test("a damaged, cut, foreign or oversized piece is refused with a sentence")
    func refusals() throws {
        let good = TakePiece(key: Self.key, firstFrame: 0, samples: [1, 2, 3, 4]).message
        var damaged = good
        damaged[29] ^= 0x40
        #expect(throws: NarrationError.usage("A piece of the take arrived damaged (its checksum does not match): the page sends it again.")) {
            try TakePiece(damaged, channels: 1)
        }
        let unreadable = NarrationError.usage("The page sent audio narrate cannot read (not a numbered piece of a take): reload the page.")
        #expect(throws: unreadable) { try TakePiece(Array(good[0..<27]), channels: 1) }
        #expect(throws: unreadable) { try TakePiece(Array("NRP9".utf8) + Array(good[4...]), channels: 1) }
        #expect(throws: unreadable) { try TakePiece([], channels: 1) }
        #expect(throws: NarrationError.usage("The page sent a piece of a take that is not whole frames of 2-channel 16-bit audio: reload the page.")) {
            try TakePiece(TakePiece(key: Self.key, firstFrame: 0, samples: [1, 2, 3, 4, 5, 6]).message, channels: 2)
        }
        let oversized = TakePiece(key: Self.key, firstFrame: 0, samples: [UInt8](repeating: 0, count: TakePiece.maximumSampleBytes + 4)).message
        #expect(throws: NarrationError.usage("The page sent a piece of a take longer than 10 s: reload the page.")) { try TakePiece(oversized, channels: 1) }
        #expect(try TakePiece(TakePiece(key: Self.key, firstFrame: 0, samples: []).message, channels: 1).samples.isEmpty)
    }
}
