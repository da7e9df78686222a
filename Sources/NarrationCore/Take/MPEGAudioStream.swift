public import Foundation

/// An MPEG audio file (MP3, or layer I or II) walked frame by frame before anything decodes it:
/// whether it is a whole, unbroken chain of frames, and its bitrate.
///
/// libsndfile hands MPEG audio to libmpg123, which resyncs over junk printing its own lines to
/// stderr and decodes noise from it, and reads a file cut short as a shorter one. Walking the
/// frame headers first lets the caller refuse such a file with its own sentence, and hand the
/// decoder only a clean chain (which it decodes without a word). Tags are stepped over: ID3v2
/// anywhere between frames, and at the end an APE tag, Lyrics3, an ID3v1 tag or zero padding.
public enum MPEGAudioStream {
    /// What the walk found.
    public enum Verdict: Sendable, Equatable {
        /// Not MPEG audio at all (it starts with neither an ID3v2 tag nor a frame): some other
        /// format, for the decoder to recognise or refuse.
        case notMPEG
        /// An unbroken chain of `frames` frames.
        case whole(Summary)
        /// Where a frame should start, at byte `offset`, there are bytes that are not one.
        case junk(offset: Int, size: Int)
        /// The last frame, at byte `offset`, needs `needed` bytes and only `held` are left; or
        /// the stream's own count (its Xing or Info tag) says `frames` frames and fewer are there.
        case truncated(offset: Int, needed: Int, held: Int)
        case shorterThanItsTag(frames: Int, tagged: Int)
    }

    /// An unbroken stream's frames and bitrates.
    public struct Summary: Sendable, Equatable {
        public let frames: Int
        /// Each frame's bitrate in kbit/s, lowest and highest (the same: a constant bitrate).
        public let lowestKbps: Int
        public let highestKbps: Int
        /// The audio bytes' mean rate, in kbit/s, over the stream's duration.
        public let meanKbps: Int
        /// Free-format frames, whose length no header gives: the walk stopped at the first one.
        public let freeFormat: Bool

        /// "128 kbit/s", "VBR, 97 kbit/s on average", "free format".
        public var bitrate: String {
            if freeFormat { return "free-format bitrate" }
            return lowestKbps == highestKbps ? "\(lowestKbps) kbit/s" : "VBR, \(meanKbps) kbit/s on average"
        }
    }

    /// Walks `data`, a whole file (mapped, not read: only the headers are touched).
    public static func inspect(_ bytes: Data) -> Verdict {
        let data = bytes.startIndex == 0 ? bytes : Data(bytes)
        let size = data.count
        var offset = 0
        if let tag = id3v2Size(data, at: 0) {
            offset = tag
        } else if header(data, at: 0) == nil {
            // "ID3" or the 11 sync bits at the start is what makes libsndfile hand the file to
            // libmpg123: such a file that is not MPEG audio is junk here, not another format.
            let looksMPEG = data.starts(with: Array("ID3".utf8)) || (size >= 2 && data[0] == 0xFF && data[1] & 0xE0 == 0xE0)
            return looksMPEG ? .junk(offset: 0, size: size) : .notMPEG
        }
        var frames = 0, audioBytes = 0, samples = 0, rate = 0
        var lowest = Int.max, highest = 0
        var tagged: Int?
        while offset < size {
            if let tag = id3v2Size(data, at: offset) {
                guard offset + tag <= size else { return .truncated(offset: offset, needed: tag, held: size - offset) }
                offset += tag
                continue
            }
            if let frame = header(data, at: offset) {
                guard frame.length > 0 else {
                    return .whole(Summary(frames: frames, lowestKbps: 0, highestKbps: 0, meanKbps: 0, freeFormat: true))
                }
                guard offset + frame.length <= size else { return .truncated(offset: offset, needed: frame.length, held: size - offset) }
                if frames == 0, let count = xingFrames(data, at: offset, frame) {
                    tagged = count  // the tag's frame carries no audio
                } else {
                    frames += 1
                    audioBytes += frame.length
                    samples += frame.samples
                    rate = frame.sampleRate
                    lowest = min(lowest, frame.kbps)
                    highest = max(highest, frame.kbps)
                }
                offset += frame.length
                continue
            }
            if isTrailer(data, at: offset) { break }
            return .junk(offset: offset, size: size)
        }
        guard frames > 0 else { return .junk(offset: offset, size: size) }
        if let tagged, frames < tagged { return .shorterThanItsTag(frames: frames, tagged: tagged) }
        let seconds = Double(samples) / Double(rate)
        let mean = Int((Double(audioBytes) * 8 / seconds / 1000).rounded())
        return .whole(Summary(frames: frames, lowestKbps: lowest, highestKbps: highest, meanKbps: mean, freeFormat: false))
    }

