public import Foundation

/// The length a WAV or AIFF file's header claims, against what the file holds: a file cut short
/// (a copy that stopped, a download that broke) keeps the header of the whole, and libsndfile
/// reads what is there without a word, so the import would be silently shorter.
public enum PCMFileLength {
    /// Frames the header claims, frames the bytes after it hold.
    public struct Lengths: Sendable, Equatable {
        public let claimed: Int
        public let held: Int
    }

    /// The lengths of an uncompressed WAV (PCM or float, RIFF) or AIFF / AIFF-C (`NONE`, `sowt`)
    /// file; nil for anything else, and for a header that does not say (a WAV written as a
    /// stream, whose data size is 0 or 0xFFFFFFFF).
    public static func inspect(_ bytes: Data) -> Lengths? {
        let data = bytes.startIndex == 0 ? bytes : Data(bytes)
        guard data.count >= 12 else { return nil }
        let kind = String(decoding: data[0..<4], as: UTF8.self), form = String(decoding: data[8..<12], as: UTF8.self)
        if kind == "RIFF", form == "WAVE" { return wave(data) }
        if kind == "FORM", form == "AIFF" || form == "AIFC" { return aiff(data, compressed: form == "AIFC") }
        return nil
    }

    private static func wave(_ data: Data) -> Lengths? {
        var offset = 12
        var blockAlign: Int?
        while offset + 8 <= data.count {
            let id = String(decoding: data[offset..<(offset + 4)], as: UTF8.self)
            let size = little(data, offset + 4, 4)
            let body = offset + 8
            if id == "fmt ", body + 14 <= data.count {
                let tag = little(data, body, 2)
                guard [1, 3, 0xFFFE].contains(tag) else { return nil }  // PCM, float, extensible
                blockAlign = little(data, body + 12, 2)
            }
            if id == "data" {
                guard let blockAlign, blockAlign > 0, size != 0, size != 0xFFFF_FFFF else { return nil }
                return Lengths(claimed: size / blockAlign, held: max(0, data.count - body) / blockAlign)
            }
            offset = body + size + (size & 1)
        }
        return nil
    }

    private static func aiff(_ data: Data, compressed: Bool) -> Lengths? {
        var offset = 12
        var frames: Int?, frameBytes: Int?
        while offset + 8 <= data.count {
            let id = String(decoding: data[offset..<(offset + 4)], as: UTF8.self)
            let size = big(data, offset + 4, 4)
            let body = offset + 8
            if id == "COMM", body + 8 <= data.count {
                if compressed {
                    guard body + 22 <= data.count else { return nil }
                    let coding = String(decoding: data[(body + 18)..<(body + 22)], as: UTF8.self)
                    guard coding == "NONE" || coding == "sowt" else { return nil }
                }
                frames = big(data, body + 2, 4)
                frameBytes = big(data, body, 2) * ((big(data, body + 6, 2) + 7) / 8)
            }
            if id == "SSND", body + 8 <= data.count {
                guard let frames, let frameBytes, frameBytes > 0 else { return nil }
                let start = body + 8 + big(data, body, 4)
                return Lengths(claimed: frames, held: max(0, data.count - start) / frameBytes)
            }
            offset = body + size + (size & 1)
        }
        return nil
    }

    private static func little(_ data: Data, _ offset: Int, _ count: Int) -> Int {
        guard offset + count <= data.count else { return 0 }
        return data[offset..<(offset + count)].reversed().reduce(0) { $0 << 8 | Int($1) }
    }

    private static func big(_ data: Data, _ offset: Int, _ count: Int) -> Int {
        guard offset + count <= data.count else { return 0 }
        return data[offset..<(offset + count)].reduce(0) { $0 << 8 | Int($1) }
    }
}
