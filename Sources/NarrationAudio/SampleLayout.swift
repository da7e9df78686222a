internal import CALSA

/// How one sample is laid out in an ALSA buffer, and its conversion to the engine's
/// left-justified `Int32` samples (see `AudioFormat`).
enum SampleLayout: CaseIterable {
    case s16
    case s24Packed
    case s24InLow32
    case s32

    var alsaFormat: snd_pcm_format_t {
        switch self {
        case .s16: SND_PCM_FORMAT_S16_LE
        case .s24Packed: SND_PCM_FORMAT_S24_3LE
        case .s24InLow32: SND_PCM_FORMAT_S24_LE
        case .s32: SND_PCM_FORMAT_S32_LE
        }
    }

    var bytesPerSample: Int {
        switch self {
        case .s16: 2
        case .s24Packed: 3
        case .s24InLow32, .s32: 4
        }
    }

    var name: String {
        switch self {
        case .s16: "16-bit"
        case .s24Packed: "24-bit (3 bytes)"
        case .s24InLow32: "24-bit (in 4 bytes)"
        case .s32: "32-bit"
        }
    }

    /// The layouts to try, best first, for a bit depth: a 24-bit article takes 24 or 32-bit
    /// capture (32-bit keeps its top 24 bits when written).
    static func candidates(bitsPerSample: Int) -> [SampleLayout] {
        bitsPerSample == 16 ? [.s16] : [.s24Packed, .s24InLow32, .s32]
    }

    /// Converts `count` little-endian samples from `bytes` into left-justified `Int32`s.
    func decode(_ bytes: UnsafeRawBufferPointer, count: Int, into samples: UnsafeMutableBufferPointer<Int32>) {
        switch self {
        case .s16:
            for index in 0..<count {
                let raw = UInt16(bytes[2 * index]) | UInt16(bytes[2 * index + 1]) << 8
                samples[index] = Int32(Int16(bitPattern: raw)) << 16
            }
        case .s24Packed:
            for index in 0..<count {
                let base = 3 * index
                let raw = UInt32(bytes[base]) << 8 | UInt32(bytes[base + 1]) << 16 | UInt32(bytes[base + 2]) << 24
                samples[index] = Int32(bitPattern: raw)
            }
        case .s24InLow32, .s32:
            for index in 0..<count {
                let base = 4 * index
                let raw = UInt32(bytes[base]) | UInt32(bytes[base + 1]) << 8 | UInt32(bytes[base + 2]) << 16
                    | UInt32(bytes[base + 3]) << 24
                samples[index] = self == .s32 ? Int32(bitPattern: raw) : Int32(bitPattern: raw << 8)
            }
        }
    }

    /// Converts `count` left-justified `Int32`s into little-endian samples of this layout.
    func encode(_ samples: UnsafeBufferPointer<Int32>, count: Int, into bytes: UnsafeMutableRawBufferPointer) {
        for index in 0..<count {
            let value = UInt32(bitPattern: samples[index])
            switch self {
            case .s16:
                bytes[2 * index] = UInt8(truncatingIfNeeded: value >> 16)
                bytes[2 * index + 1] = UInt8(truncatingIfNeeded: value >> 24)
            case .s24Packed:
                for byte in 0..<3 { bytes[3 * index + byte] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(byte + 1))) }
            case .s24InLow32:
                let shifted = UInt32(bitPattern: Int32(bitPattern: value) >> 8)
                for byte in 0..<4 { bytes[4 * index + byte] = UInt8(truncatingIfNeeded: shifted >> (8 * UInt32(byte))) }
            case .s32:
                for byte in 0..<4 { bytes[4 * index + byte] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(byte))) }
            }
        }
    }
}