    /// One frame header's facts.
    struct FrameHeader {
        let kbps: Int
        let sampleRate: Int
        /// Bytes, header included; 0 for free format.
        let length: Int
        let samples: Int
        let mpeg1: Bool
        let mono: Bool
    }

    private static let kbpsTables: [[Int]] = [
        [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],  // MPEG-1 layer I
        [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],  // MPEG-1 layer II
        [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],  // MPEG-1 layer III
        [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],  // MPEG-2/2.5 layer I
        [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],  // MPEG-2/2.5 layers II and III
    ]

    /// The frame header at `offset`, if the four bytes there are a valid one.
    static func header(_ data: Data, at offset: Int) -> FrameHeader? {
        guard offset + 4 <= data.count, data[offset] == 0xFF, data[offset + 1] & 0xE0 == 0xE0 else { return nil }
        let version = Int(data[offset + 1] >> 3) & 3  // 0 MPEG-2.5, 1 reserved, 2 MPEG-2, 3 MPEG-1
        let layer = 4 - (Int(data[offset + 1] >> 1) & 3)  // 4 is "reserved"
        let bitrateIndex = Int(data[offset + 2] >> 4)
        let rateIndex = Int(data[offset + 2] >> 2) & 3
        guard version != 1, layer != 4, bitrateIndex != 15, rateIndex != 3 else { return nil }
        let padding = Int(data[offset + 2] >> 1) & 1
        let mpeg1 = version == 3
        let rate = [44_100, 48_000, 32_000][rateIndex] >> (mpeg1 ? 0 : version == 2 ? 1 : 2)
        let table = mpeg1 ? layer - 1 : layer == 1 ? 3 : 4
        let kbps = kbpsTables[table][bitrateIndex]
        let samples = layer == 1 ? 384 : layer == 3 && !mpeg1 ? 576 : 1_152
        let length: Int
        if kbps == 0 {
            length = 0
        } else if layer == 1 {
            length = (12 * kbps * 1_000 / rate + padding) * 4
        } else {
            length = samples / 8 * kbps * 1_000 / rate + padding
        }
        return FrameHeader(kbps: kbps, sampleRate: rate, length: length, samples: samples, mpeg1: mpeg1, mono: data[offset + 3] >> 6 == 3)
    }

    /// The size of the ID3v2 tag at `offset` (header and footer included), if one starts there.
    static func id3v2Size(_ data: Data, at offset: Int) -> Int? {
        guard offset + 10 <= data.count, data[offset] == 0x49, data[offset + 1] == 0x44, data[offset + 2] == 0x33,
              data[offset + 3] != 0xFF, data[offset + 4] != 0xFF, data[(offset + 6)..<(offset + 10)].allSatisfy({ $0 < 0x80 })
        else { return nil }
        let body = data[(offset + 6)..<(offset + 10)].reduce(0) { $0 << 7 | Int($1) }
        return 10 + body + (data[offset + 5] & 0x10 != 0 ? 10 : 0)
    }

    /// The frame count of a Xing or Info tag in the frame at `offset`, if it has one.
    private static func xingFrames(_ data: Data, at offset: Int, _ frame: FrameHeader) -> Int? {
        let sideInfo = frame.mpeg1 ? (frame.mono ? 17 : 32) : (frame.mono ? 9 : 17)
        let start = offset + 4 + sideInfo
        guard start + 12 <= offset + frame.length else { return nil }
        let id = String(decoding: data[start..<(start + 4)], as: UTF8.self)
        guard id == "Xing" || id == "Info", data[start + 7] & 1 != 0 else { return nil }
        return data[(start + 8)..<(start + 12)].reduce(0) { $0 << 8 | Int($1) }
    }

    /// What may follow the last frame: an APE tag, Lyrics3, an ID3v1 tag, or zeros to the end.
    private static func isTrailer(_ data: Data, at offset: Int) -> Bool {
        func starts(_ text: String) -> Bool {
            let bytes = Array(text.utf8)
            return offset + bytes.count <= data.count && data[offset..<(offset + bytes.count)].elementsEqual(bytes)
        }
        if starts("APETAGEX") || starts("LYRICSBEGIN") { return true }
        if starts("TAG"), data.count - offset == 128 { return true }
        return data[offset...].allSatisfy { $0 == 0 }
    }
}
