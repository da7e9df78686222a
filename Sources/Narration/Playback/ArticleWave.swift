public import Foundation
import NarrationAudio
public import NarrationCore

/// An article (from one chunk to the end) as one WAV file made on demand: a 44-byte header, then
/// every chunk's samples in order with nothing between them, so that a player seeking in it
/// plays the joins as the export will. The web studio serves it to the browser's `<audio>`,
/// a byte range at a time.
///
/// Nothing is written: `bytes(in:)` reads only the chunks a range touches. Missing chunks are
/// left out, as the queue player plays around them.
public struct ArticleWave: Sendable {
    /// One chunk's stretch of the wave.
    public struct Piece: Sendable, Equatable {
        public let index: ChunkIndex
        public let file: URL
        public let frames: FrameCount
        /// Where its first frame is in the wave, in frames from the start of the audio.
        public let start: FrameCount
    }

    public static let headerBytes = 44

    public let format: AudioFormat
    public let pieces: [Piece]

    public var frames: FrameCount { pieces.last.map { $0.start + $0.frames } ?? 0 }
    public var bytesPerFrame: Int { format.channels * format.bitsPerSample / 8 }
    /// The whole file's size.
    public var byteCount: Int { Self.headerBytes + frames * bytesPerFrame }

    /// The wave of `entries` from `first` on (the whole article when nil); chunks whose file is
    /// missing or damaged are left out.
    public init(entries: [NarrationLibrary.ChunkEntry], from first: ChunkIndex?, format: AudioFormat) {
        self.format = format
        var start = 0
        var pieces: [Piece] = []
        for entry in entries where entry.index.position >= (first?.position ?? 0) && entry.problem == nil {
            pieces.append(Piece(index: entry.index, file: entry.file, frames: entry.chunk.frames, start: start))
            start += entry.chunk.frames
        }
        self.pieces = pieces
    }

    /// The bytes of `range` (clamped to the file).
    /// - Throws: `fileCorrupt` when a chunk cannot be read.
    public func bytes(in range: Range<Int>) throws(NarrationError) -> [UInt8] {
        let range = range.clamped(to: 0..<byteCount)
        var out: [UInt8] = []
        out.reserveCapacity(range.count)
        if range.lowerBound < Self.headerBytes {
            out += header()[range.lowerBound..<min(Self.headerBytes, range.upperBound)]
        }
        guard range.upperBound > Self.headerBytes else { return out }
        let audio = max(range.lowerBound, Self.headerBytes)..<range.upperBound
        // Whole frames around the range, then the exact bytes of it.
        let firstFrame = (audio.lowerBound - Self.headerBytes) / bytesPerFrame
        let endFrame = (audio.upperBound - Self.headerBytes + bytesPerFrame - 1) / bytesPerFrame
        var encoded: [UInt8] = []
        encoded.reserveCapacity((endFrame - firstFrame) * bytesPerFrame)
        for piece in pieces where piece.start < endFrame && piece.start + piece.frames > firstFrame {
            let from = max(firstFrame, piece.start) - piece.start
            let to = min(endFrame, piece.start + piece.frames) - piece.start
            let reader = try SoundFileReader(path: piece.file.path)
            defer { reader.close() }
            try reader.seek(to: from)
            var samples = [Int32](repeating: 0, count: (to - from) * format.channels)
            var done = 0
            while done < to - from {
                let read = try samples.withUnsafeMutableBufferPointer { (buffer) throws(NarrationError) in
                    try reader.read(into: UnsafeMutableBufferPointer(rebasing: buffer[(done * format.channels)...]), frames: to - from - done)
                }
                guard read > 0 else {
                    throw NarrationError(.fileCorrupt, "Chunk \(piece.index) ended early: its file is shorter than the catalog says.", subject: .chunk(piece.index))
                }
                done += read
            }
            append(samples, to: &encoded)
        }
        let skip = (audio.lowerBound - Self.headerBytes) - firstFrame * bytesPerFrame
        out += encoded[skip..<(skip + audio.count)]
        return out
    }

    /// Left-justified samples as little-endian PCM of the format's bit depth.
    private func append(_ samples: [Int32], to bytes: inout [UInt8]) {
        let width = format.bitsPerSample / 8
        for sample in samples {
            let value = UInt32(bitPattern: sample) >> UInt32(32 - format.bitsPerSample)
            for byte in 0..<width { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(8 * byte))) }
        }
    }

    /// The canonical 44-byte PCM WAV header for the whole wave.
    public func header() -> [UInt8] {
        var header: [UInt8] = []
        func text(_ string: String) { header += Array(string.utf8) }
        func le32(_ value: Int) { for byte in 0..<4 { header.append(UInt8(truncatingIfNeeded: UInt32(value) >> UInt32(8 * byte))) } }
        func le16(_ value: Int) { for byte in 0..<2 { header.append(UInt8(truncatingIfNeeded: UInt16(value) >> UInt16(8 * byte))) } }
        let data = frames * bytesPerFrame
        text("RIFF"); le32(36 + data); text("WAVE")
        text("fmt "); le32(16); le16(1); le16(format.channels); le32(format.sampleRate)
        le32(format.sampleRate * bytesPerFrame); le16(bytesPerFrame); le16(format.bitsPerSample)
        text("data"); le32(data)
        return header
    }
}
