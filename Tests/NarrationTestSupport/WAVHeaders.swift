import NarrationCore

/// WAV headers as the recorder writes them: for the recovery parser's tests and for damaging.
public enum WAVHeaders {
    /// A canonical PCM header, optionally with a LIST chunk before the data.
    public static func canonical(channels: Int = 1, rate: Int = 44_100, bits: Int = 16, declaredData: UInt32 = 0, list: Bool = false) -> [UInt8] {
        func le32(_ value: Int) -> [UInt8] { WAVRepair.littleEndian(UInt32(truncatingIfNeeded: value)) }
        func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        let align = channels * bits / 8
        var bytes = Array("RIFF".utf8) + le32(36) + Array("WAVE".utf8)
        bytes += Array("fmt ".utf8) + le32(16) + le16(1) + le16(channels) + le32(rate) + le32(rate * align) + le16(align) + le16(bits)
        if list { bytes += Array("LIST".utf8) + le32(5) + Array("INFOx".utf8) + [0] }
        bytes += Array("data".utf8) + WAVRepair.littleEndian(declaredData)
        return bytes
    }
}
