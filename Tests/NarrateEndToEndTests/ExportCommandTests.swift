import Foundation
import NarrationAudio
import NarrationCore
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

    @Test("each take is measured right after it, in a process of its own, and its measure kept beside its chunk for mastering")
    func measuredAfterTheTake() throws {
        let fixture = try EndToEndFixture()
        _ = try fixture.newArticle("Budget vote")
        for seconds in [0.5, 0.25] { try fixture.record(seconds) }
        let catalog = fixture.narrate.home.appendingPathComponent("catalog.sqlite").path
        let count = { () throws -> String in
            try Signals.run("python3", ["-c", "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT count(*), sum(length(data)) FROM chunkMeasure').fetchone())", catalog])
        }
        var stored = try count()
        for _ in 0..<100 where !stored.hasPrefix("(2,") {
            Thread.sleep(forTimeInterval: 0.1)
            stored = try count()
        }
        // 5 + 3 windows of 4 floats, a header of 13 bytes and a run count of 4 each.
        #expect(stored.trimmingCharacters(in: .whitespacesAndNewlines) == "(2, \(2 * (13 + 4) + 16 * 8))")
        let podcast = fixture.folder.file("vote.mp3")
        let result = try fixture.narrate.run("export", "-o", podcast.path, "--profile", "podcast")
        #expect(result.status == 0, "\(result.stderr)")
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

    /// An article "Budget vote" of chunks of 0.5, 0.25 and 0.4 s (22050, 11025, 17640 frames).
    private func threeChunks(_ fixture: EndToEndFixture) throws -> String {
        let id = try fixture.newArticle("Budget vote", "--publication", "Daily Post", "--narrator", "Ann Lee")
        for seconds in [0.5, 0.25, 0.4] { try fixture.record(seconds) }
        return id
    }

    @Test("each format says the chapters its file holds, in words and in --json", arguments: [
        ("flac", "flac", 3, ", 3 chapters, "),
        ("mp3", "mp3", 3, ", 3 chapters, "),
        ("wav", "wav", 0, ", no chapters (WAV files hold none), "),
        ("ogg", "ogg", 0, ", no chapters (Ogg Vorbis files hold none), "),
        ("opus", "opus", 3, ", 3 chapters, "),
    ])
    func chapterCounts(ending: String, format: String, chapters: Int, words: String) throws {
        let fixture = try EndToEndFixture()
        _ = try threeChunks(fixture)
        let file = fixture.folder.file("budget.\(ending)")
        let text = try fixture.narrate.run("export", "-o", file.path)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.hasPrefix("Exported \"Budget vote\" to \(file.path): 00:00:01.150, 3 chunks\(words)"), "\(text.stdout)")
        #expect(try MediaProbe.chapters(file).count == chapters)
        let json = try #require(try fixture.narrate.run("export", "-o", file.path, "--json").json() as? [String: Any])
        #expect(json["format"] as? String == format && json["chapters"] as? Int == chapters && json["frames"] as? Int == 50_715)
        let none = try #require(try fixture.narrate.run("export", "-o", file.path, "--no-chapters", "--json").json() as? [String: Any])
        #expect(none["chapters"] as? Int == 0)
        #expect(try MediaProbe.chapters(file).isEmpty)
    }

    @Test("-o x.ogg writes Ogg Vorbis and -o x.opus Ogg Opus, tagged; --format ogg|opus names them too")
    func oggAndOpus() throws {
        let fixture = try EndToEndFixture()
        _ = try threeChunks(fixture)
        let ogg = fixture.folder.file("budget.ogg")
        #expect(try fixture.narrate.run("export", "-o", ogg.path).status == 0)
        #expect(try MediaProbe.stream(ogg) == ("vorbis", 44_100))
        #expect(try MediaProbe.decodedFrames(ogg) == 50_715)
        let opus = fixture.folder.file("budget.opus")
        #expect(try fixture.narrate.run("export", "-o", opus.path, "--format", "opus").status == 0)
        #expect(try MediaProbe.stream(opus) == ("opus", 48_000))
        #expect(try MediaProbe.decodedFrames(opus) == 55_200)  // 50715 × 48000 / 44100
        let tags = try MediaProbe.vorbisComments(opus)
        #expect(tags["title"] == ["Budget vote"] && tags["artist"] == ["Ann Lee"] && tags["album"] == ["Daily Post"] && tags["genre"] == ["Speech"])
        let unnamed = fixture.folder.file("budget-vorbis")
        #expect(try fixture.narrate.run("export", "-o", unnamed.path, "--format", "ogg").status == 0)
        #expect(try MediaProbe.stream(unnamed).codec == "vorbis")
    }

    @Test("export masters with config.toml's profile as queue and submit do; --profile archive keeps the samples untouched")
    func configuredProfile() throws {
        let fixture = try EndToEndFixture()
        _ = try threeChunks(fixture)
        let plain = fixture.folder.file("plain.flac")
        let untouched = try fixture.narrate.run("export", "-o", plain.path, "--json")
        #expect((try untouched.json() as? [String: Any])?["profile"] as? String == "archive")
        let house = try fixture.narrate(config: "profile = \"podcast\"\n")

        let mastered = fixture.folder.file("house.flac")
        let result = try house.run("export", "-o", mastered.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("KiB (podcast profile).\n"), "\(result.stdout)")
        let check = try #require(try house.run("check", mastered.path, "--json").json() as? [String: Any])
        let loudness = try #require(check["integratedLoudness"] as? Double)
        #expect(abs(loudness - -19) <= 1, "the podcast profile's -19 LUFS, measured \(loudness)")
        #expect(try house.run("check", mastered.path, "--profile", "podcast").status == 0)

        let archive = fixture.folder.file("archive.flac")
        let kept = try house.run("export", "-o", archive.path, "--profile", "archive")
        #expect(kept.stdout.contains("KiB (archive profile: samples untouched).\n"), "\(kept.stdout)")
        #expect(try SoundFileReader(path: archive.path).readAll() == SoundFileReader(path: plain.path).readAll())
        #expect(try SoundFileReader(path: mastered.path).readAll() != SoundFileReader(path: plain.path).readAll())
    }

    @Test("a file name without an ending is refused unless --format names the format; nothing is written")
    func noEnding() throws {
        let fixture = try EndToEndFixture()
        _ = try threeChunks(fixture)
        let before = try fixture.recordings()
        let bare = fixture.folder.file("budget")
        let refused = try fixture.narrate.run("export", "-o", bare.path)
        #expect(refused.status == 64)
        #expect(refused.stderr.hasPrefix("Error: \"budget\" has no ending to say its format: name it budget.mp3 (or .mp3, .wav, .flac, .ogg, .opus, .epub), or give --format.\n"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: bare.path))
        #expect(try fixture.recordings() == before)
        #expect(try fixture.narrate.run("export", "-o", bare.path, "--format", "flac").status == 0)
        #expect(try MediaProbe.stream(bare).codec == "flac")
    }

    @Test("--profile archive keeps an Opus export's samples untouched; --profile podcast masters an Ogg Vorbis one")
    func profiles() throws {
        let fixture = try EndToEndFixture()
        _ = try threeChunks(fixture)
        let archive = fixture.folder.file("archive.opus")
        let untouched = try #require(try fixture.narrate.run("export", "-o", archive.path, "--profile", "archive", "--json").json() as? [String: Any])
        #expect(untouched["format"] as? String == "opus" && untouched["frames"] as? Int == 50_715)
        let podcast = fixture.folder.file("podcast.ogg")
        let mastered = try fixture.narrate.run("export", "-o", podcast.path, "--profile", "podcast")
        #expect(mastered.status == 0, "\(mastered.stderr)")
        let check = try fixture.narrate.run("check", podcast.path, "--profile", "podcast")
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    @Test("an ending and --format that disagree are refused in one sentence naming both, and nothing is written", arguments: [
        ("x.ogg", "opus", "\"x.ogg\" ends in .ogg but --format asks for opus: name the file .opus, or leave out --format."),
        ("x.opus", "ogg", "\"x.opus\" ends in .opus but --format asks for ogg: name the file .ogg, or leave out --format."),
        ("x.flac", "opus", "\"x.flac\" ends in .flac but --format asks for opus: name the file .opus, or leave out --format."),
        ("x.oga", nil, "\"x.oga\" ends in .oga, a format narrate does not write: name the file .mp3, .wav, .flac, .ogg, .opus, .epub, or give --format."),
    ] as [(String, String?, String)])
    func refusals(name: String, format: String?, sentence: String) throws {
        let fixture = try EndToEndFixture()
        _ = try threeChunks(fixture)
        let file = fixture.folder.file(name)
        let result = try fixture.narrate.run(["export", "-o", file.path] + (format.map { ["--format", $0] } ?? []))
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: \(sentence)\n"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test("--from 2 --to 3: the file holds exactly chunks 2 and 3; chapters and transcript cues start at 0")
    func range() throws {
        let fixture = try EndToEndFixture()
        let id = try fixture.newArticle("Budget vote", "--publication", "Daily Post")
        try fixture.attachText([
            ScriptParagraph(kind: .paragraph, text: "The council met on Tuesday."),
            ScriptParagraph(kind: .paragraph, text: "It adopted the budget."),
            ScriptParagraph(kind: .paragraph, text: "The mayor was relieved."),
        ], to: id)
        for seconds in [0.5, 0.25, 0.4] { #expect(try fixture.record(seconds).status == 0) }
        let flac = fixture.folder.file("part.flac")
        let result = try fixture.narrate.run("export", "-o", flac.path, "--from", "2", "--to", "3", "--transcript", "vtt")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Exported chunks 2–3 of \"Budget vote\" to \(flac.path): 00:00:00.650, 2 chunks, 2 chapters, "), "\(result.stdout)")
        let chosen = fixture.sourceSamples(frames: 11_025) + fixture.sourceSamples(frames: 17_640)  // each take starts the source anew
        #expect(try SoundFileReader(path: flac.path).readAll() == chosen)
        #expect(try MediaProbe.chapters(flac) == [
            MediaProbe.Chapter(startMilliseconds: 0, title: "It adopted the budget."),
            MediaProbe.Chapter(startMilliseconds: 250, title: "The mayor was relieved."),
        ])
        let vtt = try String(contentsOf: fixture.folder.file("part.vtt"), encoding: .utf8)
        #expect(vtt.contains("00:00:00.000 --> 00:00:00.250\nIt adopted the budget."), "\(vtt)")
        #expect(vtt.contains("00:00:00.250 --> 00:00:00.650\nThe mayor was relieved."), "\(vtt)")
        #expect(!vtt.contains("Tuesday"))

        let wav = fixture.folder.file("first.wav")
        let json = try #require(try fixture.narrate.run("export", "-o", wav.path, "--to", "1", "--json").json() as? [String: Any])
        #expect(json["frames"] as? Int == 22_050 && json["firstChunk"] as? Int == 1 && json["lastChunk"] as? Int == 1 && json["chapters"] as? Int == 0)
        #expect(try SoundFileReader(path: wav.path).frames == 22_050)
    }

    @Test("bounds outside the article or reversed are refused naming them and the chunk count, exit 64, nothing written", arguments: [
        (["--from", "4"], "--from 4 is past the last chunk: \"Budget vote\" has 3 chunks; give --from and --to from 1 to 3 (see \"narrate chunks\")."),
        (["--from", "2", "--to", "7"], "--to 7 is past the last chunk: \"Budget vote\" has 3 chunks; give --from and --to from 1 to 3 (see \"narrate chunks\")."),
        (["--from", "3", "--to", "2"], "--from 3 comes after --to 2 (\"Budget vote\" has 3 chunks): give the first chunk first, e.g. --from 2 --to 3."),
        (["--from", "0"], "Error: --from 0 is not a chunk: chunks are numbered from 1 (see \"narrate chunks\")."),
        (["--to", "-2"], "Error: --to -2 is not a chunk: chunks are numbered from 1 (see \"narrate chunks\")."),
    ])
    func badRanges(bounds: [String], sentence: String) throws {
        let fixture = try EndToEndFixture()
        _ = try threeChunks(fixture)
        let file = fixture.folder.file("never.flac")
        let result = try fixture.narrate.run(["export", "-o", file.path] + bounds)
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix(sentence + "\n"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.folder.url.path).allSatisfy { !$0.contains("narrate-partial") })
    }
}
