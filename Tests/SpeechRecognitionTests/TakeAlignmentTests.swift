import Foundation
import NarrationCore
import Testing

/// The alignment of recognised words to the article's paragraphs, on hand-made word lists.
@Suite("Aligning the words heard to the paragraphs")
struct TakeAlignmentTests {
    static let paragraphs = [
        ScriptParagraph(kind: .heading, text: "Harbour plans"),
        ScriptParagraph(kind: .paragraph, text: "The harbour board met on Monday. It approved a new ferry terminal near the old fish market. Work starts in the spring."),
        ScriptParagraph(kind: .paragraph, text: "Fishermen worry about the noise. They say boats will have less room to unload their catch each morning."),
    ]

    /// Each word of `text` heard in turn from `start`, `seconds` apart, each lasting 0.3 s.
    static func said(_ text: String, from start: Double = 0.5, seconds: Double = 0.4, confidence: Double = 0.9) -> [RecognisedWord] {
        SpokenWords.of(text).enumerated().map { index, word in
            let at = start + Double(index) * seconds
            return RecognisedWord(word, start: at, end: at + 0.3, confidence: confidence)
        }
    }

    @Test("spoken words are lowercased, without punctuation, apostrophes kept, hyphens splitting")
    func spokenWords() {
        #expect(SpokenWords.of("The council’s river-side plan — “done”, at 1,200 U.S. dollars!")
            == ["the", "council's", "river", "side", "plan", "done", "at", "1200", "us", "dollars"])
    }

    @Test("sentences end at . ! ? but not after a title or an initial")
    func sentences() {
        let paragraph = ScriptParagraph(kind: .paragraph, text: "Mr. Smith met J. Jones. Was it late? “Yes!” she said.")
        #expect(paragraph.sentences.map(\.text) == ["Mr. Smith met J. Jones.", "Was it late?", "“Yes!”", "she said."])
        #expect(paragraph.sentences.map(\.words) == [0..<5, 5..<8, 8..<9, 9..<11])
    }

    @Test("a take read right matches its paragraph fully and gets no hint")
    func rightTake() {
        let alignment = TakeAlignment(heard: Self.said(Self.paragraphs[1].text), paragraphs: Self.paragraphs, paragraphIndex: 1)
        #expect(alignment.match == 1)
        #expect(alignment.hints.isEmpty)
        #expect(alignment.scores[1] == 1)
        #expect(alignment.scores[2] < 0.3)
    }

    @Test("a few words misheard are neither unheard nor another paragraph")
    func misheardWords() {
        let text = "The harbour board met on Monday. It approved a new fairy terminal near the cold fish market. Work starts in the spring."
        let alignment = TakeAlignment(heard: Self.said(text), paragraphs: Self.paragraphs, paragraphIndex: 1)
        #expect(alignment.hints.isEmpty)
        #expect(abs(alignment.match - 20.0 / 22.0) < 1e-9)
    }

    @Test("a sentence left out is unheard, at the end of the last word heard before it")
    func skippedSentence() {
        let first = Self.said("The harbour board met on Monday.", from: 0.5)
        let last = Self.said("Work starts in the spring.", from: 3.0)
        let alignment = TakeAlignment(heard: first + last, paragraphs: Self.paragraphs, paragraphIndex: 1)
        #expect(alignment.hints == [TakeHint(.unheard, words: "it approved a new ferry terminal near the old fish market", seconds: first.last!.end)])
    }

    @Test("a first sentence left out is unheard at the start of the take")
    func skippedFirstSentence() {
        let alignment = TakeAlignment(
            heard: Self.said("It approved a new ferry terminal near the old fish market. Work starts in the spring."),
            paragraphs: Self.paragraphs, paragraphIndex: 1)
        #expect(alignment.hints == [TakeHint(.unheard, words: "the harbour board met on monday", seconds: 0)])
    }

    @Test("a run shorter than the threshold is not reported", arguments: [4, 5])
    func runThreshold(length: Int) {
        let words = SpokenWords.of(Self.paragraphs[1].text)
        var kept = words
        kept.removeSubrange(8..<(8 + length))
        let heard = kept.enumerated().map { RecognisedWord($1, start: Double($0) * 0.4, end: Double($0) * 0.4 + 0.3) }
        let alignment = TakeAlignment(heard: heard, paragraphs: Self.paragraphs, paragraphIndex: 1)
        #expect(alignment.hints.count == (length >= 5 ? 1 : 0))
    }

    @Test("words heard wrongly where they should be take time, so they are not unheard")
    func garbledRunTakesTime() {
        let heard = Self.said("The harbour board met on Monday. It approved the big red ferry car bell tower spoke. Work starts in the spring.")
        let alignment = TakeAlignment(heard: heard, paragraphs: Self.paragraphs, paragraphIndex: 1)
        #expect(alignment.hints.isEmpty)
    }

    @Test("words the recogniser cannot say count neither as heard nor unheard")
    func outOfVocabulary() {
        let paragraphs = [ScriptParagraph(kind: .paragraph, text: "Prices rose by 340 percent in Zyx last year.")]
        var vocabulary = Set(SpokenWords.of(paragraphs[0].text))
        vocabulary.subtract(["340", "zyx"])
        let alignment = TakeAlignment(
            heard: Self.said("Prices rose by percent in last year."), paragraphs: paragraphs, paragraphIndex: 0, vocabulary: vocabulary)
        #expect(alignment.match == 1)
        #expect(alignment.hints.isEmpty)
    }

    @Test("a take of another paragraph is flagged with that paragraph, and nothing else")
    func wrongParagraph() {
        let alignment = TakeAlignment(heard: Self.said(Self.paragraphs[2].text), paragraphs: Self.paragraphs, paragraphIndex: 1)
        #expect(alignment.hints == [TakeHint(.wrongParagraph, words: "Fishermen worry about the noise. They say boats…", seconds: 0.5, paragraph: 2)])
        #expect(alignment.sentenceCues.isEmpty)
    }

    @Test("sentence cues run from the first word's start to the last word's end")
    func cues() {
        let heard = Self.said(Self.paragraphs[1].text)
        let alignment = TakeAlignment(heard: heard, paragraphs: Self.paragraphs, paragraphIndex: 1)
        #expect(alignment.sentenceCues == [
            SentenceCue(sentence: 0, start: heard[0].start, end: heard[5].end),
            SentenceCue(sentence: 1, start: heard[6].start, end: heard[16].end),
            SentenceCue(sentence: 2, start: heard[17].start, end: heard[21].end),
        ])
    }

    @Test("a sentence heard without confidence, or left out, has no cue")
    func noCueWithoutConfidence() {
        var heard = Self.said("The harbour board met on Monday.", confidence: 0.2)
        heard += Self.said("Work starts in the spring.", from: 3)
        let alignment = TakeAlignment(heard: heard, paragraphs: Self.paragraphs, paragraphIndex: 1)
        #expect(alignment.sentenceCues.map(\.sentence) == [2])
    }

    @Test("nothing heard: every word unheard, no cue, no other paragraph")
    func nothingHeard() {
        let alignment = TakeAlignment(heard: [], paragraphs: Self.paragraphs, paragraphIndex: 2)
        #expect(alignment.match == 0)
        #expect(alignment.hints.map(\.kind) == [.unheard])
        #expect(alignment.sentenceCues.isEmpty)
    }

    @Test("a report is JSON and back, unchanged")
    func reportRoundTrip() throws {
        let report = TakeCheckReport(
            hints: [TakeHint(.unheard, words: "it approved", seconds: 2.5), TakeHint(.wrongParagraph, words: "Fishermen…", seconds: 0, paragraph: 2)],
            sentenceCues: [SentenceCue(sentence: 0, start: 0.5, end: 2.4)],
            rate: SpeakingRate(words: 22, speechSeconds: 8), recognised: true, match: 0.5, unknownWords: ["340"])
        let data = try JSONEncoder().encode(report)
        #expect(try JSONDecoder().decode(TakeCheckReport.self, from: data) == report)
    }
}
