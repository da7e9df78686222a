/// Reads back an ID3v2.3 or v2.4 tag at the start of an MP3: its text frames, user text
/// (TXXX) and chapters (CHAP with a TIT2 sub-frame). The demo uses it to check what the exporter
/// wrote; it reads files from elsewhere too, so every length is checked before it is used.
///
/// Written here for the same reason as `ID3Tag`: libsndfile reads only ID3v1-style fields of an
/// MP3 and LAME reads no tags. Unsynchronisation, compression and encryption are not supported
/// (the exporter uses none); frames that use them are skipped, not misread.
public struct ID3TagReader: Sendable, Equatable {
    public struct Frame: Sendable, Equatable {
        public let id: String
        public let body: [UInt8]
    }

    /// A chapter as the tag states it, in milliseconds.
    public struct ChapterEntry: Sendable, Equatable {
        public let elementID: String
        public let startMilliseconds: UInt32
        public let endMilliseconds: UInt32
        public let title: String?

        public init(elementID: String, startMilliseconds: UInt32, endMilliseconds: UInt32, title: String?) {
            self.elementID = elementID
            self.startMilliseconds = startMilliseconds
            self.endMilliseconds = endMilliseconds
            self.title = title
        }
    }

    public let majorVersion: UInt8
    public let frames: [Frame]

    /// Bytes the tag takes at the start of the file, header included.
    public let size: Int

    /// Parses the tag at the start of `bytes` (the file's first bytes; at least the whole tag).
    /// - Throws: `fileCorrupt` saying what is wrong when there is no tag or it is damaged.
    public init(_ bytes: [UInt8]) throws(NarrationError) {
        guard bytes.count >= 10, bytes[0] == 0x49, bytes[1] == 0x44, bytes[2] == 0x33 else {
            throw NarrationError(.fileCorrupt, "The file has no ID3v2 tag at its start.")
        }
        guard bytes[3] == 3 || bytes[3] == 4 else {
            throw NarrationError(.fileCorrupt, "The file's ID3 tag is version 2.\(bytes[3]); only 2.3 and 2.4 are read.")
        }
        guard let bodySize = Self.syncSafe(bytes, at: 6) else {
            throw NarrationError(.fileCorrupt, "The file's ID3 tag states an impossible size.")
        }
        majorVersion = bytes[3]
        size = 10 + bodySize
        guard bytes.count >= size else {
            throw NarrationError(.fileCorrupt, "The file's ID3 tag states \(bodySize) bytes but the file holds fewer.")
        }
        let flags = bytes[5]
        if flags & 0x80 != 0 {
            throw NarrationError(.fileCorrupt, "The file's ID3 tag is unsynchronised, which is not read.")
        }
        var start = 10
        if flags & 0x40 != 0 {  // an extended header: skip it
            guard let extended = bytes[3] == 4 ? Self.syncSafe(bytes, at: 10) : Self.bigEndian(bytes, at: 10).map({ Int($0) + 4 }),
                  extended <= bodySize
            else { throw NarrationError(.fileCorrupt, "The file's ID3 extended header is damaged.") }
            start += extended
        }
        frames = try Self.frames(in: bytes[start..<size], version: bytes[3])
    }

    /// The frames in `region`, up to the padding.
    static func frames(in region: ArraySlice<UInt8>, version: UInt8) throws(NarrationError) -> [Frame] {
        var frames: [Frame] = []
        var position = region.startIndex
        while region.endIndex - position >= 10, region[position] != 0 {
            let idBytes = region[position..<position + 4]
            guard idBytes.allSatisfy({ (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) }) else {
                throw NarrationError(.fileCorrupt, "The file's ID3 tag has a frame with an invalid id at byte \(position).")
            }
            let length = version == 4 ? syncSafe(Array(region[position + 4..<position + 8]), at: 0) : bigEndian(Array(region[position + 4..<position + 8]), at: 0).map { Int($0) }
            let bodyStart = position + 10
            guard let length, length <= region.endIndex - bodyStart else {
                throw NarrationError(.fileCorrupt, "The file's ID3 frame \(String(decoding: idBytes, as: UTF8.self)) runs past the end of the tag.")
            }
            let formatFlags = region[position + 9]
            let unreadable: UInt8 = version == 4 ? 0x0F : 0xC0  // compression, encryption, unsynchronisation, data length
            if formatFlags & unreadable == 0 {
                frames.append(Frame(id: String(decoding: idBytes, as: UTF8.self), body: Array(region[bodyStart..<bodyStart + length])))
            }
            position = bodyStart + length
        }
        return frames
    }

