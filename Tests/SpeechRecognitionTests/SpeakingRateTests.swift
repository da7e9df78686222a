import Foundation
import NarrationCore
import Testing

/// Speech found in a level envelope, and the speaking rate from it, on tone bursts of known length.
@Suite("Speaking rate")
struct SpeakingRateTests {
    static let rate = 16_000

    /// Tone bursts (`true`, seconds) and silences (`false`, seconds) in turn, over faint noise.
    static func signal(_ parts: [(Bool, Double)], noise: Float = 0.0005) -> [Float] {
        var samples: [Float] = []
        var seed: UInt32 = 12_345
        for (tone, seconds) in parts {
            for index in 0..<Int(seconds * Double(rate)) {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                let hiss = (Float(seed >> 8) / Float(1 << 24) - 0.5) * 2 * noise
                samples.append(hiss + (tone ? 0.3 * sin(2 * .pi * 220 * Float(index) / Float(rate)) : 0))
            }
        }
        return samples
    }

    @Test("pauses longer than 0.3 s are left out, shorter gaps are speech, silence at the ends is not")
    func pausesExcluded() {
        let samples = Self.signal([(false, 1), (true, 2), (false, 1), (true, 1.5), (false, 0.1), (true, 1), (false, 0.8)])
        let activity = SpeechActivity(samples: samples, sampleRate: Self.rate)
        #expect(activity.speech.count == 2)
        #expect(abs(activity.speechSeconds - 4.6) <= 0.04)
        #expect(abs(activity.speech[0].lowerBound - 1) <= 0.02)
    }

    @Test("digital silence between bursts is not mistaken for a noise floor that hiss exceeds")
    func digitalSilence() {
        let samples = Self.signal([(true, 1), (false, 1), (true, 1)], noise: 0)
        #expect(abs(SpeechActivity(samples: samples, sampleRate: Self.rate).speechSeconds - 2) <= 0.04)
    }

    @Test("silence and nothing have no speech; a paragraph read in no time is possibly skipped")
    func noSpeech() {
        #expect(SpeechActivity(samples: [], sampleRate: Self.rate).speechSeconds == 0)
        #expect(SpeechActivity(samples: Self.signal([(false, 2)]), sampleRate: Self.rate).speechSeconds == 0)
        #expect(SpeakingRate(words: 40, speechSeconds: 0).isPossiblySkipped(narratorMedian: 150))
    }

    @Test("words per minute of speech, pauses excluded")
    func wordsPerMinute() {
        let samples = Self.signal([(true, 6), (false, 2), (true, 6)])
        let rate = SpeakingRate(
            paragraph: ScriptParagraph(kind: .paragraph, text: Array(repeating: "word", count: 30).joined(separator: " ")),
            activity: SpeechActivity(samples: samples, sampleRate: Self.rate))
        #expect(abs(rate.wordsPerMinute! - 150) < 1)
    }

    @Test("far faster than the narrator's median is possibly skipped", arguments: [
        (150.0, 150.0 as Double?, false), (180, 150, false), (195, 150, true), (240, 150, true),
        (200, nil, false), (250, nil, true),
    ])
    func comparedToMedian(rate: Double, median: Double?, flagged: Bool) {
        let speaking = SpeakingRate(words: 100, speechSeconds: 6000 / rate)
        #expect(speaking.isPossiblySkipped(narratorMedian: median) == flagged)
    }

    @Test("a heading of a few words is never judged by its rate alone; with no speech at all it still is", arguments: [
        (4, 0.9 as Double, false), (7, 0.5, false), (8, 1.0, true), (4, 0.0, true),
    ])
    func fewWords(words: Int, seconds: Double, flagged: Bool) {
        // 4 words in 0.9 s is 267 a minute (1.8 times the median); 7 in 0.5 s is 840, far beyond any median; 8 in 1 s is 480.
        #expect(SpeakingRate(words: words, speechSeconds: seconds).isPossiblySkipped(narratorMedian: 150) == flagged)
    }

    @Test("a median needs three other takes")
    func median() {
        #expect(SpeakingRate.median(of: [150, 160]) == nil)
        #expect(SpeakingRate.median(of: [150, 170, 160]) == 160)
        #expect(SpeakingRate.median(of: [150, 170, 160, 200]) == 165)
    }
}
