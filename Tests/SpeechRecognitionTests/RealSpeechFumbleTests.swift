import Foundation
import NarrationAudio
import NarrationCore
import SpeechRecognition
import Testing

/// Restarts in real recorded speech: three utterances of a LibriVox reader (Tests/Fixtures/librivox),
/// read as one paragraph, and takes made from them by splicing in a first attempt at the word
/// boundaries PocketSphinx's own test data gives for them (test/data/librivox/*.json in
/// cmusphinx/pocketsphinx, written here as numbers), so the frames of each fumble are known.
@Suite("Restarts found and cut in real speech")
struct RealSpeechFumbleTests {
    static let text = "He was not an ill disposed young man, unless to be rather cold hearted and rather selfish is to be ill disposed. He might even have been made amiable himself."
    static let rate = 16_000

    /// A take: its pieces, each (utterance, from seconds, to seconds), and which piece is the
    /// fumble; `firstAttempt` changes the fumble's pieces by sox's `tempo` and `pitch` (cents), so
    /// that the first attempt is not a copy of the second but slower or faster and higher or lower,
    /// as a reader's two attempts are.
    struct Made {
        var name: String
        var pieces: [(Int, Double, Double?)]
        var fumble: ClosedRange<Int>?
        var firstAttempt: (tempo: Double, cents: Int)? = nil
    }

    static let takes: [Made] = [
        Made(name: "read right", pieces: [(0, 0, nil), (1, 0, nil), (2, 0, nil)], fumble: nil),
        // "unless to be rather cold hearted", then from "unless" again (0.20 s: 70 ms before it).
        Made(name: "restart at the sentence's start", pieces: [(0, 0, nil), (1, 0, 0.20), (1, 0.20, 2.22), (1, 0.20, nil), (2, 0, nil)], fumble: 2...2),
        // "he might even have been", back to "even" (0.64 s, where "might" ends).
        Made(name: "restart within a sentence", pieces: [(0, 0, nil), (1, 0, nil), (2, 0, 0.64), (2, 0.64, 1.33), (2, 0.64, nil)], fumble: 3...3),
        // "he mi-" broken off in "might" (0.38–0.64 s), the pause before "he" again, then all of it.
        Made(name: "false start", pieces: [(0, 0, nil), (1, 0, nil), (2, 0.16, 0.52), (2, 0, nil)], fumble: 2...2),
        // The same restarts with a first attempt 12 % slower and 80 cents higher, and one 10 %
        // faster and 60 cents lower.
        Made(
            name: "restart at the sentence's start, first attempt slower and higher",
            pieces: [(0, 0, nil), (1, 0, 0.20), (1, 0.20, 2.22), (1, 0.20, nil), (2, 0, nil)], fumble: 2...2, firstAttempt: (0.88, 80)),
        Made(
            name: "restart within a sentence, first attempt faster and lower",
            pieces: [(0, 0, nil), (1, 0, nil), (2, 0, 0.64), (2, 0.64, 1.33), (2, 0.64, nil)], fumble: 3...3, firstAttempt: (1.1, -60)),
    ]

    /// `samples` through sox's `tempo` and `pitch` effects.
    static func altered(_ samples: [Float], tempo: Double, cents: Int) throws -> [Float] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("narrate-real-speech-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.f32"), output = folder.appendingPathComponent("out.f32")
        try samples.withUnsafeBufferPointer { try Data(buffer: $0).write(to: input) }
        let raw = ["-t", "f32", "-r", "\(rate)", "-c", "1"]
        try SyntheticArticle.run("sox", raw + [input.path] + raw + [output.path, "tempo", "-s", "\(tempo)", "pitch", "\(cents)"])
        let data = try Data(contentsOf: output)
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    @Test("restarts and a false start in a LibriVox reader's speech, first attempts as read and slower or faster, are found, edges within 150 ms; the right take has no cut")
    func realSpeech() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/librivox")
        let utterances = try ["0880", "0890", "0930"].map { number -> [Float] in
            let reader = try SoundFileReader(path: fixtures.appendingPathComponent("sense_and_sensibility_01_austen_64kb-\(number).flac").path)
            defer { reader.close() }
            return try reader.readAll().map { Float($0) / Float(Int32.max) }
        }
        let paragraph = ScriptParagraph(kind: .paragraph, text: Self.text)
        let checker = try TakeChecker(paragraphs: [paragraph], language: "en-US")
        defer { checker.close() }
        var total = FumbleScore.Tally()
        for made in Self.takes {
            var samples: [Float] = []
            var truth: Range<Int>?
            for (index, piece) in made.pieces.enumerated() {
                let source = utterances[piece.0]
                let from = Int(piece.1 * Double(Self.rate)), to = piece.2.map { Int($0 * Double(Self.rate)) } ?? source.count
                var audio = Array(source[from..<to])
                if made.fumble?.contains(index) == true {
                    if let change = made.firstAttempt { audio = try Self.altered(audio, tempo: change.tempo, cents: change.cents) }
                    truth = (truth?.lowerBound ?? samples.count)..<(samples.count + audio.count)
                }
                samples += audio
            }
            // The false start's pause is the utterance's own start, cut with the attempt.
            if made.name == "false start", let cut = truth { truth = cut.lowerBound..<(cut.upperBound + Int(0.16 * Double(Self.rate))) }
            let report = try checker.check(
                samples: samples, sampleRate: Self.rate, frames: SpeechFrames(cepstraOf: samples, sampleRate: Self.rate), paragraphIndex: 0,
                narratorMedianRate: nil)
            let tally = FumbleScore.score(truth: truth, cuts: report.cuts, sampleRate: Self.rate)
            total.add(tally)
            let truthText = truth.map { "\(two(Double($0.lowerBound) / 16000))–\(two(Double($0.upperBound) / 16000)) s" } ?? "-"
            print("real speech, \(made.name): truth \(truthText); \(report.cuts.map(\.description)); \(report.hints.map(\.description))")
        }
        print("real speech: \(total.line)")
        // Measured: all 5 found, every edge within 38 ms, the right take uncut. The false
        // start's second edge was 243 ms early, inside "mi-", until an attempt's onset became
        // the rise after a pause (`LevelEnvelope.attemptOnset`); the faster first attempt's
        // second edge, in speech with no pause, was 155 ms early until it was placed where the
        // two attempts' sound aligns (`RepeatedSpeech.alignedStart`).
        #expect(total.rightTakesCut == 0, "the take read right got a cut")
        #expect(total.found == 5, "found \(total.found) of \(total.fumbles)")
        #expect(total.edgesWithin == 5, "edges within 150 ms: \(total.edgesWithin) of \(total.found)")
    }
}
