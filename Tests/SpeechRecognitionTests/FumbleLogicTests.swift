import NarrationCore
import Testing

/// Restarts and asides found from hand-made word lists (the path, the cuts, the hints), and what
/// accepting a cut does to a take's frames and its check: pure logic, beside the measurements on
/// speech in FumbleMeasurementTests and RealSpeechFumbleTests.
@Suite("Restarts, asides and cuts, on hand-made word lists")
struct FumbleLogicTests {
    static let paragraph = ScriptParagraph(
        kind: .paragraph,
        text: "The council met on Tuesday evening to debate a plan. Supporters say the wall would protect hundreds of homes from the floods.")
    static var text: [String] { paragraph.spokenWords }

    /// `words` heard one after another from `start`, each 0.3 s with 0.1 s between.
    static func said(_ words: [String], from start: Double) -> [RecognisedWord] {
        words.enumerated().map { index, word in RecognisedWord(word, start: start + Double(index) * 0.4, end: start + Double(index) * 0.4 + 0.3) }
    }

    @Test("words read again are a jump back in the reading path; one word said twice is not")
    func readingPath() {
        let text = Self.text
        let restart = Array(text[0..<6]) + Array(text[2...])
        let path = ReadingPath(heard: restart, text: text)
        #expect(path.jumps.count == 1)
        #expect(path.jumps.first.map { [$0.heard, $0.from, $0.to] } == [6, 6, 2])
        #expect(path.steps.allSatisfy { if case .read(_, true) = $0 { true } else { false } })

        let doubled = Array(text[0..<4]) + [text[3]] + Array(text[4...])
        let once = ReadingPath(heard: doubled, text: text)
        #expect(once.jumps.isEmpty)
        #expect(once.steps.filter { $0 == .added }.count == 1)
        #expect(ReadingPath(heard: [], text: text).steps.isEmpty)
    }

    @Test("a restart with an aside between is one cut from the first attempt to the second, the aside named")
    func restartWithAside() {
        let text = Self.text
        // "the council met on tuesday" | "sorry" | "the council met on tuesday evening …", 1 s pauses.
        var heard = Self.said(Array(text[0..<5]), from: 0.5)
        heard += Self.said(["sorry"], from: 3.0)
        heard += Self.said(text, from: 4.5)
        let fumbles = Fumbles(heard: heard, text: text, envelope: nil, sampleRate: 16_000)
        #expect(fumbles.cuts.count == 1)
        let cut = fumbles.cuts[0]
        #expect(cut.startFrame == 8_000 && cut.endFrame == 72_000)
        #expect(cut.words == "the council met on tuesday")
        #expect(cut.aside == "sorry")
        #expect(cut.kind == .restart)
        #expect(cut.description == "at 0.5 s: “the council met on tuesday” read twice (“sorry” between): cut 0.50–4.50 s")
        #expect(fumbles.strays.isEmpty)
    }

    @Test("a right take has no cut and no stray; an aside alone is not in the text")
    func rightTakeAndAside() {
        let text = Self.text
        let right = Fumbles(heard: Self.said(text, from: 0.2), text: text, envelope: nil, sampleRate: 16_000)
        #expect(right.cuts.isEmpty && right.strays.isEmpty)

        let aside = Array(text[0..<11]) + ["oh", "no", "wait"] + Array(text[11...])
        let flagged = Fumbles(heard: Self.said(aside, from: 0), text: text, envelope: nil, sampleRate: 16_000)
        #expect(flagged.cuts.isEmpty)
        #expect(flagged.strays.map(\.description) == ["at 4.4 s: not in the text: “oh no wait”"])
    }

    @Test("a take that ends “oh no, wait, let me start again” nine words short is flagged twice: not heard, not in the text")
    func endsInAnAside() {
        let text = Self.text
        let words = Array(text[..<(text.count - 9)]) + ["oh", "no", "wait", "let", "me", "start", "again"]
        let heard = Self.said(words, from: 0.3)
        let samples = [Float](repeating: 0.1, count: 16_000 * 12)
        let report = TakeCheckReport(
            paragraphs: [Self.paragraph], paragraphIndex: 0, activity: SpeechActivity(samples: samples, sampleRate: 16_000), narratorMedianRate: nil,
            heard: heard, sampleRate: 16_000)
        let missing = text.suffix(9).joined(separator: " ")
        #expect(report.hints.map(\.kind) == [.unheard, .notInText])
        #expect(report.hints.contains { $0.kind == .unheard && $0.words == missing })
        #expect(report.hints.last?.words == "oh no wait let me start again")
        #expect(report.cuts.isEmpty)
    }

