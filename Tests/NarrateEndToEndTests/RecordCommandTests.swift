import Foundation
import NarrationAudio
import NarrationCore
import NarrationTestSupport
import Testing

@Suite("narrate new, list, record, chunks and delete-chunk")
struct RecordCommandTests {
    @Test("recorded chunks equal the microphone's samples, for several durations and five cycles in a row")
    func bitExact() throws {
        let fixture = try EndToEndFixture()
        let id = try fixture.newArticle("Council votes", "--publication", "Daily Post", "--narrator", "Ann Lee")
        let durations = [0.5, 1.0, 2.3456, 0.001, 1.5]
        for seconds in durations {
            let result = try fixture.record(seconds)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("Chunk "))
        }
        let chunks = try fixture.chunks()
        #expect(chunks.map { $0["frames"] as? Int } == durations.map { AudioFormat.speech.frames(forSeconds: $0) })
        #expect(chunks.map { $0["index"] as? Int } == [1, 2, 3, 4, 5])
        for chunk in chunks {
            let file = try #require(chunk["file"] as? String)
            #expect(file.hasPrefix(fixture.narrate.home.path + "/articles/\(id)/chunks/"))
            #expect(chunk["recovered"] as? Bool == false)
            #expect(chunk["sampleRate"] as? Int == 44_100 && chunk["channels"] as? Int == 1)
            let frames = try #require(chunk["frames"] as? Int)
            #expect(abs((chunk["duration"] as? Double ?? 0) - Double(frames) / 44_100) < 1e-9)
            #expect(try SoundFileReader(path: file).readAll() == fixture.sourceSamples(frames: frames))
        }
        let list = try #require(try fixture.narrate.run("list", "--json").json() as? [[String: Any]])
        #expect(list.count == 1)
        #expect(list[0]["id"] as? String == id && list[0]["chunks"] as? Int == 5 && list[0]["current"] as? Bool == true)
        #expect(list[0]["publication"] as? String == "Daily Post" && list[0]["narrator"] as? String == "Ann Lee")
    }

    @Test("delete-chunk, --replace and --insert reorder as asked, by the chunks' lengths")
    func edits() throws {
        let fixture = try EndToEndFixture()
        _ = try fixture.newArticle()
        for tenths in 1...3 { try fixture.record(Double(tenths) / 10) }  // A B C
        let lengths = { try fixture.chunks().map { ($0["frames"] as? Int ?? 0) / 4_410 } }
        #expect(try fixture.narrate.run("delete-chunk", "1").stdout == "Deleted chunk 1 of \"An article\" (00:00:00.100); 2 chunks left.\n")
        #expect(try lengths() == [2, 3])
        let replaced = try fixture.record(0.4, "--replace", "2")
        #expect(replaced.stdout.hasPrefix("Chunk 2 re-recorded: 00:00:00.400"))
        #expect(try lengths() == [2, 4])
        #expect(try fixture.record(0.5, "--insert", "1").stdout.hasPrefix("Chunk 1 recorded"))
        #expect(try lengths() == [5, 2, 4])
    }

    @Test("the current article follows new and --article; a unique id prefix is enough")
    func currentArticle() throws {
        let fixture = try EndToEndFixture()
        let first = try fixture.newArticle("First")
        let second = try fixture.newArticle("Second")
        try fixture.record(0.1)
        try fixture.record(0.2, "--article", String(first.prefix(first.count - 1)))
        #expect(try fixture.chunks("--article", second).count == 1)
        #expect(try fixture.chunks().first?["frames"] as? Int == 8_820)  // the article last used is current
        let listing = try fixture.narrate.run("list").stdout
        #expect(listing.contains("* \(first)"))
    }

    @Test("a -6 dBFS sine is reported at peak -6.0 and RMS -9.0 dBFS")
    func metering() throws {
        let fixture = try EndToEndFixture(source: Signals.sine(frequency: 1_000, peakDBFS: -6, seconds: 2))
        _ = try fixture.newArticle()
        let result = try fixture.record(1.5)
        #expect(result.stdout == "Chunk 1 recorded: 00:00:01.500, peak -6.0 dBFS, RMS -9.0 dBFS, no overruns.\n")
        let chunk = try #require(try fixture.chunks().first)
        #expect(abs((chunk["peakDBFS"] as? Double ?? 0) - -6.0) <= 0.1)
        #expect(abs((chunk["rmsDBFS"] as? Double ?? 0) - -9.0) <= 0.1)
    }

    @Test("--help teaches the commands and their options")
    func help() throws {
        let fixture = try EndToEndFixture()
        let top = try fixture.narrate.run("--help")
        #expect(top.status == 0)
        for command in ["new", "list", "record", "chunks", "delete-chunk", "devices"] { #expect(top.stdout.contains("  \(command)")) }
        let record = try fixture.narrate.run("record", "--help").stdout
        for option in ["--duration", "--start-after", "--replace", "--insert", "--device", "--progress", "--json"] {
            #expect(record.contains(option))
        }
    }
}
