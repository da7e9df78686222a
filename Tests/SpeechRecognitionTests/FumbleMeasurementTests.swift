import Foundation
import Glibc
import NarrationAudio
import NarrationCore
import SpeechRecognition
import Testing

/// Restarts found and cut, measured on `FumbleTestSet`: figures per kind of fumble and per
/// voice, printed; the assertions are the targets (found ≥ 90 %, edges within 150 ms ≥ 90 % of
/// those found, right takes with a cut ≤ 5 %).
///
/// CI reads two voices and paces; `NARRATE_FUMBLE_READERS=all` reads all eight (136 takes, some
/// minutes), as the figures in the docs were measured.
@Suite("Restarts found and cut on synthetic speech")
struct FumbleMeasurementTests {
    struct Checked: Sendable {
        var take: FumbleTestSet.Take
        var report: TakeCheckReport
        var cpuSeconds: Double
    }

    /// What the recogniser heard in each take and the path through the paragraph, for tuning.
    static func detail(_ take: FumbleTestSet.Take, _ checker: TakeChecker) throws -> String {
        guard let heard = try checker.recognise(samples: take.samples, sampleRate: SyntheticArticle.sampleRate) else { return "" }
        let text = SyntheticArticle.paragraphs[take.paragraph].spokenWords.filter(heard.vocabulary.contains)
        let path = ReadingPath(heard: heard.heard.map(\.word), text: text)
        var jumps = path.jumps.makeIterator()
        var next = jumps.next()
        var line = ""
        for (index, word) in heard.heard.enumerated() {
            if let jump = next, jump.heard == index {
                line += " ⟲\(jump.from)→\(jump.to)"
                next = jumps.next()
            }
            let step: String
            switch path.steps[index] {
            case .read(let position, let matched): step = matched ? "\(position)" : "~\(position)"
            case .added: step = "+"
            }
            line += " \(word.word)[\(step)]@\(two(word.start))"
        }
        return line
    }

    static let measurement = Result { () throws -> [Checked] in
        let all = ProcessInfo.processInfo.environment["NARRATE_FUMBLE_READERS"] == "all"
        let set = try FumbleTestSet(readers: all ? Array(FumbleTestSet.readers.indices) : [0, 1])
        // NARRATE_FUMBLE_COSTS="mismatch,added,aside,leftOut,jump" tries other costs.
        var settings = Fumbles.Settings()
        if let costs = ProcessInfo.processInfo.environment["NARRATE_FUMBLE_COSTS"]?.split(separator: ",").compactMap({ Double($0) }), costs.count == 5 {
            settings.costs = ReadingPath.Costs(mismatch: costs[0], added: costs[1], addedAside: costs[2], leftOut: costs[3], jump: costs[4])
        }
        let checker = try TakeChecker(paragraphs: SyntheticArticle.paragraphs, language: "en-US", fumbleSettings: settings)
        defer { checker.close() }
        return try set.takes.map { take in
            let before = TakeCheckMeasurementTests.Measurement.threadCPUSeconds()
            let frames = SpeechFrames(cepstraOf: take.samples, sampleRate: SyntheticArticle.sampleRate)
            let report = try checker.check(
                samples: take.samples, sampleRate: SyntheticArticle.sampleRate, frames: frames, paragraphIndex: take.paragraph,
                narratorMedianRate: nil)
            let cpu = TakeCheckMeasurementTests.Measurement.threadCPUSeconds() - before
            if ProcessInfo.processInfo.environment["NARRATE_FUMBLE_DETAIL"] != nil, take.fumble != nil {
                print("¶\(take.paragraph) \(take.voice) \(take.fumble!.rawValue):" + (try detail(take, checker)))
            }
            return Checked(take: take, report: report, cpuSeconds: cpu)
        }
    }

    @Test("restarts are found and cut within 150 ms, and right takes are seldom cut")
    func restartsFound() throws {
        let checked = try Self.measurement.get()
        var total = FumbleScore.Tally()
        var byKind: [String: FumbleScore.Tally] = [:]
        var byVoice: [String: FumbleScore.Tally] = [:]
        for item in checked {
            let tally = FumbleScore.score(truth: item.take.truth, cuts: item.report.cuts, sampleRate: SyntheticArticle.sampleRate)
            total.add(tally)
            byKind[item.take.fumble?.rawValue ?? "right", default: .init()].add(tally)
            byVoice["\(item.take.voice) \(item.take.wordsPerMinute) wpm", default: .init()].add(tally)
            let truth = item.take.truth.map { "\(two(Double($0.lowerBound) / 44100))–\(two(Double($0.upperBound) / 44100)) s" } ?? "-"
            if tally.found < tally.fumbles || tally.falseCuts > 0 || tally.edgesWithin < tally.found || ProcessInfo.processInfo.environment["NARRATE_SPEECH_DETAIL"] != nil {
                print("¶\(item.take.paragraph) \(item.take.voice) \(item.take.wordsPerMinute) \(item.take.fumble?.rawValue ?? "right") truth \(truth): \(item.report.cuts.map(\.description)) \(item.report.hints.map(\.description))")
            }
        }
        for (kind, tally) in byKind.sorted(by: { $0.key < $1.key }) { print("kind \(kind): \(tally.line)") }
        for (voice, tally) in byVoice.sorted(by: { $0.key < $1.key }) { print("voice \(voice): \(tally.line)") }
        print("all: \(total.line)")
        let cpu = checked.reduce(0) { $0 + $1.cpuSeconds }, audio = checked.reduce(0) { $0 + $1.take.seconds }
        print("cost: \(two(cpu)) CPU s for \(two(audio)) s of audio = \(two(cpu / audio)) × real time on one thread")
        if let example = checked.first(where: { !$0.report.cuts.isEmpty })?.report.cuts.first { print("as the volunteer sees one: \(example)") }

        // The targets: 90 % found, edges within 150 ms, at most 5 % of right takes cut.
        // Measured with all eight readers: 64 of 64 found, 63 with both edges within 150 ms
        // (the other cuts en-us-nyc's false start after its quiet "F", at both attempts alike,
        // 198 ms from the file's start), 2 of 72 right takes cut (from the words: "the wall
        // running from the old mill" heard as "the old" read twice). Most restarts are found from the sound (`RepeatedSpeech`):
        // the recogniser's words alone found 29 of 64, its language model of the article
        // pulling a repeat toward the text's next words.
        #expect(total.found * 10 >= total.fumbles * 9, "restarts found: \(total.found) of \(total.fumbles)")
        #expect(total.edgesWithin * 10 >= total.found * 9, "edges within 150 ms: \(total.edgesWithin) of \(total.found)")
        #expect(total.rightTakesCut * 20 <= total.rightTakes, "right takes with a cut: \(total.rightTakesCut) of \(total.rightTakes)")
    }
}
