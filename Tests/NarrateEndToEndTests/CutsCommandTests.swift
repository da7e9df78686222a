import Foundation
import NarrationAudio
import NarrationTestSupport
import Testing

/// `narrate cuts` through the binary: a take with a restart recorded from the virtual microphone,
/// the restart found by the take check, the cut accepted, and undo.
@Suite("narrate cuts")
struct CutsCommandTests {
    static let paragraph = "The town council met on Tuesday evening to debate a plan for the river. Supporters say the wall would protect hundreds of homes from the floods."
    static let sentences = [
        "The town council met on Tuesday evening to debate a plan for the river.",
        "Supporters say the wall would protect hundreds of homes from the floods.",
    ]

    @Test("a take with a restart: the cut found, accepted as one edit, the take then the take without the restart, and undo brings the old bytes back")
    func restartCut() throws {
        let fixture = try EndToEndFixture()
        let text = fixture.folder.file("news.txt")
        try Self.paragraph.write(to: text, atomically: true, encoding: .utf8)
        _ = try fixture.newArticle("News", "--text", text.path)

        // The first sentence, the second's first four words and a pause, then the second whole.
        let first = try Signals.spoken(Self.sentences[0])
        let pause = [UInt8](repeating: 0, count: 2 * 13_230)
        let attempt = try Signals.spoken("Supporters say the wall would") + pause + (try Signals.spoken("sorry")) + pause
        let second = try Signals.spoken(Self.sentences[1])
        try fixture.devices.setMicrophoneInput(first + attempt + second)
        let takeFrames = (first.count + attempt.count + second.count) / 2
        #expect(try fixture.record(Double(takeFrames) / 44_100).status == 0)
        #expect(try fixture.narrate.run("script", "--check").status == 0)

        let listed = try fixture.narrate.run("cuts", "--json")
        #expect(listed.status == 0, "\(listed.stderr)")
        let cuts = try #require((try listed.json() as? [String: Any])?["cuts"] as? [[String: Any]])
        #expect(cuts.count == 1)
        let cut = try #require(cuts.first)
        let startFrame = try #require(cut["startFrame"] as? Int), endFrame = try #require(cut["endFrame"] as? Int)
        // The cut runs from the pause before the first attempt to the pause before the second,
        // each edge within 150 ms of where the attempt was put in.
        let trueStart = first.count / 2, trueEnd = (first.count + attempt.count) / 2
        #expect(abs(startFrame - trueStart) <= 6_615 && abs(endFrame - trueEnd) <= 6_615, "cut \(startFrame)–\(endFrame), true \(trueStart)–\(trueEnd)")
        #expect(cut["words"] as? String == "supporters say the wall would")
        // "sorry" is not among the article's words, which are all the recogniser listens for.
        #expect(cut["aside"] as? String == "")
        let shown = try fixture.narrate.run("cuts").stdout
        #expect(shown.hasPrefix("1. chunk 1, paragraph 1: at "), "\(shown)")
        #expect(shown.contains("“supporters say the wall would” read twice: cut "), "\(shown)")

        let before = try fixture.recordings()
        #expect(before.count == 1)
        let refused = try fixture.narrate.run("cuts", "--accept", "2")
        #expect(refused.status == 64 && refused.stderr.contains("There is no cut 2: there is 1 cut"), "\(refused.stderr)")
        #expect(try fixture.recordings() == before)

        let accepted = try fixture.narrate.run("cuts", "--accept", "1")
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(accepted.stdout.hasPrefix("Cut 1 restart from chunk 1: "), "\(accepted.stdout)")
        #expect(try fixture.narrate.run("cuts").stdout == "No restarts found: no cut is proposed.\n")
        let after = try fixture.recordings()
        // The new take's file: not the old one, nor the old one's copy in the article's trash.
        let original = try #require(before.first)
        let originalName = URL(fileURLWithPath: original.key).lastPathComponent
        let newFile = try #require(after.keys.first { before[$0] == nil && URL(fileURLWithPath: $0).lastPathComponent != originalName })
        #expect(after.count == 2 && after.values.contains(original.value), "the old take waits in the trash")
        let reader = try SoundFileReader(path: newFile)
        defer { reader.close() }
        let result = try reader.readAll()
        // Exactly the cut's frames are gone; the first sentence up to the join and the whole
        // second sentence are the take's own samples; in between, 10 ms of pause crossfaded.
        #expect(result.count == takeFrames - (endFrame - startFrame))
        let take = Signals.samples(first + attempt + second, bitsPerSample: 16)
        let crossfade = 441
        #expect(result[..<(startFrame - crossfade)].elementsEqual(take[..<(startFrame - crossfade)]))
        let secondSamples = Signals.samples(second, bitsPerSample: 16)
        #expect(result.suffix(secondSamples.count).elementsEqual(secondSamples), "the second sentence is whole after the cut")
        let silenceBeforeSecond = secondSamples.firstIndex { $0 != 0 } ?? 0
        #expect(endFrame <= trueEnd + silenceBeforeSecond, "the cut ends before the second attempt's speech begins")
        // The take without the restart, sample for sample where both hold speech: the first
        // sentence's and the second's.
        let withoutRestart = Signals.samples(first + second, bitsPerSample: 16)
        let speechOfFirst = (Signals.samples(first, bitsPerSample: 16).lastIndex { $0 != 0 } ?? 0) + 1
        #expect(result[..<min(speechOfFirst, startFrame - crossfade)].elementsEqual(withoutRestart[..<min(speechOfFirst, startFrame - crossfade)]))
        #expect(abs(result.count - withoutRestart.count) <= 6_615, "\(result.count) frames against \(withoutRestart.count) without the restart")

        let history = try fixture.narrate.run("history").stdout
        #expect(history.contains("restart cut"), "\(history)")
        let undone = try fixture.narrate.run("undo")
        #expect(undone.status == 0, "\(undone.stderr)")
        let restored = try fixture.recordings()
        #expect(restored[original.key] == original.value, "undo brings back the take's own bytes")
        #expect(try fixture.chunks().map { $0["frames"] as? Int } == [takeFrames])
        // The take comes back with its check: the same cut is proposed again.
        let again = try #require((try fixture.narrate.run("cuts", "--json").json() as? [String: Any])?["cuts"] as? [[String: Any]])
        #expect(again.map { $0["startFrame"] as? Int } == [startFrame] && again.map { $0["endFrame"] as? Int } == [endFrame])
    }
}