    /// The text of the first frame `id` (TIT2, TPE1, TALB, TDRC…), nil if there is none.
    public func text(_ id: String) -> String? {
        frames.first { $0.id == id }.flatMap { Self.texts(in: $0.body[...]).first }
    }

    /// The value of the TXXX frame described as `description`.
    public func userText(_ description: String) -> String? {
        for frame in frames where frame.id == "TXXX" {
            let texts = Self.texts(in: frame.body[...])
            if texts.count >= 2, texts[0] == description { return texts[1] }
        }
        return nil
    }

    /// The chapters, in the order of their frames.
    public var chapters: [ChapterEntry] {
        frames.filter { $0.id == "CHAP" }.compactMap { frame in
            let body = frame.body
            guard let end = body.firstIndex(of: 0), body.count >= end + 17,
                  let start = Self.bigEndian(body, at: end + 1), let finish = Self.bigEndian(body, at: end + 5)
            else { return nil }
            let subFrames = try? Self.frames(in: body[(end + 17)...], version: majorVersion)
            let title = subFrames?.first { $0.id == "TIT2" }.flatMap { Self.texts(in: $0.body[...]).first }
            return ChapterEntry(elementID: String(decoding: body[..<end], as: UTF8.self), startMilliseconds: start, endMilliseconds: finish, title: title)
        }
    }

    /// The strings of a text frame's body: an encoding byte, then strings ended by that
    /// encoding's terminator (the last one may run to the end).
    static func texts(in body: ArraySlice<UInt8>) -> [String] {
        guard let encoding = body.first else { return [] }
        let content = body.dropFirst()
        switch encoding {
        case 0:  // ISO-8859-1: each byte is the code point
            return content.split(separator: 0, omittingEmptySubsequences: false).map { String(String.UnicodeScalarView($0.map { Unicode.Scalar($0) })) }
                .trimmingFinalEmpty()
        case 3:
            return content.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }.trimmingFinalEmpty()
        case 1, 2:
            var units: [UInt16] = []
            var index = content.startIndex
            while index + 1 < content.endIndex {
                let pair = (content[index], content[index + 1])
                units.append(encoding == 2 ? UInt16(pair.0) << 8 | UInt16(pair.1) : UInt16(pair.1) << 8 | UInt16(pair.0))
                index += 2
            }
            return units.split(separator: 0, omittingEmptySubsequences: false).map { text -> String in
                var text = Array(text)
                if text.first == 0xFFFE { text = text.map { $0.byteSwapped } }  // a byte order mark the other way round
                if text.first == 0xFEFF { text.removeFirst() }
                return String(decoding: text, as: UTF16.self)
            }.trimmingFinalEmpty()
        default:
            return []
        }
    }

    /// A 28-bit sync-safe integer (four bytes of seven bits), nil if a byte has its top bit set.
    static func syncSafe(_ bytes: [UInt8], at offset: Int) -> Int? {
        guard bytes.count >= offset + 4 else { return nil }
        var value = 0
        for byte in bytes[offset..<offset + 4] {
            guard byte & 0x80 == 0 else { return nil }
            value = value << 7 | Int(byte)
        }
        return value
    }

    static func bigEndian(_ bytes: [UInt8], at offset: Int) -> UInt32? {
        guard offset >= 0, bytes.count >= offset + 4 else { return nil }
        return bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }
}

extension Array where Element == String {
    /// Drops the empty string a final terminator leaves.
    fileprivate func trimmingFinalEmpty() -> [String] {
        last == "" && count > 1 ? Array(dropLast()) : self
    }
}
