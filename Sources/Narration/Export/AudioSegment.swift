import Foundation
import NarrationAudio
import NarrationCore

/// A stretch of a chunk file to play or export, with optional fades at its edges.
struct AudioSegment: Sendable {
    let file: URL
    let range: Range<FrameCount>
    var fadeInFrames: FrameCount = 0
    var fadeOutFrames: FrameCount = 0

    static let blockFrames = 16_384

    /// Calls `body` with each block of the segments joined in order, fades applied; with
    /// `window`, only the frames of the joined stream in it.
    static func stream(
        _ segments: [AudioSegment], window: Range<FrameCount>? = nil, format: AudioFormat,
        _ body: (UnsafeBufferPointer<Int32>) throws(NarrationError) -> Void
    ) throws(NarrationError) {
        let channels = format.channels
        var block = [Int32](repeating: 0, count: blockFrames * channels)
        var offset = 0  // of the segment in the joined stream
        for segment in segments where !segment.range.isEmpty {
            defer { offset += segment.range.count }
            var range = segment.range
            if let window {
                let start = max(window.lowerBound - offset, 0), end = min(window.upperBound - offset, range.count)
                guard start < end else {
                    if window.upperBound <= offset { break }
                    continue
                }
                range = (range.lowerBound + start)..<(range.lowerBound + end)
            }
            let reader = try SoundFileReader(path: segment.file.path)
            defer { reader.close() }
            try reader.seek(to: range.lowerBound)
            var position = range.lowerBound
            while position < range.upperBound {
                let wanted = min(blockFrames, range.upperBound - position)
                let read = try block.withUnsafeMutableBufferPointer { (buffer) throws(NarrationError) in
                    try reader.read(into: buffer, frames: wanted)
                }
                guard read > 0 else {
                    throw NarrationError(.fileCorrupt, "\(segment.file.path) ended early, at frame \(position).")
                }
                segment.applyFades(to: &block, frames: read, startingAt: position - segment.range.lowerBound, channels: channels)
                try block.withUnsafeBufferPointer { (buffer) throws(NarrationError) in
                    try body(UnsafeBufferPointer(rebasing: buffer[0..<(read * channels)]))
                }
                position += read
            }
        }
    }

    /// Linear fades over the first `fadeInFrames` and last `fadeOutFrames` of the segment.
    private func applyFades(to block: inout [Int32], frames: Int, startingAt offset: FrameCount, channels: Int) {
        guard fadeInFrames > 0 || fadeOutFrames > 0 else { return }
        let length = range.count
        for frame in 0..<frames {
            let position = offset + frame
            var gain = 1.0
            if position < fadeInFrames { gain = Double(position) / Double(fadeInFrames) }
            if position >= length - fadeOutFrames { gain = min(gain, Double(length - 1 - position) / Double(max(1, fadeOutFrames))) }
            guard gain < 1 else { continue }
            for channel in 0..<channels {
                block[frame * channels + channel] = Int32((Double(block[frame * channels + channel]) * gain).rounded())
            }
        }
    }
}
