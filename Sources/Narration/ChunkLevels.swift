public import Foundation
import NarrationAudio
public import NarrationCore

/// The shape of a chunk's level over time: the peak of each of `count` equal stretches, read
/// from its file. What the studio's sparklines draw.
public enum ChunkLevels {
    /// How many stretches a profile has; a sparkline merges or repeats them to fit its width.
    public static let count = 48

    /// The profile of the audio file at `url`, or nil when it cannot be read.
    public static func profile(of url: URL, count: Int = ChunkLevels.count) -> [Decibels]? {
        guard let reader = try? SoundFileReader(path: url.path) else { return nil }
        defer { reader.close() }
        let channels = reader.format.channels
        let total = reader.frames
        guard total > 0 else { return [] }
        var peaks = [Int64](repeating: 0, count: count)
        var block = [Int32](repeating: 0, count: 8_192 * channels)
        var position = 0
        while position < total {
            let read = (try? block.withUnsafeMutableBufferPointer { (buffer) throws(NarrationError) in
                try reader.read(into: buffer, frames: 8_192)
            }) ?? 0
            guard read > 0 else { break }
            for frame in 0..<read {
                let stretch = min(count - 1, (position + frame) * count / total)
                for channel in 0..<channels {
                    let magnitude = abs(Int64(block[frame * channels + channel]))
                    if magnitude > peaks[stretch] { peaks[stretch] = magnitude }
                }
            }
            position += read
        }
        return peaks.map { Decibels(amplitude: Double($0) / Double(Int32.max)) }
    }
}
