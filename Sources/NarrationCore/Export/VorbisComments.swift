/// The Vorbis comments of a FLAC export: the tags, and the chapters in the `CHAPTERxxx` form.
///
/// The chapter form is the one OGM introduced and Matroska's tools, foobar2000, mutagen and
/// ffmpeg read from Vorbis comments: `CHAPTER001=00:00:00.000` (the start, `HH:MM:SS.mmm`) and
/// `CHAPTER001NAME=Title`, numbered from 001 in order. ffmpeg (`ogm_chapter` in
/// libavformat/oggparsevorbis.c, used by its FLAC and Ogg demuxers) reads the number with
/// `%03d` and takes a key of at most 10 characters as a start, so 999 chapters is the most it
/// sees: an article with more gets its first 999, and `chapterCount` says so. There is no end
/// time in this form: a chapter ends where the next begins, the last at the end of the file.
public struct VorbisComments: Sendable, Equatable {
    /// The most chapters players read in this form (three digits).
    public static let maximumChapters = 999

    /// Field names and values in order: TITLE, ARTIST, ALBUM, DATE, GENRE, COMMENT,
    /// NARRATE_ARTICLE_ID, then the chapters. Empty tags are left out.
    public let fields: [(name: String, value: String)]
    /// How many chapters `fields` holds.
    public let chapterCount: Int

    /// The comments for `plan`, with its chapters when `chapters` is true.
    public init(plan: ExportPlan, chapters: Bool) {
        let tags = plan.tags
        var fields: [(name: String, value: String)] = [
            ("TITLE", tags.title), ("ARTIST", tags.narrator), ("ALBUM", tags.publication), ("DATE", tags.date),
            ("GENRE", tags.genre), ("COMMENT", tags.comment), ("NARRATE_ARTICLE_ID", tags.articleID),
        ].filter { !$0.1.isEmpty }
        let written = chapters ? Array(plan.chapters.prefix(Self.maximumChapters)) : []
        for (position, chapter) in written.enumerated() {
            let key = Self.chapterKey(position + 1)
            let start = Timecode.milliseconds(frames: chapter.startFrame, rate: plan.format.sampleRate)
            fields.append((key, Timecode.precise(milliseconds: start)))
            fields.append((key + "NAME", chapter.title))
        }
        self.fields = fields
        chapterCount = written.count
    }

    /// "CHAPTER001" for 1.
    static func chapterKey(_ number: Int) -> String {
        let digits = String(number)
        return "CHAPTER" + String(repeating: "0", count: max(0, 3 - digits.count)) + digits
    }

    public static func == (lhs: VorbisComments, rhs: VorbisComments) -> Bool {
        lhs.chapterCount == rhs.chapterCount && lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }
}
