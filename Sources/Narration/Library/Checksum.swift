import Foundation
import NarrationCore
import ObjectStorage

/// Digests of files, read in blocks (with object storage's `Digest`): SHA-256 for the outbox, MD5 per upload part
/// for object storage's ETags.
enum Checksum {
    static func sha256(of url: URL) throws(NarrationError) -> String {
        try digests(of: url, plan: nil).sha256
    }

    /// The file's SHA-256 and, when `plan` is given, the MD5 of each of its parts, in one read.
    static func digests(of url: URL, plan: UploadPlan?) throws(NarrationError) -> (sha256: String, partMD5s: [Data]) {
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw NarrationError(.chunkFileMissing, "Cannot read \(url.path) to check it.")
        }
        defer { try? handle.close() }
        var whole = Digest.SHA256Stream()
        var partMD5s: [Data] = []
        let partSize = plan?.partSize ?? Int.max
        var part = Digest.MD5Stream()
        var inPart = 0
        while true {
            let block = handle.readData(ofLength: Swift.min(1 << 20, partSize - inPart))
            if block.isEmpty { break }
            whole.update(block)
            part.update(block)
            inPart += block.count
            if inPart == partSize {
                partMD5s.append(part.finalize())
                part = Digest.MD5Stream()
                inPart = 0
            }
        }
        if inPart > 0 || partMD5s.isEmpty { partMD5s.append(part.finalize()) }
        return (whole.hex(), plan == nil ? [] : partMD5s)
    }


    /// The bytes of `range` in a file.
    static func read(_ range: Range<Int>, of url: URL) throws(NarrationError) -> Data {
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw NarrationError(.chunkFileMissing, "Cannot read \(url.path) to send it.")
        }
        defer { try? handle.close() }
        let data: Data
        do {
            try handle.seek(toOffset: UInt64(range.lowerBound))
            data = try handle.read(upToCount: range.count) ?? Data()
        } catch {
            throw NarrationError(.fileSystem, "Cannot read \(url.path) to send it (\(error)).")
        }
        guard data.count == range.count else {
            throw NarrationError(.fileCorrupt, "\(url.path) is shorter than when it was queued; queue the article again.")
        }
        return data
    }
}
