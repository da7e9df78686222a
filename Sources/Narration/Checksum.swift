import Crypto
import Foundation
import NarrationCore

/// SHA-256 of a file, read in blocks (swift-crypto).
enum Checksum {
    static func sha256(of url: URL) throws(NarrationError) -> String {
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw NarrationError(.chunkFileMissing, "Cannot read \(url.path) to check it.")
        }
        defer { try? handle.close() }
        var hasher = SHA256()
        while true {
            let block = handle.readData(ofLength: 1 << 20)
            if block.isEmpty { break }
            hasher.update(data: block)
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}
