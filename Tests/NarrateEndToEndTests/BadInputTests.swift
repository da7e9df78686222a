import Foundation
import Glibc
import NarrationAudio
import NarrationTestSupport
import Testing

/// Each bad input: one sentence on stderr, a non-zero exit, every recording untouched.
@Suite("Bad input and faults on the command line")
struct BadInputTests {
    /// An article with two recorded chunks, and a snapshot of its files.
    private func fixtureWithChunks() throws -> (EndToEndFixture, String, [String: Data]) {
        let fixture = try EndToEndFixture()
        let id = try fixture.newArticle("Kept safe")
        try fixture.record(0.2)
        try fixture.record(0.3)
        // The tests below damage the catalog or the files; the takes' measuring, still running
        // in the background, would write into them (on CI, a catalog overwritten while that
        // process held it open answered "no current article" instead of "damaged").
        fixture.waitForBackgroundCommands()
        return (fixture, id, try fixture.recordings())
    }

    private func expectFailure(
        _ result: Narrate.Result, status: Int32 = 1, stderr expected: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status == status, "status", sourceLocation: sourceLocation)
        #expect(result.stderr == expected + "\n", sourceLocation: sourceLocation)
        #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("ALSA lib"), sourceLocation: sourceLocation)
    }

    @Test("no current article")
    func noCurrentArticle() throws {
        let fixture = try EndToEndFixture()
        for command in [["record", "--device", "vmic"], ["chunks"], ["delete-chunk", "1"]] {
            expectFailure(try fixture.narrate.run(command),
                stderr: "There is no current article. Start one with \"narrate new TITLE\" or pass --article ID.")
        }
    }

    @Test("unknown article id")
    func unknownArticle() throws {
        let (fixture, _, before) = try fixtureWithChunks()
        for id in ["zzzzzzzz", "not an id", "../../etc"] {
            expectFailure(try fixture.narrate.run("chunks", "--article", id),
                stderr: "No article has the id \"\(id)\". Run \"narrate list\" to see the articles.")
        }
        #expect(try fixture.recordings() == before)
    }

    @Test("chunk index out of range, for delete, re-record and insert")
    func indexOutOfRange() throws {
        let (fixture, _, before) = try fixtureWithChunks()
        let message = "There is no chunk 3: the article has 2 chunks (1–2). Run \"narrate chunks\" to see them."
        expectFailure(try fixture.narrate.run("delete-chunk", "3"), stderr: message)
        expectFailure(try fixture.record(0.1, "--replace", "3"), stderr: message)
        expectFailure(try fixture.record(0.1, "--insert", "3"), stderr: message)
        #expect(try fixture.recordings() == before)
        #expect(try fixture.chunks().count == 2)
    }

    @Test("a mistyped command is answered with the one it most likely meant, exit 64", arguments: [
        ("recrod", "record"), ("reocrd", "record"), ("qeue", "queue"), ("chunk", "chunks"), ("submt", "submit"),
    ])
    func mistypedCommand(typed: String, meant: String) throws {
        let fixture = try EndToEndFixture()
        let result = try fixture.narrate.run(typed)
        #expect(result.status == 64)
        #expect(result.stderr == "Error: There is no command \"\(typed)\". Did you mean \"\(meant)\"? (narrate --help lists them all.)\n")
        let unlike = try fixture.narrate.run("xyzzy")
        #expect(unlike.status == 64 && unlike.stderr.hasPrefix("Error: Unexpected argument 'xyzzy'"))
    }

    @Test("usage errors exit 64 with the fix")
    func usage() throws {
        let (fixture, _, before) = try fixtureWithChunks()
        let both = try fixture.narrate.run("record", "--replace", "1", "--insert", "1")
        #expect(both.status == 64)
        #expect(both.stderr.hasPrefix("Error: Use --replace or --insert, not both."))
        let rate = try fixture.narrate.run("new", "Bad rate", "--rate", "8000")
        #expect(rate.status == 64)
        #expect(rate.stderr.hasPrefix("Error: Sample rate 8000 Hz is not supported. Use one of 16000, 22050, 44100, 48000 Hz."))
        let duration = try fixture.narrate.run("record", "--duration", "-1")
        #expect(duration.status == 64)
        #expect(try fixture.recordings() == before)
    }

    @Test("a number that makes no sense is refused naming it, negative ones included", arguments: [
        (["record", "--duration", "-1"], "--duration -1 is not a length to record: give more than 0 and at most 86400 seconds."),
        (["record", "--duration", "0"], "--duration 0 is not a length to record: give more than 0 and at most 86400 seconds."),
        (["record", "--start-after", "-2.5"], "--start-after -2.5 is not a count-in: give 0 to 60 seconds."),
        (["record", "--replace", "-3"], "--replace -3 is not a chunk: chunks are numbered from 1 (see \"narrate chunks\")."),
        (["record", "--paragraph", "0"], "--paragraph 0 is not a paragraph: paragraphs are numbered from 1 (see \"narrate script\")."),
        (["play", "--from", "-1"], "--from -1 is not a chunk: chunks are numbered from 1 (see \"narrate chunks\")."),
        (["play", "--speed", "-0.5"], "--speed -0.5 is out of range: give 0.5 to 2.0."),
        (["submit", "--attempts", "-4"], "--attempts -4 is out of range: give 1 to 20."),
        (["new", "T", "--rate", "-44100"], "Sample rate -44100 Hz is not supported. Use one of 16000, 22050, 44100, 48000 Hz."),
        (["export", "-o", "x.mp3", "--bitrate", "-128"], "-128 kbit/s is not an MP3 bitrate. Use one of 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320."),
        (["record", "--duration", "abc"], "The value 'abc' is invalid for '--duration <S>'"),
        (["export", "-o", "x.m4a"], "\"x.m4a\" ends in .m4a, a format narrate does not write: name the file .mp3, .wav, .flac, .ogg, .opus, .epub, or give --format."),
        (["export", "-o", "x.flac", "--format", "mp3"], "\"x.flac\" ends in .flac but --format asks for mp3: name the file .mp3, or leave out --format."),
    ])
    func nonsenseNumbers(arguments: [String], sentence: String) throws {
        let (fixture, _, before) = try fixtureWithChunks()
        let result = try fixture.narrate.run(arguments)
        #expect(result.status == 64 || result.status == 1, "\(result.status)")
        #expect(result.stderr.contains(sentence), "\(result.stderr)")
        #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("Stack dump"))
        #expect(try fixture.recordings() == before)
    }

    @Test("no such device")
    func noSuchDevice() throws {
        let (fixture, _, before) = try fixtureWithChunks()
        expectFailure(try fixture.narrate.run("record", "--device", "usb-mic-that-is-not-there"),
            stderr: "Cannot open audio device \"usb-mic-that-is-not-there\": no such device. Run \"narrate devices\" to list devices.")
        #expect(try fixture.recordings() == before)
        #expect(try fixture.chunks().count == 2)
    }

    @Test("device busy")
    func deviceBusy() throws {
        let (fixture, _, before) = try fixtureWithChunks()
        try Data().write(to: fixture.devices.busyFile)
        expectFailure(try fixture.narrate.run("record", "--device", "usbmic"),
            stderr: "Audio device \"usbmic\" is busy: another program is using it. Close that program or choose another device with --device.")
        #expect(try fixture.recordings() == before)
    }

    @Test("a format the device cannot record, saying what it supports")
    func unsupportedFormat() throws {
        let fixture = try EndToEndFixture()
        _ = try fixture.newArticle("Stereo", "--channels", "2")
        expectFailure(try fixture.narrate.run("record", "--device", "usbmic"),
            stderr: "Audio device \"usbmic\" cannot record 2 channels; it supports 16-bit, 1 channel, 44100–48000 Hz. Create the article with a format the device supports (narrate new --rate/--channels/--bits) or choose another device.")
        #expect(try fixture.chunks().isEmpty)
    }

    @Test("a second recorder on the same article")
    func secondRecorder() throws {
        let (fixture, id, before) = try fixtureWithChunks()
        let first = try fixture.narrate.start(["record", "--device", "usbmic", "--progress", "json"])
        _ = first.waitForStderrLine { $0.contains("\"started\"") }
        let second = try fixture.narrate.run("record", "--device", "vmic", "--duration", "1")
        #expect(second.status == 1)
        #expect(second.stderr.hasPrefix("Article \"Kept safe\" (\(id)) is busy: another narrate command (process \(first.pid)) is recording into it. Stop that recording first."))
        #expect(try fixture.narrate.run("delete-chunk", "1").status == 1)
        first.signal(SIGINT)
        let ended = first.wait()
        #expect(ended.status == 0)
        #expect(try fixture.chunks().count == 3)
        for (path, data) in before { #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == data) }
    }

    @Test("a data root that cannot be written")
    func dataRootNotWritable() throws {
        let folder = TemporaryFolder()
        let blocker = folder.file("a-file")
        try Data("x".utf8).write(to: blocker)
        let narrate = Narrate(home: blocker.appendingPathComponent("narrate"))
        expectFailure(try narrate.run("list"),
            stderr: "Cannot write to the data folder \(blocker.path)/narrate (Not a directory). Make it writable or set NARRATE_HOME to a folder you can write.")
    }

    @Test("a corrupt catalog is named and the chunk files stay")
    func corruptCatalog() throws {
        let (fixture, _, before) = try fixtureWithChunks()
        let catalog = fixture.narrate.home.appendingPathComponent("catalog.sqlite")
        try Data(repeating: 0x42, count: 4_096).write(to: catalog)
        let result = try fixture.narrate.run("chunks")
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("The catalog \(catalog.path) is damaged ("))
        #expect(result.stderr.hasSuffix("No recording was changed; move the catalog aside to start a new one, the chunk files stay under the articles folder.\n"))
        #expect(try fixture.recordings() == before)
    }

    @Test("a missing chunk file is named; the other chunks stay usable")
    func missingChunkFile() throws {
        let (fixture, _, _) = try fixtureWithChunks()
        let chunks = try fixture.chunks()
        let missing = try #require(chunks[0]["file"] as? String)
        try FileManager.default.removeItem(atPath: missing)
        let result = try fixture.narrate.run("chunks", "--json")
        #expect(result.status == 0)
        #expect(result.stderr == "Chunk 1's file \(missing) is missing; the other chunks are usable. Delete it with \"narrate delete-chunk 1\" or re-record it with \"narrate record --replace 1\".\n")
        let listed = try #require(try result.json() as? [[String: Any]])
        #expect(listed.map { $0["fileMissing"] as? Bool } == [true, false])
        #expect(try fixture.record(0.1, "--replace", "1").status == 0)
        #expect(try fixture.narrate.run("chunks").stderr.isEmpty)
    }

    @Test("a pulled microphone stops the take, keeps it, and says so")
    func pulledMicrophone() throws {
        let (fixture, _, before) = try fixtureWithChunks()
        let running = try fixture.narrate.start(["record", "--device", "usbmic", "--progress", "json"])
        _ = running.waitForStderrLine { $0.contains("\"frames\":2") }
        try Data().write(to: fixture.devices.unplugFile)
        let result = running.wait()
        #expect(result.status == 1)
        let last = try #require(result.stderr.split(separator: "\n").last.map(String.init))
        #expect(last.hasPrefix("Audio device \"usbmic\" stopped working ("))
        #expect(last.contains("Check that it is still plugged in. Recording stopped; the 00:00:0"))
        #expect(last.hasSuffix("captured before that was kept as chunk 3."))
        #expect(result.stdout.hasPrefix("Chunk 3 recorded: "))
        #expect(try fixture.chunks().count == 3)
        for (path, data) in before { #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == data) }
    }

    @Test("a full disk stops the take, keeps it, and says so", .enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
    func diskFull() throws {
        let mount = try TemporaryMount(sizeKiB: 768)
        let fixture = try EndToEndFixture(source: Signals.speech(.speech, seconds: 12))
        let narrate = Narrate(home: mount.url.appendingPathComponent("home"), environment: fixture.devices.environment)
        #expect(try narrate.run("new", "Long read").status == 0)
        let result = try narrate.run("record", "--device", "vmic", "--duration", "11")
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("The disk holding \(mount.url.path)/home/articles/"))
        #expect(result.stderr.contains("/chunks is full (No space left on device). Recording stopped; the 00:00:0"))
        #expect(result.stderr.hasSuffix(" captured before that was kept as chunk 1.\n"))
        let chunks = try #require(try narrate.run("chunks", "--json").json() as? [[String: Any]])
        let frames = try #require(chunks.first?["frames"] as? Int)
        #expect(frames > 2 * 44_100)
        #expect(try SoundFileReader(path: chunks[0]["file"] as! String).readAll() == fixture.sourceSamples(frames: frames))
    }
}
