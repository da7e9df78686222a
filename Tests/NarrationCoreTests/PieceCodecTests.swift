import Foundation
import NarrationCore
import NarrationTestSupport
import Testing

@Suite("A take's piece compressed without loss, and every damaged payload refused in a sentence")
struct PieceCodecTests {
    /// Test signals of one channel, 16-bit.
    enum Signal: String, CaseIterable, CustomTestStringConvertible {
        case silence, square, noise, sine, speech

        var testDescription: String { rawValue }

        /// `frames` samples of the signal (the speech repeats as needed).
        func samples(_ frames: Int, seed: UInt64 = 1) throws -> [Int16] {
            switch self {
            case .silence: return [Int16](repeating: 0, count: frames)
            case .square: return (0..<frames).map { ($0 / 50) % 2 == 0 ? Int16.max : Int16.min }
            case .noise:
                var random = SeededRandom(seed)
                return (0..<frames).map { _ in Int16(truncatingIfNeeded: random.next()) }
            case .sine:
                return (0..<frames).map { Int16((30_000 * sin(2 * Double.pi * 440 * Double($0) / 44_100)).rounded()) }
            case .speech:
                let once = PieceCodecTests.littleEndian(try Signals.speech(.speech))
                return (0..<frames).map { once[$0 % once.count] }
            }
        }
    }

    static func littleEndian(_ bytes: [UInt8]) -> [Int16] {
        (0..<bytes.count / 2).map { Int16(bitPattern: UInt16(bytes[2 * $0]) | UInt16(bytes[2 * $0 + 1]) << 8) }
    }

    static func bytes(_ samples: [Int16]) -> [UInt8] {
        samples.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
    }

    /// What the codec says of bytes it cannot read.
    func damaged(_ what: String) -> NarrationError {
        .usage("The page sent a piece of a take whose compressed samples narrate cannot read (\(what)): reload the page.")
    }

    /// Bytes from a string of bits ("0101…", spaces ignored), padded with zero bits.
    func payload(_ bits: String) -> [UInt8] {
        let digits = Array(bits.filter { $0 != " " })
        return stride(from: 0, to: digits.count, by: 8).map { start in
            (0..<8).reduce(UInt8(0)) { byte, bit in
                byte << 1 | (start + bit < digits.count && digits[start + bit] == "1" ? 1 : 0)
            }
        }
    }

    @Test("decodes to the same samples, in 1 and 2 channels, around the block's 4 096 frames", arguments: Signal.allCases, [1, 2])
    func roundTrip(signal: Signal, channels: Int) throws {
        for frames in [0, 1, 2, 5, 127, 128, 129, 4_095, 4_096, 4_097, 44_100] {
            let left = try signal.samples(frames)
            // The second channel: the same signal shifted, so that the channels differ.
            let right = try signal.samples(frames + 3, seed: 2).suffix(frames)
            let samples = channels == 1 ? left : zip(left, right).flatMap { [$0, $1] }
            let payload = PieceCodec.encode(samples, channels: channels)
            #expect(try PieceCodec.decode(payload, channels: channels, frames: frames) == samples, "\(frames) frames")
            #expect(try PieceCodec.decodePCM(payload, channels: channels, frames: frames) == Self.bytes(samples), "\(frames) frames")
            #expect(PieceCodec.encode(pcm: Self.bytes(samples), channels: channels) == payload, "\(frames) frames")
        }
    }

