/// Reads a played stream as a sequence of stretches of a source: how a test sees where playback
/// paused, jumped or seeked. Works on sources whose 8-sample windows are unique (noise).
public enum Splices {
    /// The source ranges that, joined in order, make up `played`.
    /// Fails (returns nil) when some stretch of `played` is not in the source.
    public static func segments(of played: [Int16], in source: [Int16]) -> [Range<Int>]? {
        let window = 8
        var positions: [[Int16]: Int] = [:]
        if source.count >= window {
            for start in 0...(source.count - window) where positions[Array(source[start..<start + window])] == nil {
                positions[Array(source[start..<start + window])] = start
            }
        }
        var segments: [Range<Int>] = []
        var index = 0
        while index < played.count {
            let sourceStart: Int
            if index + window <= played.count, let found = positions[Array(played[index..<index + window])] {
                sourceStart = found
            } else if let last = segments.last, last.upperBound < source.count, source[last.upperBound] == played[index] {
                sourceStart = last.upperBound
            } else {
                return nil
            }
            var length = 0
            while index + length < played.count, sourceStart + length < source.count,
                played[index + length] == source[sourceStart + length] {
                length += 1
            }
            if let last = segments.last, last.upperBound == sourceStart {
                segments[segments.count - 1] = last.lowerBound..<(sourceStart + length)
            } else {
                segments.append(sourceStart..<(sourceStart + length))
            }
            index += length
        }
        return segments
    }

    /// Raw little-endian 16-bit bytes as samples.
    public static func int16(_ bytes: [UInt8]) -> [Int16] {
        stride(from: 0, to: bytes.count - 1, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
    }

    /// Frequency of a tone from its rising zero crossings.
    public static func frequency(of samples: [Int16], sampleRate: Int) -> Double {
        var crossings: [Int] = []
        for index in 1..<samples.count where samples[index - 1] < 0 && samples[index] >= 0 { crossings.append(index) }
        guard crossings.count > 2 else { return 0 }
        return Double(crossings.count - 1) * Double(sampleRate) / Double(crossings.last! - crossings.first!)
    }
}
