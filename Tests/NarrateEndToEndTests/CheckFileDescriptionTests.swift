import Foundation
import NarrationTestSupport
import Testing

/// `narrate check FILE` says how the file holds its sound: a lossy file by its bitrate, never
/// by the 32-bit width it is decoded to.
@Suite("check describes a file by its coding")
struct CheckFileDescriptionTests {
    @Test("an MP3 by its bitrate (constant or VBR), Vorbis by its mean rate, a WAV by its sample width", arguments: [
        (["-c:a", "libmp3lame", "-b:a", "128k"], "mp3", "MP3, 44100 Hz, mono, 128 kbit/s"),
        (["-c:a", "libmp3lame", "-q:a", "4"], "mp3", "MP3, 44100 Hz, mono, VBR, "),
        (["-c:a", "libvorbis", "-q:a", "2"], "ogg", "Ogg Vorbis, 44100 Hz, mono, about "),
        (["-c:a", "pcm_s24le"], "wav", "44100 Hz, mono, 24-bit"),
    ])
    func described(encoder: [String], suffix: String, expected: String) throws {
        let folder = TemporaryFolder("narrate-check-description")
        let narrate = Narrate(home: folder.file("home"))
        let wav = folder.file("tone.wav"), file = folder.file("file.\(suffix)")
        _ = try Signals.run("sox", ["-n", "-r", "44100", "-c", "1", "-b", "16", wav.path, "synth", "3", "pinknoise", "vol", "0.3"])
        _ = try Signals.run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-i", wav.path] + encoder + [file.path])
        let result = try narrate.run("check", file.path)
        #expect(result.status == 0, "\(result.stderr)")
        let first = try #require(result.stdout.split(separator: "\n").first.map(String.init))
        #expect(first.hasPrefix("file.\(suffix): 00:00:0"))
        #expect(first.contains(", \(expected)"), "\(first)")
        #expect(!first.contains("32-bit"))
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }
}
