/// The name a page gives a take it records (the web studio's browser microphone): 32 lowercase
/// hexadecimal digits, 128 random bits, made by the page before the take starts so that the
/// pieces it stores in the browser and sends are named before the server has answered. The
/// server refuses any other spelling.
public struct TakeUploadKey: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    /// nil unless `text` is 32 lowercase hexadecimal digits.
    public init?(_ text: String) {
        guard text.utf8.count == 32, text.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { return nil }
        rawValue = text
    }

    /// The key from its 16 bytes, as a piece's header carries it.
    public init(bytes: some Collection<UInt8>) {
        precondition(bytes.count == 16, "a take's upload key is 16 bytes")
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(32)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        rawValue = String(decoding: text, as: UTF8.self)
    }

    public var description: String { rawValue }
}

/// Who uploads a take: its key, and in a reading service the account whose take it is (a piece
/// from another account is refused).
public struct TakeUploadTag: Sendable, Equatable {
    public var key: TakeUploadKey
    public var account: String?

    public init(key: TakeUploadKey, account: String?) {
        self.key = key
        self.account = account
    }
}

/// What the catalog knows of an uploaded take.
public struct TakeUploadRecord: Sendable, Equatable {
    public enum Stage: Sendable, Equatable {
        /// Its audio is still arriving: a partial file and a pending take.
        case uploading
        /// It is a chunk of its article (or was, before an edit removed it).
        case committed
        /// It ended without a chunk (nothing was captured) or was removed with its article.
        case ended
    }

    public var key: TakeUploadKey
    public var chunk: ChunkID
    public var article: ArticleID
    public var account: String?
    public var stage: Stage

    public init(key: TakeUploadKey, chunk: ChunkID, article: ArticleID, account: String?, stage: Stage) {
        self.key = key
        self.chunk = chunk
        self.article = article
        self.account = account
        self.stage = stage
    }
}
