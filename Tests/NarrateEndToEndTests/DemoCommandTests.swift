import Foundation
import NarrationAudio
import NarrationTestSupport
import Testing

@Suite("narrate demo")
struct DemoCommandTests {
    /// The speech built into the binary, read from the source tree.
    static func paragraph(_ number: Int) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/narrate/DemoSpeech/paragraph-\(number).ogg")
    }

    @Test("records the built-in speech sample for sample, plays it, queues a tagged MP3 with 3 chapters, and says where")
    func wholePipeline() throws {
        let fixture = try EndToEndFixture()
        let folder = fixture.folder.file("demo")
        let result = try fixture.narrate.run("demo", "--folder", folder.path, "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try result.json() as? [String: Any])

        // Each chunk holds exactly the samples of its paragraph's recording, decoded independently here.
        let chunks = try #require(report["chunks"] as? [[String: Any]])
        #expect(chunks.count == 3)
        var joined: [Int32] = []
        for (offset, chunk) in chunks.enumerated() {
            let spoken = try SoundFileReader(path: Self.paragraph(offset + 1).path).readAll().map { ($0 >> 16) << 16 }  // to 16 bits, as the microphone gives them
            let recorded = try SoundFileReader(path: try #require(chunk["file"] as? String)).readAll()
            #expect(recorded.count > 44_100 * 4, "a paragraph lasts over 4 s")
            #expect(recorded == spoken, "chunk \(offset + 1) equals paragraph \(offset + 1)")
            joined += recorded
        }

        // The speaker got the three chunks joined, with nothing between them.
        let speaker = try Data(contentsOf: URL(fileURLWithPath: try #require(report["speakerFile"] as? String)))
        #expect(Signals.samples(Array(speaker), bitsPerSample: 16) == joined)
        #expect(report["playedFrames"] as? Int == joined.count)

        // The MP3 in the outbox: exactly as long as the chunks, tagged and chaptered as mutagen reads it.
        let outbox = try #require(report["outbox"] as? [String: Any])
        let mp3 = try #require(outbox["file"] as? String)
        #expect(mp3.hasPrefix(folder.appendingPathComponent("outbox").path + "/") && mp3.hasSuffix(".mp3"))
        #expect(try SoundFileReader(path: mp3).frames == joined.count)
        let script = """
            import json, sys, mutagen.id3 as m
            t = m.ID3(sys.argv[1])
            print(json.dumps([str(t["TIT2"]), str(t["TPE1"]), str(t["TALB"]), len(t.getall("CHAP"))]))
            """
        let tags = try Signals.run("/usr/bin/python3", ["-c", script, mp3])
        #expect(tags.trimmingCharacters(in: .whitespacesAndNewlines) == #"["How narrate works", "espeak-ng", "narrate demo", 3]"#)
        let check = try #require(report["check"] as? [String: Any])
        #expect(abs((check["loudnessLUFS"] as? Double ?? 0) - -19) <= 0.5, "the podcast profile's −19 LUFS")
        #expect((check["verdict"] as? String)?.hasSuffix(": meets the podcast profile.") == true)

        // The demo's library is a library like any other; the article is queued.
        let demoLibrary = Narrate(home: folder, environment: fixture.devices.environment)
        let list = try #require(try demoLibrary.run("list", "--json").json() as? [[String: Any]])
        #expect(list.count == 1 && list.first?["state"] as? String == "queued" && list.first?["title"] as? String == "How narrate works")
        // The volunteer's own library was not touched.
        #expect(!FileManager.default.fileExists(atPath: fixture.narrate.home.appendingPathComponent("catalog.sqlite").path))
    }

    @Test("the human report says what each step did and where the file is; a used folder is refused and left as it was")
    func reportAndUsedFolder() throws {
        let fixture = try EndToEndFixture()
        let folder = fixture.folder.file("demo")
        let result = try fixture.narrate.run("demo", "--folder", folder.path)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "narrate demo: the whole pipeline on virtual devices, in \(folder.path)")
        for step in ["1. Started the article \"How narrate works\"", "2. Recorded 3 chunks", "3. Played chunks 1–3 to a virtual speaker",
                     "4. Queued one tagged MP3 (podcast profile, 128 kbit/s", "5. Checked it: it decodes to exactly the chunks'"] {
            #expect(lines.contains { $0.hasPrefix(step) }, "\(step)")
        }
        #expect(lines.contains { $0.hasPrefix("     \(folder.path)/outbox/") && $0.contains("/How narrate works-") && $0.hasSuffix(".mp3") })
        #expect(lines.contains("   Each chunk holds exactly the samples the microphone gave."))

        let before = try FileManager.default.subpathsOfDirectory(atPath: folder.path).sorted()
        let again = try fixture.narrate.run("demo", "--folder", folder.path)
        #expect(again.status == 64)
        #expect(again.stderr == "\(folder.path) already holds a narrate library; give the demo an empty or new folder.\n")
        #expect(try FileManager.default.subpathsOfDirectory(atPath: folder.path).sorted() == before)
    }
}
