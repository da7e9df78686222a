import Foundation
import NarrationAudio
import NarrationCore
import Testing

/// Stretches said twice, found from the sound alone (`RepeatedSpeech` over `SpeechFrames`): on
/// "words" of tones made here, whose frames are known exactly, and a cut made of one found
/// where the recogniser's words show nothing (`Fumbles`). The measurements on speech are in
/// FumbleMeasurementTests and RealSpeechFumbleTests.
@Suite("Restarts found from the sound of a take")
struct RepeatedSpeechTests {
    static let rate = 16_000

    /// A "word": 0.25 s of a voice at 120 Hz whose harmonics up to 4 kHz ring loudest near
    /// `formant` Hz (a vowel, as far as cepstra tell), faded in and out over 10 ms.
    static func word(_ formant: Double) -> [Float] {
        let count = rate / 4, fade = rate / 100
        let harmonics = (1...33).map { Double($0) * 120 }
        let gains = harmonics.map { f in exp(-pow((f - formant) / 150, 2)) + 0.05 }
        return (0..<count).map { n in
            let t = Double(n) / Double(rate)
            var value = 0.0
            for (f, gain) in zip(harmonics, gains) { value += gain * sin(2 * .pi * f * t) }
            let edge = Double(min(n, count - 1 - n, fade)) / Double(fade)
            return Float(0.1 * value * edge)
        }
    }

    static func pause(_ seconds: Double) -> [Float] { [Float](repeating: 0, count: Int(seconds * Double(rate))) }

    /// Words of `pitches` with 50 ms between them.
    static func words(_ pitches: [Double]) -> [Float] { pitches.flatMap { word($0) + pause(0.05) } }

    static func find(_ samples: [Float]) -> [RepeatedSpeech.Repeat] {
        let activity = SpeechActivity(samples: samples, sampleRate: rate)
        let envelope = LevelEnvelope(samples: samples, sampleRate: rate, speechThreshold: activity.threshold)
        let frames = SpeechFrames(cepstraOf: samples, sampleRate: rate)
        return RepeatedSpeech(frames: frames, envelope: envelope, wordStarts: []).repeats
    }

    static let sentence: [Double] = [300, 2200, 800, 3100]
    static let next: [Double] = [1200, 500, 2600, 1700, 400, 3500]

    @Test("words said again after a pause are found: the first attempt from its onset, the second from its own")
    func restartFound() throws {
        // One sentence, a pause, three words of the next, a pause, the next from its start.
        let firstAttempt = 0.3 + 4 * 0.3 + 0.4
        let secondAttempt = firstAttempt + 3 * 0.3 + 0.5
        let take = Self.pause(0.3) + Self.words(Self.sentence) + Self.pause(0.4) + Self.words(Array(Self.next.prefix(3)))
            + Self.pause(0.5) + Self.words(Self.next) + Self.pause(0.3)
        let repeats = Self.find(take)
        #expect(repeats.count == 1)
        let found = try #require(repeats.first)
        #expect(abs(found.first - firstAttempt) <= 0.02, "first attempt at \(found.first) s")
        #expect(abs(found.second - secondAttempt) <= 0.02, "second attempt at \(found.second) s")
        #expect(found.matched >= 0.7 && found.matched <= 0.95, "matched \(found.matched) s")
    }

    @Test("a take that says nothing twice has no repeat, nor one whose next sentence begins with the same word")
    func nothingTwice() {
        let right = Self.pause(0.3) + Self.words(Self.sentence) + Self.pause(0.4) + Self.words(Self.next) + Self.pause(0.3)
        #expect(Self.find(right).isEmpty)
        // The same first word, then other words: 0.3 s alike is too short to be words said twice.
        let alike = Self.pause(0.3) + Self.words(Self.sentence) + Self.pause(0.4) + Self.words([300] + Self.next) + Self.pause(0.3)
        #expect(Self.find(alike).isEmpty)
    }