    @Test("a cut joins the pause before the first attempt to the pause before the second, faded over the frames before it")
    func cutJoin() {
        let pieces = CutJoin.pieces(cutting: [100..<200, 500..<520], from: 1_000, crossfade: 10)
        #expect(pieces == [
            .copy(0..<90), .crossfade(fadingOut: 90..<100, fadingIn: 190..<200),
            .copy(200..<490), .crossfade(fadingOut: 490..<500, fadingIn: 510..<520), .copy(520..<1_000),
        ])
        let length = pieces.reduce(0) { total, piece in
            switch piece {
            case .copy(let range): total + range.count
            case .crossfade(let out, _): total + out.count
            }
        }
        #expect(length == 880)
        // A cut at the very start has nothing before it to fade.
        #expect(CutJoin.pieces(cutting: [0..<50], from: 100, crossfade: 10) == [.copy(50..<100)])
    }

    @Test("the check of a cut take moves with its audio: cues, hints and other cuts after the cut move earlier")
    func reportFollowsTheCut() {
        let first = ProposedCut(kind: .restart, words: "a b", aside: "", startFrame: 16_000, endFrame: 48_000, sampleRate: 16_000)
        let second = ProposedCut(kind: .restart, words: "c d", aside: "", startFrame: 80_000, endFrame: 96_000, sampleRate: 16_000)
        let report = TakeCheckReport(
            hints: [TakeHint(.notInText, words: "sorry", seconds: 2.5), TakeHint(.unheard, words: "e f g h i", seconds: 7)], cuts: [first, second],
            sentenceCues: [SentenceCue(sentence: 0, start: 0.2, end: 4.5), SentenceCue(sentence: 1, start: 4.6, end: 8)],
            rate: SpeakingRate(words: 20, speechSeconds: 7), recognised: true)
        let cut = report.cutting(first.frames, sampleRate: 16_000)
        // The cut made is gone with its stretch; the other moves 2 s earlier.
        #expect(cut.cuts.map(\.startFrame) == [48_000] && cut.cuts.map(\.start) == [3])
        #expect(cut.hints == [TakeHint(.unheard, words: "e f g h i", seconds: 5)])
        #expect(cut.sentenceCues.map(\.sentence) == [0, 1])
        let times = cut.sentenceCues.flatMap { [$0.start, $0.end] }
        #expect(zip(times, [0.2, 2.5, 2.6, 6]).allSatisfy { abs($0 - $1) < 1e-9 }, "\(times)")
        #expect(cut.rate.speechSeconds == 5)
    }

    @Test("an attempt begins at the rise into speech after a pause, not at a rise inside the broken-off word the recogniser's start fell in")
    func attemptOnset() {
        // Silence, a broken-off "mi-" (a loud "m", a 50 ms dip, the vowel's start), 0.2 s of
        // quiet, then the attempt read again from 1.25 s. The recogniser put the word at 1.0 s.
        let rate = 16_000
        func level(_ value: Float, _ seconds: Double) -> [Float] { [Float](repeating: value, count: Int(seconds * Double(rate))) }
        let samples = level(0, 0.9) + level(0.1, 0.05) + level(0.0005, 0.05) + level(0.1, 0.05) + level(0, 0.2) + level(0.1, 0.5)
        let envelope = LevelEnvelope(samples: samples, sampleRate: rate, speechThreshold: -40)
        #expect(abs(envelope.onset(near: 1.0, notBefore: 0.95) - 1.0) < 1e-9)
        #expect(abs(envelope.attemptOnset(near: 1.0, notBefore: 0.95) - 1.25) < 1e-9)
        // With no rise after a pause in reach, the nearest rise.
        #expect(abs(envelope.attemptOnset(near: 1.0, notBefore: 0.95, quiet: 0.3) - 1.0) < 1e-9)
    }

    @Test("one restart found as two jumps by the words and once by the sound is one cut, at the sound's edges")
    func oneRestartOneCut() {
        let text = Self.text
        // "the council met on" twice broken off, then read on: the words see two jumps back.
        var heard = Self.said(Array(text[0..<4]), from: 1.0)
        heard += Self.said(Array(text[0..<4]), from: 3.0)
        heard += Self.said(text, from: 5.0)
        let words = Fumbles(heard: heard, text: text, envelope: nil, sampleRate: 16_000)
        #expect(words.cuts.map { [$0.startFrame, $0.endFrame] } == [[16_000, 48_000], [48_000, 80_000]])
        // The sound heard the first attempt said again at 5.0 s: one cut from 1.0 to 5.0 s.
        let sound = RepeatedSpeech.Repeat(first: 1.0, matched: 1.5, second: 5.0, distance: 4)
        let fumbles = Fumbles(heard: heard, text: text, envelope: nil, sampleRate: 16_000, repeats: [sound])
        #expect(fumbles.cuts.map { [$0.startFrame, $0.endFrame] } == [[16_000, 80_000]])
        #expect(fumbles.cuts.first?.words == "the council met on")
        // Two finds of the sound that overlap each other are joined, never proposed as two.
        let overlapping = [
            RepeatedSpeech.Repeat(first: 1.0, matched: 1.0, second: 3.0, distance: 4),
            RepeatedSpeech.Repeat(first: 2.5, matched: 1.0, second: 5.0, distance: 4),
        ]
        let joined = Fumbles(heard: Self.said(text, from: 5.0), text: text, envelope: nil, sampleRate: 16_000, repeats: overlapping)
        #expect(joined.cuts.map { [$0.startFrame, $0.endFrame] } == [[16_000, 80_000]])
    }
}
