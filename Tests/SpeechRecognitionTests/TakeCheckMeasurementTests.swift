import Foundation
import Glibc
import NarrationAudio
import NarrationCore
import SpeechRecognition
import Testing

/// The take check measured on synthetic speech of known text: every paragraph read right, every
/// paragraph with one sentence left out, and takes that read another paragraph. The figures are
/// printed; the assertions hold the hints to them.
@Suite("The take check on synthetic speech")
struct TakeCheckMeasurementTests {
    /// What a take really is.
    enum Truth: Equatable {
        case right
        case skipped(sentence: Int)
        case wrongParagraph(readFrom: Int)
    }

    struct Take {
        var paragraph: Int
        var truth: Truth
        var samples: [Float]
        var speech: [Int: ClosedRange<Double>]
        var report: TakeCheckReport
        var cpuSeconds: Double
        var narratorMedian: Double?
        var seconds: Double { Double(samples.count) / Double(SyntheticArticle.sampleRate) }
    }

    /// The takes, checked once for all the tests of this suite.
    struct Measurement: Sendable {
        let takes: [Take]
        let checker: TakeChecker

        init() throws {
            let article = try SyntheticArticle()
            let paragraphs = SyntheticArticle.paragraphs
            checker = try TakeChecker(paragraphs: paragraphs, language: "en-US")
            let body = paragraphs.indices.filter { paragraphs[$0].kind == .paragraph }

            // The narrator's median over their other right takes, as the engine would keep it.
            var rightRates: [Int: Double] = [:]
            for index in paragraphs.indices {
                let samples = article.take(index).samples
                let rate = SpeakingRate(paragraph: paragraphs[index], activity: SpeechActivity(samples: samples, sampleRate: SyntheticArticle.sampleRate))
                rightRates[index] = rate.wordsPerMinute
            }
            func median(excluding paragraph: Int) -> Double? {
                SpeakingRate.median(of: body.filter { $0 != paragraph }.compactMap { rightRates[$0] })
            }

            var plan: [(Int, Truth)] = paragraphs.indices.map { ($0, .right) }
            for index in body {
                plan.append((index, .skipped(sentence: index % paragraphs[index].sentences.count)))
            }
            let readFrom = [1: 2, 2: 3, 3: 5, 4: 6, 5: 1, 6: 8, 7: 4, 8: 7]
            for index in body { plan.append((index, .wrongParagraph(readFrom: readFrom[index]!))) }

            var takes: [Take] = []
            for (paragraph, truth) in plan {
                let made: (samples: [Float], speech: [Int: ClosedRange<Double>])
                switch truth {
                case .right: made = article.take(paragraph)
                case .skipped(let sentence): made = article.take(paragraph, skipping: sentence)
                case .wrongParagraph(let other): made = article.take(other)
                }
                let narratorMedian = median(excluding: paragraph)
                let before = Self.threadCPUSeconds()
                let frames = SpeechFrames(cepstraOf: made.samples, sampleRate: SyntheticArticle.sampleRate)
                let report = try checker.check(
                    samples: made.samples, sampleRate: SyntheticArticle.sampleRate, frames: frames, paragraphIndex: paragraph,
                    narratorMedianRate: narratorMedian)
                let cpu = Self.threadCPUSeconds() - before
                takes.append(Take(
                    paragraph: paragraph, truth: truth, samples: made.samples, speech: made.speech, report: report, cpuSeconds: cpu,
                    narratorMedian: narratorMedian))
            }
            self.takes = takes
        }

        /// CPU time of the calling thread: the check runs on it alone.
        static func threadCPUSeconds() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
    }

    /// Made once, on first use, for every test here.
    static let measurement = Result { try Measurement() }

    @Test("right takes are rarely flagged and wrong ones rarely missed, at under 0.2 × real time")
    func hintsOnSyntheticTakes() throws {
        let measurement = try Self.measurement.get()
        let takes = measurement.takes
        for take in takes {
            let rate = take.report.rate.wordsPerMinute.map { String(Int($0.rounded())) } ?? "-"
            let median = take.narratorMedian.map { String(Int($0.rounded())) } ?? "-"
            let match = take.report.match.map { String(Int(($0 * 100).rounded())) + "%" } ?? "-"
            print("take of ¶\(take.paragraph) \(take.truth): \(rate) wpm (median \(median)), match \(match), \(take.report.hints.map(\.description))")
            if ProcessInfo.processInfo.environment["NARRATE_SPEECH_DETAIL"] != nil, take.truth == .right,
                let heard = try measurement.checker.recognise(samples: take.samples, sampleRate: SyntheticArticle.sampleRate)?.heard
            {
                print("  heard: " + heard.map { "\($0.word)/\(Int($0.confidence * 100))" }.joined(separator: " "))
            }
        }
        let right = takes.filter { $0.truth == .right }
        let skipped = takes.filter { if case .skipped = $0.truth { true } else { false } }
        let wrong = takes.filter { if case .wrongParagraph = $0.truth { true } else { false } }
        let falseAlarms = right.filter { !$0.report.hints.isEmpty }
        let skipsMissed = skipped.filter { !$0.report.hints.contains { $0.kind == .unheard || $0.kind == .possiblySkipped } }
        let skipsHeardMissing = skipped.filter { $0.report.hints.contains { $0.kind == .unheard } }
        let skipsTooFast = skipped.filter { $0.report.rate.isPossiblySkipped(narratorMedian: $0.narratorMedian) }
        let wrongMissed = wrong.filter { !$0.report.hints.contains { $0.kind == .wrongParagraph } }
        let cpu = takes.reduce(0) { $0 + $1.cpuSeconds }
        let audio = takes.reduce(0) { $0 + $1.seconds }
        print("right takes flagged: \(falseAlarms.count)/\(right.count)")
        print("skipped sentences missed: \(skipsMissed.count)/\(skipped.count) (unheard found \(skipsHeardMissing.count), rate alone would flag \(skipsTooFast.count))")
        print("wrong paragraphs missed: \(wrongMissed.count)/\(wrong.count)")
        print("cost: \(cpu) CPU s for \(audio) s of audio = \(cpu / audio) × real time on one thread")

        // Measured: 1 of 9 right takes flagged (a take in the en-gb voice whose first words the
        // US model did not hear), no skip and no wrong paragraph missed, 0.09–0.10 × real time.
        #expect(falseAlarms.count <= 1)
        #expect(skipsMissed.count <= 1)
        #expect(wrongMissed.count <= 1)
    }

    @Test("a right take's sentence cues fall within half a second of the sentences")
    func sentenceCues() throws {
        let measurement = try Self.measurement.get()
        var cued = 0, sentences = 0, worst = 0.0
        for take in measurement.takes where take.truth == .right {
            sentences += take.speech.count
            for cue in take.report.sentenceCues {
                let truth = try #require(take.speech[cue.sentence])
                let error = max(abs(cue.start - truth.lowerBound), abs(cue.end - truth.upperBound))
                worst = max(worst, error)
                #expect(error <= 0.5, "¶\(take.paragraph) sentence \(cue.sentence): cue \(cue.start)–\(cue.end) s, speech \(truth)")
                cued += 1
            }
        }
        print("sentence cues: \(cued)/\(sentences) sentences cued, worst \(worst) s off")
        // A cue needs confident words at both ends of the sentence; about two thirds have them.
        #expect(cued * 2 >= sentences)
    }
}
