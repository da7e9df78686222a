public import Foundation

/// What independent tools read in an exported file: ffprobe's chapters and stream, ffmpeg's
/// decoded frame count, mutagen's tags.
public enum MediaProbe {
    /// One chapter as ffprobe lists it.
    public struct Chapter: Equatable, CustomStringConvertible {
        /// The start in milliseconds (ffprobe's `start` in its `1/1000` time base).
        public let startMilliseconds: Int
        public let title: String

        public init(startMilliseconds: Int, title: String) {
            self.startMilliseconds = startMilliseconds
            self.title = title
        }

        public var description: String { "\(startMilliseconds) ms \"\(title)\"" }
    }

    /// `ffprobe -show_chapters`: each chapter's start (exact, in ms) and title.
    public static func chapters(_ file: URL) throws -> [Chapter] {
        let text = try Signals.run("ffprobe", ["-v", "error", "-show_chapters", "-of", "json", file.path])
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        let chapters = object?["chapters"] as? [[String: Any]] ?? []
        return try chapters.map { chapter in
            guard chapter["time_base"] as? String == "1/1000", let start = chapter["start"] as? Int else {
                throw FixtureError("ffprobe gave a chapter in another time base: \(chapter)")
            }
            return Chapter(startMilliseconds: start, title: (chapter["tags"] as? [String: String])?["title"] ?? "")
        }
    }

    /// The frames ffmpeg decodes the file to, at the stream's own rate (Opus: 48 kHz), with its
    /// decoder's handling of encoder delay and padding (pre-skip, end trimming).
    public static func decodedFrames(_ file: URL, channels: Int = 1) throws -> Int {
        let bytes = try Signals.run("sh", ["-c", "ffmpeg -v error -i \"$0\" -f s16le -acodec pcm_s16le - | wc -c", file.path])
        guard let count = Int(bytes.trimmingCharacters(in: .whitespacesAndNewlines)) else { throw FixtureError("wc said \(bytes)") }
        return count / (2 * channels)
    }

    /// The audio stream as ffprobe sees it: codec name and sample rate.
    public static func stream(_ file: URL) throws -> (codec: String, sampleRate: Int) {
        let text = try Signals.run(
            "ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries", "stream=codec_name,sample_rate", "-of", "json", file.path])
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        guard let stream = (object?["streams"] as? [[String: Any]])?.first, let codec = stream["codec_name"] as? String,
              let rate = (stream["sample_rate"] as? String).flatMap(Int.init)
        else { throw FixtureError("ffprobe found no audio stream in \(file.path): \(text)") }
        return (codec, rate)
    }

    /// Every Vorbis comment mutagen reads (FLAC, Ogg Vorbis, Ogg Opus), names lowercased, each
    /// name's values in order.
    public static func vorbisComments(_ file: URL) throws -> [String: [String]] {
        let script = """
            import json, sys, mutagen
            f = mutagen.File(sys.argv[1])
            tags = {}
            for name, value in f.tags:
                tags.setdefault(name.lower(), []).append(value)
            print(json.dumps(tags))
            """
        let text = try Signals.run("/usr/bin/python3", ["-c", script, file.path])
        guard let tags = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: [String]] else {
            throw FixtureError("mutagen gave \(text)")
        }
        return tags
    }
}
