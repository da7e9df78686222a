import Foundation
import NarrationTestSupport
import Testing

/// `narrate chunks` reads each chunk file's header and size and marks a file cut short, one
/// replaced by audio of another format, one that is no WAV at all, and a missing one.
@Suite("narrate chunks notices damaged chunk files")
struct ChunkFileProblemTests {
    @Test("a truncated file, a 48 kHz stereo file, a text file and a missing file are marked, each with its fix; the listing is not an error")
    func marksEachProblem() throws {
        let fixture = try EndToEndFixture()
        _ = try fixture.newArticle("Damaged")
        for _ in 0..<5 { #expect(try fixture.record(1).status == 0) }
        let files = try fixture.chunks().map { $0["file"] as! String }
        // 44 header bytes and 0.5 s of 44.1 kHz mono 16-bit: half of a 1 s take.
        _ = try Signals.run("truncate", ["-s", "\(44 + 22_050 * 2)", files[0]])
        _ = try Signals.run("sox", ["-n", "-r", "48000", "-c", "2", "-b", "16", files[1], "synth", "1", "sine", "440"])
        try Data("not audio at all, but long enough to hold a WAV header's 44 bytes".utf8).write(to: URL(fileURLWithPath: files[3]))
        try FileManager.default.removeItem(atPath: files[4])

        let listing = try fixture.narrate.run("chunks")
        #expect(listing.status == 0)
        let rows = listing.stdout.split(separator: "\n").map(String.init)
        #expect(rows.count == 8)
        #expect(rows[2].hasSuffix("  SHORT: 0.5 s of 1.0 s"))
        #expect(rows[3].hasSuffix("  OTHER FORMAT: 48000 Hz, stereo, 16-bit"))
        #expect(rows[4].hasSuffix("        0"))
        #expect(rows[5].hasSuffix("  UNREADABLE: not a WAV file"))
        #expect(rows[6].hasSuffix("  MISSING"))
        let usable = "the other chunks are usable. Delete it with \"narrate delete-chunk"
        #expect(listing.stderr == """
            Chunk 1's file \(files[0]) is cut short: it holds 00:00:00.500 of the 00:00:01.000 recorded; \(usable) 1" or re-record it with "narrate record --replace 1".
            Chunk 2's file \(files[1]) holds audio of another format (48000 Hz, stereo, 16-bit; the article is 44100 Hz, mono, 16-bit); \(usable) 2" or re-record it with "narrate record --replace 2".
            Chunk 4's file \(files[3]) cannot be read as one of its chunks (not a WAV file); \(usable) 4" or re-record it with "narrate record --replace 4".
            Chunk 5's file \(files[4]) is missing; \(usable) 5" or re-record it with "narrate record --replace 5".

            """)

        let json = try fixture.narrate.run("chunks", "--json")
        #expect(json.status == 0)
        let entries = try #require(try json.json() as? [[String: Any]])
        #expect(entries.map { $0["fileProblem"] as? String } == ["truncated", "otherFormat", nil, "unreadable", "missing"])
        #expect(entries[2]["fileProblem"] is NSNull)
        #expect(entries.map { $0["fileMissing"] as? Bool } == [false, false, false, false, true])

        #expect(try fixture.record(1, "--replace", "1").status == 0)
        #expect(try fixture.chunks().first?["fileProblem"] is NSNull)
    }
}
