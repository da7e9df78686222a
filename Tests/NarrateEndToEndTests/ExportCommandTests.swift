import Foundation
import NarrationAudio
import NarrationTestSupport
import Testing

@Suite("narrate export")
struct ExportCommandTests {
    @Test("exports in the format the extension names, and says what it wrote")
    func export() throws {
        let fixture = try EndToEndFixture()
        _ = try fixture.newArticle("Budget vote", "--publication", "Daily Post")
        for seconds in [0.5, 0.25] { try fixture.record(seconds) }
        let flac = fixture.folder.file("budget.flac")
        let result = try fixture.narrate.run("export", "-o", flac.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Exported \"Budget vote\" to \(flac.path): 00:00:00.750, 2 chunks, "))
        #expect(try SoundFileReader(path: flac.path).readAll() == fixture.sourceSamples(frames: 22_050) + fixture.sourceSamples(frames: 11_025))

        let mp3 = fixture.folder.file("budget.mp3")
        let json = try #require(try fixture.narrate.run("export", "-o", mp3.path, "--bitrate", "64", "--json").json() as? [String: Any])
        #expect(json["format"] as? String == "mp3" && json["frames"] as? Int == 33_075 && json["chapters"] as? Int == 2)
        #expect(try SoundFileReader(path: mp3.path).frames == 33_075)
    }

    @Test("bad input: no chunks, low bitrate, both --bitrate and --vbr, a folder as output, a missing folder")
    func badInput() throws {
        let fixture = try EndToEndFixture()
        _ = try fixture.newArticle("Nothing")
        let empty = try fixture.narrate.run("export", "-o", fixture.folder.file("x.mp3").path)
        #expect(empty.status == 1)
        #expect(empty.stderr == "\"Nothing\" has no chunks yet, so there is nothing to export. Record one with \"narrate record\".\n")
        try fixture.record(0.2)
        let low = try fixture.narrate.run("export", "-o", fixture.folder.file("x.mp3").path, "--bitrate", "32")
        #expect(low.status == 64)
        #expect(low.stderr == "32 kbit/s is too low for 44100 Hz mono: LAME would resample it and drop the information gapless players need. Use at least 56 kbit/s.\n")
        let both = try fixture.narrate.run("export", "-o", "x.mp3", "--bitrate", "64", "--vbr", "2")
        #expect(both.status == 64 && both.stderr.hasPrefix("Error: Use --bitrate or --vbr, not both."))
        let folder = try fixture.narrate.run("export", "-o", fixture.folder.url.path)
        #expect(folder.status == 64 && folder.stderr.hasPrefix("\(fixture.folder.url.path) is a folder; give the file to write"))
        let missing = try fixture.narrate.run("export", "-o", fixture.folder.file("no/such/x.flac").path)
        #expect(missing.status == 1)
        #expect(missing.stderr == "The folder \(fixture.folder.file("no/such").path) does not exist; create it or export somewhere else.\n")
        #expect(!FileManager.default.fileExists(atPath: fixture.folder.file("x.mp3").path))
    }
}
