public import Foundation
import NarrationAudio
public import NarrationCore

extension Analyzer {
    /// How an audio file from outside holds its sound, as `check` shows it: an integer coding by
    /// its sample width ("44100 Hz, mono, 16-bit"), a float one as float ("48000 Hz, stereo,
    /// 32-bit float"), a lossy one by its bitrate, never by the width libsndfile decodes it to:
    /// "MP3, 44100 Hz, mono, 128 kbit/s", "MP3, 44100 Hz, stereo, VBR, 97 kbit/s on average",
    /// "Ogg Vorbis, 22050 Hz, mono, about 64 kbit/s" (the file's bytes over its length).
    ///
    /// An MP3 is walked frame by frame first (`OutsideAudioFile`), so junk or a file cut short is
    /// refused here in a sentence, before libmpg123 could print its own lines about it.
    /// - Throws: `fileCorrupt` naming the file and what is wrong; the reader's errors.
    public static func describe(outsideFile url: URL) throws(NarrationError) -> String {
        let outside: OutsideAudioFile
        do throws(OutsideAudioFile.Problem) {
            outside = try OutsideAudioFile(url)
        } catch {
            throw NarrationError(.fileCorrupt, "\(url.path) \(error.what).", subject: .file(url.path))
        }
        let reader = try SoundFileReader(path: url.path)
        defer { reader.close() }
        let format = reader.format
        let layout = "\(format.sampleRate) Hz, \(format.channels == 1 ? "mono" : format.channels == 2 ? "stereo" : "\(format.channels) channels")"
        let encoding = reader.encoding
        if encoding.bitsPerSample != nil { return "\(layout), \(format.bitsPerSample)-bit" }
        if encoding.coding.hasSuffix("float") { return "\(layout), \(encoding.coding)" }
        if let mpeg = outside.mpeg { return "\(encoding.container), \(layout), \(mpeg.bitrate)" }
        let seconds = Double(reader.frames) / Double(max(1, format.sampleRate))
        let bytes = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? nil
        guard let bytes, seconds > 0, reader.frames < Int(Int32.max) * 16 else { return "\(encoding), \(layout)" }
        return "\(encoding), \(layout), about \(Int((Double(bytes) * 8 / seconds / 1_000).rounded())) kbit/s"
    }
}
