import Foundation
import NarrationAudio
import NarrationCore

/// Takes with fumbles at known frames: the paragraphs of `SyntheticArticle` read by espeak-ng
/// voices at several speeds, with restarts, false starts and asides put in where a narrator
/// would make them, and the same paragraphs read right.
///
/// Each piece of a take (a sentence, the first words of one, an aside) is synthesised on its
/// own and joined in memory, so the frames of what a fumble added are known exactly; the cut
/// that takes it out leaves the take as it would have been read right.
struct FumbleTestSet {
    enum Kind: String, CaseIterable, Sendable {
        /// The first words of a sentence, a pause, then the sentence from its start.
        case restart
        /// The first words, an aside ("sorry"), then the sentence.
        case restartWithAside
        /// The first words and half of the next, broken off; a short pause; the sentence.
        case falseStart
        /// Within a sentence: three words read, a pause, the same three words and on.
        case restartMidSentence
    }

    struct Take: Sendable {
        var voice: String
        var wordsPerMinute: Int
        var paragraph: Int
        /// nil for a take read right.
        var fumble: Kind?
        var samples: [Float]
        /// The frames the fumble added: the cut that is right. Nil for a take read right.
        var truth: Range<Int>?
        var seconds: Double { Double(samples.count) / Double(SyntheticArticle.sampleRate) }
    }

    /// The voices and paces: two accents of the same synthesiser each at two speeds, and two more.
    static let readers: [(voice: String, wordsPerMinute: Int)] = [
        ("en-us", 160), ("en-gb", 175), ("en-us", 190), ("en-gb", 145),
        ("en-gb-scotland", 165), ("en-us-nyc", 170), ("en-gb-x-rp", 155), ("en-029", 180),
    ]

    static let asides = ["sorry", "let me start again", "oh no, wait", "sorry, let me read that again"]

    let takes: [Take]

    /// The set for `readers` (indices into `Self.readers`).
    init(readers chosen: [Int]) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("narrate-fumbles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var count = 0
        func speak(_ text: String, _ voice: String, _ rate: Int) throws -> [Float] {
            count += 1
            let spoken = folder.appendingPathComponent("\(count)-espeak.wav").path
            let converted = folder.appendingPathComponent("\(count).wav").path
            try SyntheticArticle.run("espeak-ng", ["-w", spoken, "-s", "\(rate)", "-v", voice, text])
            try SyntheticArticle.run("sox", [spoken, "-r", "\(SyntheticArticle.sampleRate)", "-c", "1", "-b", "16", converted])
            let reader = try SoundFileReader(path: converted)
            defer { reader.close() }
            return try reader.readAll().map { Float($0) / Float(Int32.max) }
        }
        func silence(_ seconds: Double) -> [Float] { [Float](repeating: 0, count: Int(seconds * Double(SyntheticArticle.sampleRate))) }

        var takes: [Take] = []
        let paragraphs = SyntheticArticle.paragraphs
        for (order, readerIndex) in chosen.enumerated() {
            let (voice, rate) = Self.readers[readerIndex]
            let sentences = try paragraphs.map { paragraph in try paragraph.sentences.map { try speak($0.text, voice, rate) } }
            for index in paragraphs.indices {
                takes.append(Take(voice: voice, wordsPerMinute: rate, paragraph: index, fumble: nil, samples: sentences[index].flatMap { $0 }, truth: nil))
            }
            for index in paragraphs.indices where paragraphs[index].kind == .paragraph {
                let turn = index + order + readerIndex
                let kind = Kind.allCases[turn % Kind.allCases.count]
                let sentence = turn % paragraphs[index].sentences.count
                let words = paragraphs[index].sentences[sentence].text.split(separator: " ").map(String.init)
                let firstWords = 3 + index % 3
                var samples = sentences[index][..<sentence].flatMap { $0 }
                let cutStart: Int
                switch kind {
                case .restart, .restartWithAside, .falseStart:
                    cutStart = samples.count
                    switch kind {
                    case .restart:
                        samples += try speak(words.prefix(firstWords).joined(separator: " "), voice, rate) + silence(0.5)
                    case .restartWithAside:
                        samples += try speak(words.prefix(firstWords).joined(separator: " "), voice, rate)
                        samples += silence(0.2) + (try speak(Self.asides[turn % Self.asides.count], voice, rate)) + silence(0.3)
                    default:
                        // Broken off in the middle of the next word: the speech of the first
                        // words, then 40 % of what the next word adds, faded out over 10 ms.
                        let short = try speak(words.prefix(firstWords).joined(separator: " "), voice, rate)
                        let long = try speak(words.prefix(firstWords + 1).joined(separator: " "), voice, rate)
                        let shortEnd = Self.speechEnd(short), longEnd = Self.speechEnd(long)
                        let stop = shortEnd + (longEnd - shortEnd) * 2 / 5
                        var broken = Array(long[..<stop])
                        let fade = min(broken.count, SyntheticArticle.sampleRate / 100)
                        for offset in 0..<fade { broken[broken.count - fade + offset] *= Float(fade - offset) / Float(fade) }
                        samples += broken + silence(0.35)
                    }
                    let truth = cutStart..<samples.count
                    samples += sentences[index][sentence]
                    samples += sentences[index][(sentence + 1)...].flatMap { $0 }
                    takes.append(Take(voice: voice, wordsPerMinute: rate, paragraph: index, fumble: kind, samples: samples, truth: truth))
                case .restartMidSentence:
                    // Read up to word j, go back three words, read on: the part before, the
                    // three words (cut), a pause, the three words and the rest.
                    let j = max(5, min(words.count - 2, firstWords + 3))
                    samples += try speak(words[..<(j - 3)].joined(separator: " "), voice, rate)
                    let start = samples.count
                    samples += try speak(words[(j - 3)..<j].joined(separator: " "), voice, rate) + silence(0.45)
                    let truth = start..<samples.count
                    samples += try speak(words[(j - 3)...].joined(separator: " "), voice, rate)
                    samples += sentences[index][(sentence + 1)...].flatMap { $0 }
                    takes.append(Take(voice: voice, wordsPerMinute: rate, paragraph: index, fumble: kind, samples: samples, truth: truth))
                }
            }
        }
        self.takes = takes
    }

    /// The frame after the last one above −50 dBFS.
    static func speechEnd(_ samples: [Float]) -> Int {
        (samples.lastIndex { abs($0) > 0.003 } ?? 0) + 1
    }
}