    @Test("a second attempt that follows the first without a pause is found from its true start, not from a later pause")
    func noPauseBetween() throws {
        // Three words, then the same three with no pause, a pause inside both after the first word.
        let attempt = Self.word(1200) + Self.pause(0.2) + Self.words([500, 2600])
        let start = 0.3 + 4 * 0.3 + 0.4
        let take = Self.pause(0.3) + Self.words(Self.sentence) + Self.pause(0.4) + attempt + attempt + Self.words([1700, 400]) + Self.pause(0.3)
        let found = try #require(Self.find(take).first)
        let length = Double(attempt.count) / Double(Self.rate)
        #expect(abs(found.first - start) <= 0.03, "first attempt at \(found.first) s, not \(start) s")
        #expect(abs(found.second - (start + length)) <= 0.03, "second attempt at \(found.second) s, not \(start + length) s")
    }

    @Test("a second attempt run on from the first is placed where the two sound alike, a recogniser's boundary 150 ms out either way")
    func alignedStart() throws {
        let attempt = Self.words([1200, 500, 2600])
        let start = 0.3 + 4 * 0.3 + 0.4
        let second = start + Double(attempt.count) / Double(Self.rate)
        let take = Self.pause(0.3) + Self.words(Self.sentence) + Self.pause(0.4) + attempt + attempt + Self.words([1700, 400]) + Self.pause(0.3)
        let frames = SpeechFrames(cepstraOf: take, sampleRate: Self.rate)
        for near in [second - 0.15, second + 0.15] {
            let found = try #require(RepeatedSpeech.alignedStart(of: start, near: near, frames: frames, sameness: 8))
            #expect(abs(found - second) <= 0.02, "from \(near) s: \(found) s, not \(second) s")
        }
        // Words that are not said again align nowhere.
        let other = Self.pause(0.3) + Self.words(Self.sentence) + Self.pause(0.4) + attempt + Self.words([3300, 700, 1900]) + Self.pause(0.3)
        #expect(RepeatedSpeech.alignedStart(of: start, near: second, frames: SpeechFrames(cepstraOf: other, sampleRate: Self.rate), sameness: 8) == nil)
    }

    @Test("a repeat the recogniser's words do not show is a cut of its own, its words those of the second attempt")
    func cutFromTheSound() {
        let paragraph = ScriptParagraph(kind: .paragraph, text: "The council met on Tuesday evening to debate a plan.")
        let text = paragraph.spokenWords
        // Heard as if read right: the first attempt was heard as nothing.
        let heard = text.enumerated().map { index, word in
            RecognisedWord(word, start: 3.0 + Double(index) * 0.4, end: 3.3 + Double(index) * 0.4)
        }
        let repeatFound = RepeatedSpeech.Repeat(first: 1.0, matched: 1.5, second: 3.0, distance: 4)
        let fumbles = Fumbles(heard: heard, text: text, envelope: nil, sampleRate: Self.rate, repeats: [repeatFound])
        #expect(fumbles.cuts.count == 1)
        #expect(fumbles.cuts.first?.startFrame == 16_000 && fumbles.cuts.first?.endFrame == 48_000)
        #expect(fumbles.cuts.first?.words == "the council met on")
        #expect(fumbles.cuts.first?.description == "at 1.0 s: “the council met on” read twice: cut 1.00–3.00 s")
        // The same repeat beside a cut from the words gives that cut the sound's edges.
        let restart = RecognisedWord.self
        let twice = [restart.init("the", start: 1.1, end: 1.3), restart.init("council", start: 1.4, end: 1.8)] + heard
        let merged = Fumbles(heard: twice, text: text, envelope: nil, sampleRate: Self.rate, repeats: [repeatFound])
        #expect(merged.cuts.count == 1)
        #expect(merged.cuts.first.map { [$0.startFrame, $0.endFrame] } == [16_000, 48_000])
        #expect(merged.cuts.first?.words == "the council")
    }
}
