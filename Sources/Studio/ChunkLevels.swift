public import Foundation
import NarrationAudio
public import NarrationCore

/// The shape of a chunk's level over time: the RMS level of each of `count` equal stretches, read
/// from its file. What the studio's sparklines draw.
///
/// RMS rather than peak: speech peaks within a few dB of its loudest almost everywhere, so a
/// profile of peaks draws a flat bar of full blocks (the chunk list's peak column already gives
/// the loudest sample); the RMS level shows where a sentence is loud, soft or a pause.
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
        var stretches = [LevelAccumulator](repeating: LevelAccumulator(channels: channels), count: count)
        var block = [Int32](repeating: 0, count: 8_192 * channels)
        var position = 0
        while position < total {
            let read = (try? block.withUnsafeMutableBufferPointer { (buffer) throws(NarrationError) in
                try reader.read(into: buffer, frames: 8_192)
            }) ?? 0
            guard read > 0 else { break }
            block.withUnsafeBufferPointer { buffer in
                // Frame f of the file belongs to stretch f * count / total; each run of the block
                // within one stretch goes to that stretch's accumulator. Frames past the length the
                // header gave go to the last stretch.
                var frame = 0
                while frame < read {
                    let stretch = min(count - 1, (position + frame) * count / total)
                    let nextStretchStart = ((stretch + 1) * total + count - 1) / count
                    let end = stretch == count - 1 ? read : min(read, nextStretchStart - position)
                    stretches[stretch].add(UnsafeBufferPointer(rebasing: buffer[(frame * channels)..<(end * channels)]))
                    frame = end
                }
            }
            position += read
        }
        return stretches.map(\.rms)
    }
}