    @Test("silence is 19 bits a block and channel; full-scale noise goes verbatim, 3 bits a block over its PCM")
    func sizes() throws {
        #expect(PieceCodec.encode([], channels: 1) == [])
        #expect(PieceCodec.encode(try Signal.silence.samples(44_100), channels: 1).count == (11 * 19 + 7) / 8)
        #expect(PieceCodec.encode([-5, -5], channels: 2) == payload("101 1111111111111011 101 1111111111111011"))
        let noise = try Signal.noise.samples(44_100)
        #expect(PieceCodec.encode(noise, channels: 1).count == (11 * 3 + 16 * 44_100 + 7) / 8,
                "11 blocks (the last of 3 140 frames), each 3 bits and its samples")
    }

    @Test("speech compresses to under 45 % of its PCM at 44.1 kHz and 48 kHz (60 % at 22.05 kHz); figures for every signal")
    func speechRatio() throws {
        for rate in [22_050, 44_100, 48_000] {
            let format = AudioFormat(sampleRate: rate, channels: 1, bitsPerSample: 16)
            let pcm = try Signals.speech(format)
            // In 0.2 s pieces, as the page sends them.
            let pieceBytes = 2 * rate / 5
            var compressed = 0
            for start in stride(from: 0, to: pcm.count, by: pieceBytes) {
                compressed += PieceCodec.encode(pcm: Array(pcm[start..<min(start + pieceBytes, pcm.count)]), channels: 1).count
            }
            let ratio = Double(compressed) / Double(pcm.count)
            let kilobits = ratio * Double(16 * rate) / 1_000
            print("figure: PieceCodec on espeak-ng speech at \(rate) Hz mono in 0.2 s pieces: \(String(format: "%.3f", ratio)) of its PCM, \(Int(kilobits)) kbit/s; on a 1 Mbit/s link \(String(format: "%.1f", 1_000 / kilobits))× real time, \(String(format: "%.1f", 1_000 / kilobits - 1))× while recording")
            #expect(ratio < (rate == 22_050 ? 0.6 : 0.45), "\(rate) Hz: \(ratio)")
        }
        // A microphone's own noise floor, about -70 dBFS (RMS 10, the sum of 4 uniform values),
        // is what no lossless coder removes.
        var random = SeededRandom(70)
        let floor = try Signal.speech.samples(8 * 44_100).map { sample in
            let noise = (0..<4).reduce(0) { total, _ in total + Int(random.next() % 17) - 8 }
            return Int16(clamping: Int(sample) + noise)
        }
        let floorRatio = Double(PieceCodec.encode(floor, channels: 1).count) / Double(2 * floor.count)
        print("figure: PieceCodec on espeak-ng speech over a -70 dBFS noise floor at 44.1 kHz: \(String(format: "%.3f", floorRatio)) of its PCM, \(Int(floorRatio * 705.6)) kbit/s")
        #expect(floorRatio < 0.6)
        for signal in Signal.allCases {
            let samples = try signal.samples(44_100)
            let ratio = Double(PieceCodec.encode(samples, channels: 1).count) / Double(2 * samples.count)
            print("figure: PieceCodec on 1 s of \(signal.rawValue) at 44.1 kHz: \(String(format: "%.4f", ratio)) of its PCM")
        }
    }

    @Test("decodes 60 s of speech in 0.2 s pieces (figure: milliseconds)")
    func decodeSpeed() throws {
        let pcm = try Signals.speech(.speech, seconds: 60)
        let pieces = stride(from: 0, to: 60 * 88_200, by: 17_640).map { PieceCodec.encode(pcm: Array(pcm[$0..<$0 + 17_640]), channels: 1) }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(60 * 88_200)
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            for piece in pieces { decoded += try PieceCodec.decodePCM(piece, channels: 1, frames: 8_820) }
        }
        #expect(decoded == Array(pcm.prefix(60 * 88_200)))
        print("figure: PieceCodec decodes 60 s of 44.1 kHz speech in \(elapsed) (this build's optimisation)")
    }

    @Test("refuses a channel count other than 1 or 2 and frames beyond 10 s at 48 kHz, before reading a byte")
    func refusedShapes() {
        #expect(throws: NarrationError.usage("The page sent a piece of a take in 3 channels, where narrate takes 1 or 2: reload the page.")) {
            try PieceCodec.decode([], channels: 3, frames: 0)
        }
        #expect(throws: NarrationError.usage("The page sent a piece of a take in 0 channels, where narrate takes 1 or 2: reload the page.")) {
            try PieceCodec.decode([], channels: 0, frames: 0)
        }
        #expect(throws: NarrationError.usage("The page sent a piece of a take of 480001 frames, where narrate takes up to 480000: reload the page.")) {
            try PieceCodec.decode([], channels: 1, frames: 480_001)
        }
        #expect(throws: NarrationError.usage("The page sent a piece of a take of -1 frames, where narrate takes up to 480000: reload the page.")) {
            try PieceCodec.decode([], channels: 1, frames: -1)
        }
    }

    @Test("refuses each field out of range, in its own words")
    func refusedFields() throws {
        #expect(throws: damaged("a block of unknown kind 7")) { try PieceCodec.decode(payload("111"), channels: 1, frames: 1) }
        #expect(throws: damaged("a predictor of order 4 for 2 samples")) { try PieceCodec.decode(payload("100"), channels: 1, frames: 2) }
        #expect(throws: damaged("a Rice parameter of 21")) { try PieceCodec.decode(payload("000 10101"), channels: 1, frames: 1) }
        // Order 1 from 32 767, then a residual of +1 (zig-zag 2: "001" with k = 0).
        #expect(throws: damaged("a sample beyond 16 bits")) {
            try PieceCodec.decode(payload("001 0111111111111111 00000 001"), channels: 1, frames: 2)
        }
        #expect(try PieceCodec.decode(payload("001 0111111111111111 00000 010"), channels: 1, frames: 2) == [32_767, 32_766])
        #expect(throws: damaged("bytes after the last sample")) { try PieceCodec.decode(payload("101 0000000000000000") + [0], channels: 1, frames: 1) }
        #expect(throws: damaged("bytes after the last sample")) { try PieceCodec.decode(payload("101 0000000000000000 00001"), channels: 1, frames: 1) }
        #expect(throws: damaged("bytes after the last sample")) { try PieceCodec.decode([0], channels: 1, frames: 0) }
        #expect(throws: damaged("the bytes end before the last sample")) { try PieceCodec.decode([], channels: 1, frames: 1) }
        // 1 MiB of zero bits: one unary run as long as the input, refused once it passes 2²⁰ bits.
        #expect(throws: damaged("a residual longer than 16-bit audio can have")) {
            try PieceCodec.decode([UInt8](repeating: 0, count: 1 << 20), channels: 1, frames: PieceCodec.maximumFrames)
        }
    }

    @Test("every truncation of a payload is refused as ending too soon; one frame fewer as bytes after the last")
    func truncatedAndOversized() throws {
        let samples = try Signal.speech.samples(2 * 4_097).enumerated().map { $0.offset >= 4_097 ? $0.element / 3 : $0.element }
        let payload = PieceCodec.encode(samples, channels: 2)
        for count in 0..<payload.count {
            #expect(throws: damaged("the bytes end before the last sample"), "\(count) bytes") {
                try PieceCodec.decode(Array(payload.prefix(count)), channels: 2, frames: 4_097)
            }
        }
        #expect(throws: damaged("bytes after the last sample")) { try PieceCodec.decode(payload + [0], channels: 2, frames: 4_097) }
        #expect(throws: NarrationError.self) { try PieceCodec.decode(payload, channels: 2, frames: 4_096) }
        #expect(throws: NarrationError.self) { try PieceCodec.decode(payload, channels: 1, frames: 8_194) }
    }

    @Test("garbage and 4 000 seeded mutations: refused in a sentence, or exactly the frames asked for, never a trap")
    func fuzzed() throws {
        let seed: UInt64 = 34
        var random = SeededRandom(seed)
        var refused = 0, decoded = 0
        func check(_ bytes: [UInt8], channels: Int, frames: Int) {
            do throws(NarrationError) {
                let samples = try PieceCodec.decode(bytes, channels: channels, frames: frames)
                #expect(samples.count == frames * channels)
                decoded += 1
            } catch {
                #expect(error.kind == .usage && error.message.hasPrefix("The page sent a piece of a take whose compressed samples narrate cannot read (")
                    && error.message.hasSuffix("): reload the page."), "\(error)")
                refused += 1
            }
        }
        for length in [1, 2, 3, 17, 100, 1_000, 20_000] {
            for _ in 0..<20 {
                check((0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }, channels: 1 + Int(random.next() % 2), frames: 8_820)
            }
        }
        let original = PieceCodec.encode(try Signal.speech.samples(8_820), channels: 1)
        for _ in 0..<4_000 {
            var bytes = original
            for _ in 0..<(1 + Int(random.next() % 4)) {
                let at = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 4 {
                case 0: bytes[at] ^= UInt8(1 << (random.next() % 8))
                case 1: bytes[at] = UInt8(truncatingIfNeeded: random.next())
                case 2: bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: at)
                default: bytes.remove(at: at)
                }
                if bytes.isEmpty { bytes = [0] }
            }
            check(bytes, channels: 1, frames: 8_820)
        }
        print("figure: PieceCodec fuzz (seed \(seed)): \(refused) refused, \(decoded) decoded to 8 820 frames (a changed residual is still audio: the piece's CRC-32 catches it)")
        #expect(refused > 1_000)
    }

    /// `Tests/Fixtures/piece-codec`: a payload the page's encoder wrote in Chromium
    /// (`Tests/Browser/test_piece_codec.py` makes it), with the frames, channels and CRC-32 of
    /// its samples.
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/piece-codec")

    @Test("reads what the page's encoder wrote, and writes the same bytes for the same samples")
    func pageFixture() throws {
        struct Description: Decodable { var frames: Int; var channels: Int; var crc32: UInt32 }
        let payload = [UInt8](try Data(contentsOf: Self.fixtures.appendingPathComponent("speech-1s.nrc")))
        let description = try JSONDecoder().decode(
            Description.self, from: Data(contentsOf: Self.fixtures.appendingPathComponent("speech-1s.json")))
        let pcm = try PieceCodec.decodePCM(payload, channels: description.channels, frames: description.frames)
        #expect(TakePiece.checksum(pcm) == description.crc32)
        #expect(PieceCodec.encode(pcm: pcm, channels: description.channels) == payload)
        #expect(payload.count < pcm.count * 3 / 5, "\(payload.count) bytes for \(pcm.count)")
    }
}

/// A small seeded generator (SplitMix64), so that a failing fuzz case can be run again.
struct SeededRandom {
    private var state: UInt64
    init(_ seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
