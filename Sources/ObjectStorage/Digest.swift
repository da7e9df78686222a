public import Foundation
import Crypto

/// The digests object storage speaks (swift-crypto): SHA-256 for signatures and for checking what
/// was delivered, MD5 for S3's `Content-MD5` and ETags.
public enum Digest {
    public static func sha256Hex(_ data: Data) -> String { hex(SHA256.hash(data: data)) }

    public static func md5(_ data: Data) -> Data { Data(Insecure.MD5.hash(data: data)) }

    public static func hex<D: Sequence>(_ digest: D) -> String where D.Element == UInt8 {
        digest.map { String(format: "%02x", $0) }.joined()
    }

    /// The ETag S3 gives a multipart object: the MD5 of the parts' MD5s, then "-" and the part count.
    public static func multipartETag(partMD5s: [Data]) -> String {
        hex(md5(partMD5s.reduce(Data(), +))) + "-\(partMD5s.count)"
    }

    /// A SHA-256 fed block by block, for files too long to hold at once.
    public struct SHA256Stream {
        private var hasher = SHA256()
        public init() {}
        public mutating func update(_ data: Data) { hasher.update(data: data) }
        public func hex() -> String { Digest.hex(hasher.finalize()) }
    }

    /// An MD5 fed block by block (one per upload part).
    public struct MD5Stream {
        private var hasher = Insecure.MD5()
        public init() {}
        public mutating func update(_ data: Data) { hasher.update(data: data) }
        public func finalize() -> Data { Data(hasher.finalize()) }
    }
}
