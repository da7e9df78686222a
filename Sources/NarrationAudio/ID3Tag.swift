public import NarrationCore

/// An ID3v2.4 tag with UTF-8 text, comments, a user field, and a table of contents with one
/// chapter per chunk (CTOC + CHAP, the ID3 chapter addendum).
///
/// Written here rather than by LAME because LAME 3.100 has no chapter frames (its
/// `id3tag_set_fieldvalue` refuses CHAP and CTOC) and sets text only as UTF-16; libsndfile writes
/// only ID3v1-style Latin-1 tags for MP3. The format is small: a 10-byte header and frames of
/// a 4-byte id, a sync-safe size, two flag bytes and a body.
public struct ID3Tag: Sendable {
    public var frames: [[UInt8]] = []

    public init() {}

    /// The tag for an export: TIT2, TPE1, TALB, TCON, TDRC, TLEN, COMM, TXXX (article id) and,
    /// with `chapters`, a CTOC with one CHAP per chapter.
    public init(plan: ExportPlan, chapters: Bool) {
        let tags = plan.tags
        addText("TIT2", tags.title)
        if !tags.narrator.isEmpty { addText("TPE1", tags.narrator) }
        if !tags.publication.isEmpty { addText("TALB", tags.publication) }
        addText("TCON", tags.genre)
        if !tags.date.isEmpty { addText("TDRC", tags.date) }
        addText("TLEN", String(plan.milliseconds))
        if !tags.comment.isEmpty { addComment(tags.comment) }
        addUserText(description: "NARRATE_ARTICLE_ID", value: tags.articleID)
        if chapters { addChapters(plan.chapters, rate: plan.format.sampleRate) }
    }

    /// A text frame (T***) in UTF-8.
    public mutating func addText(_ id: String, _ text: String) {
        frames.append(Self.frame(id, [Self.utf8Encoding] + Array(text.utf8)))
    }

    /// COMM: language "eng", no short description.
    public mutating func addComment(_ text: String) {
        frames.append(Self.frame("COMM", [Self.utf8Encoding] + Array("eng".utf8) + [0] + Array(text.utf8)))
    }

    /// TXXX: a named user text field.
    public mutating func addUserText(description: String, value: String) {
        frames.append(Self.frame("TXXX", [Self.utf8Encoding] + Array(description.utf8) + [0] + Array(value.utf8)))
    }

    /// One CHAP per chapter (with a TIT2 sub-frame) and a top-level, ordered CTOC listing them.
    /// A CTOC lists at most 255 entries, so longer articles get one child CTOC per 255 chapters.
    public mutating func addChapters(_ chapters: [Chapter], rate: Int) {
        guard !chapters.isEmpty else { return }
        var ids: [String] = []
        for (number, chapter) in chapters.enumerated() {
            let id = "chp\(number + 1)"
            ids.append(id)
            var body = Array(id.utf8) + [0]
            body += Self.bigEndian(chapter.startMilliseconds(rate: rate)) + Self.bigEndian(chapter.endMilliseconds(rate: rate))
            body += [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]  // byte offsets unused
            body += Self.frame("TIT2", [Self.utf8Encoding] + Array(chapter.title.utf8))
            frames.append(Self.frame("CHAP", body))
        }
        if ids.count <= 255 {
            frames.append(Self.tableOfContents(id: "toc", topLevel: true, children: ids))
        } else {
            let groups = stride(from: 0, to: ids.count, by: 255).map { Array(ids[$0..<min($0 + 255, ids.count)]) }
            let groupIDs = groups.indices.map { "toc\($0 + 1)" }
            for (groupID, group) in zip(groupIDs, groups) {
                frames.append(Self.tableOfContents(id: groupID, topLevel: false, children: group))
            }
            frames.append(Self.tableOfContents(id: "toc", topLevel: true, children: groupIDs))
        }
    }

    /// The whole tag: header and frames, no padding.
    public var bytes: [UInt8] {
        let body = frames.flatMap { $0 }
        return Array("ID3".utf8) + [4, 0, 0] + Self.syncSafe(body.count) + body
    }

    // MARK: Encoding

    static let utf8Encoding: UInt8 = 3

    static func frame(_ id: String, _ body: [UInt8]) -> [UInt8] {
        precondition(id.utf8.count == 4, "ID3 frame ids have four characters")
        return Array(id.utf8) + syncSafe(body.count) + [0, 0] + body
    }

    static func tableOfContents(id: String, topLevel: Bool, children: [String]) -> [UInt8] {
        precondition(children.count <= 255, "a CTOC lists at most 255 entries")
        var body = Array(id.utf8) + [0]
        body.append((topLevel ? 0x02 : 0) | 0x01)  // top-level flag, ordered flag
        body.append(UInt8(children.count))
        for child in children { body += Array(child.utf8) + [0] }
        return frame("CTOC", body)
    }

    /// 28 bits in four bytes of 7 bits each, as ID3v2.4 sizes are stored.
    static func syncSafe(_ value: Int) -> [UInt8] {
        precondition(value < 1 << 28, "an ID3 tag holds at most 256 MiB")
        return [UInt8(value >> 21 & 0x7F), UInt8(value >> 14 & 0x7F), UInt8(value >> 7 & 0x7F), UInt8(value & 0x7F)]
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
